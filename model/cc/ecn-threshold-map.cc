/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ecn-threshold-map.h"

#include "ns3/abort.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/units.h"

#include <cmath>
#include <iterator>
#include <regex>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcnThresholdMap");

ATTRIBUTE_HELPER_CPP(EcnThresholdMap);

namespace
{

constexpr uint64_t kGiga = 1000000000ULL;
constexpr uint64_t kKB = 1000;

std::string
Trim(const std::string& text)
{
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos)
    {
        return "";
    }
    const auto last = text.find_last_not_of(" \t");
    return text.substr(first, last - first + 1);
}

std::string
FormatSize(uint64_t bytes)
{
    if (bytes != 0 && bytes % (kKB * kKB) == 0)
    {
        return std::to_string(bytes / (kKB * kKB)) + "MB";
    }
    if (bytes != 0 && bytes % kKB == 0)
    {
        return std::to_string(bytes / kKB) + "KB";
    }
    return std::to_string(bytes) + "B";
}

/** \return an empty string if the entry is valid, else what is wrong */
std::string
Problem(uint64_t rateBps, const EcnMapEntry& entry)
{
    if (rateBps == 0)
    {
        return "the rate must be positive";
    }
    if (entry.kminBytes > entry.kmaxBytes)
    {
        return "Kmin " + FormatSize(entry.kminBytes) + " is above Kmax " +
               FormatSize(entry.kmaxBytes);
    }
    if (!(entry.pmax >= 0 && entry.pmax <= 1))
    {
        return "Pmax must be in [0, 1]";
    }
    return "";
}

} // namespace

EcnThresholdMap
EcnThresholdMap::PeerDefault()
{
    EcnThresholdMap map;
    const struct
    {
        uint64_t gbps;
        uint64_t kminKB;
        uint64_t kmaxKB;
    } rows[] = {{25, 100, 400},
                {40, 200, 800},
                {50, 200, 800},
                {100, 400, 1600},
                {200, 600, 2400},
                {400, 800, 3200},
                {2400, 800, 3200}};
    for (const auto& row : rows)
    {
        map.Set(row.gbps * kGiga, {row.kminKB * kKB, row.kmaxKB * kKB, 0.2});
    }
    return map;
}

EcnThresholdMap
EcnThresholdMap::Parse(const std::string& text)
{
    EcnThresholdMap map;
    std::istringstream entries(text);
    std::string item;
    std::size_t index = 0;
    while (std::getline(entries, item, ','))
    {
        ++index;
        const std::string entryText = Trim(item);
        const std::string where =
            "ECN threshold map: entry " + std::to_string(index) + " '" + entryText + "'";
        static const std::regex form(R"(([^:]+):([^/]+)/([^/]+)/([^/]+))");
        std::smatch m;
        if (!std::regex_match(entryText, m, form))
        {
            throw InputError(where + " is not RATE:KMIN/KMAX/PMAX (e.g. 25Gbps:100KB/400KB/0.2)");
        }
        const uint64_t rate = ParseRateBps(Trim(m[1].str()), where + ": rate");
        EcnMapEntry entry;
        entry.kminBytes = ParseBytes(Trim(m[2].str()), where + ": Kmin");
        entry.kmaxBytes = ParseBytes(Trim(m[3].str()), where + ": Kmax");
        static const std::regex real(R"((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)");
        const std::string pmax = Trim(m[4].str());
        if (!std::regex_match(pmax, real))
        {
            throw InputError(where + ": Pmax '" + pmax + "' is not a number");
        }
        entry.pmax = std::stod(pmax);
        if (map.m_entries.count(rate) != 0)
        {
            throw InputError(where + ": rate " + FormatRate(rate) + " is defined twice");
        }
        const std::string problem = Problem(rate, entry);
        if (!problem.empty())
        {
            throw InputError(where + ": " + problem);
        }
        map.m_entries[rate] = entry;
    }
    if (map.m_entries.empty())
    {
        throw InputError("ECN threshold map '" + text + "' has no entries");
    }
    return map;
}

void
EcnThresholdMap::Set(uint64_t rateBps, const EcnMapEntry& entry)
{
    const std::string problem = Problem(rateBps, entry);
    if (!problem.empty())
    {
        throw InputError("ECN threshold map: rate " + FormatRate(rateBps) + ": " + problem);
    }
    m_entries[rateBps] = entry;
}

EcnMapEntry
EcnThresholdMap::Lookup(uint64_t rateBps) const
{
    NS_ABORT_MSG_IF(m_entries.empty(), "lookup in an empty ECN threshold map");
    auto it = m_entries.upper_bound(rateBps);
    if (it == m_entries.begin())
    {
        return it->second;
    }
    return std::prev(it)->second;
}

std::size_t
EcnThresholdMap::GetN() const
{
    return m_entries.size();
}

std::string
EcnThresholdMap::ToString() const
{
    std::ostringstream out;
    bool first = true;
    for (const auto& [rate, entry] : m_entries)
    {
        out << (first ? "" : ",") << FormatRate(rate) << ":" << FormatSize(entry.kminBytes) << "/"
            << FormatSize(entry.kmaxBytes) << "/" << entry.pmax;
        first = false;
    }
    return out.str();
}

bool
EcnThresholdMap::operator==(const EcnThresholdMap& other) const
{
    if (m_entries.size() != other.m_entries.size())
    {
        return false;
    }
    for (const auto& [rate, entry] : m_entries)
    {
        auto it = other.m_entries.find(rate);
        if (it == other.m_entries.end() || it->second.kminBytes != entry.kminBytes ||
            it->second.kmaxBytes != entry.kmaxBytes || it->second.pmax != entry.pmax)
        {
            return false;
        }
    }
    return true;
}

std::ostream&
operator<<(std::ostream& os, const EcnThresholdMap& map)
{
    return os << map.ToString();
}

std::istream&
operator>>(std::istream& is, EcnThresholdMap& map)
{
    // The text form has no terminator: it takes the rest of the stream.
    std::string text((std::istreambuf_iterator<char>(is)), std::istreambuf_iterator<char>());
    is.setstate(std::ios::eofbit);
    try
    {
        map = EcnThresholdMap::Parse(text);
    }
    catch (const InputError& e)
    {
        NS_LOG_WARN(e.what());
        is.setstate(std::ios::failbit);
    }
    return is;
}

} // namespace ns3
