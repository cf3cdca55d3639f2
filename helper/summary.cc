/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "summary.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Summary");

void
WriteSummary(const std::string& path, const nlohmann::json& summary)
{
    if (path.empty())
    {
        return;
    }
    std::ofstream out(path);
    if (!out)
    {
        throw InputError(path + ": cannot write summary: " + std::strerror(errno));
    }
    out << summary.dump(2) << '\n';
    if (!out)
    {
        throw InputError(path + ": write failed: " + std::strerror(errno));
    }
}

} // namespace ns3
