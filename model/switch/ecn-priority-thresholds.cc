/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ecn-priority-thresholds.h"

#include "ns3/input-error.h"
#include "ns3/units.h"

#include <regex>
#include <sstream>

namespace ns3
{

EcnPriorityThresholds
ParseEcnPriorityThresholds(const std::string& text, const std::string& what)
{
    EcnPriorityThresholds result;
    std::istringstream entries(text);
    std::string item;
    size_t index = 0;
    while (std::getline(entries, item, ','))
    {
        ++index;
        static const std::regex form(
            R"(\s*([0-9]+)\s*:\s*([^/\s]+)\s*/\s*([^/\s]+)\s*/\s*((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*)");
        std::smatch m;
        const std::string where = what + ": entry " + std::to_string(index) + " '" + item + "'";
        if (!std::regex_match(item, m, form))
        {
            throw InputError(where + " is not PRIORITY:KMIN/KMAX/PMAX (e.g. 3:100KB/400KB/0.2)");
        }
        const unsigned long priority = std::stoul(m[1].str());
        if (priority >= kNumPriorities)
        {
            throw InputError(where + ": priority " + m[1].str() + " is not 0..7");
        }
        if (result[priority])
        {
            throw InputError(where + ": priority " + m[1].str() + " is set twice");
        }
        EcnThresholds ecn;
        ecn.kminBytes = ParseBytes(m[2].str(), where + ": Kmin");
        ecn.kmaxBytes = ParseBytes(m[3].str(), where + ": Kmax");
        ecn.pmax = std::stod(m[4].str());
        if (ecn.kminBytes > ecn.kmaxBytes)
        {
            throw InputError(where + ": Kmin is above Kmax");
        }
        if (ecn.pmax > 1)
        {
            throw InputError(where + ": Pmax must be in [0, 1]");
        }
        result[priority] = ecn;
    }
    return result;
}

} // namespace ns3
