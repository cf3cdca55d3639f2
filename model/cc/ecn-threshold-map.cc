/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ecn-threshold-map.h"

#include "ns3/abort.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

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

/** \return the rate in bit/s, or 0 if the text is not a positive rate */
uint64_t
ParseRate(const std::string& text)
{
    static const std::regex form(R"(((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*([KMGT]?)(bps|b/s)?)");
    std::smatch m;
    if (!std::regex_match(text, m, form))
    {
        return 0;
    }
    long double value = std::stold(m[1].str());
    const std::string prefix = m[2].str();
    const long double scale = prefix == "K"   ? 1e3L
                              : prefix == "M" ? 1e6L
                              : prefix == "G" ? 1e9L
                              : prefix == "T" ? 1e12L
                                              : 1.0L;
    value *= scale;
    if (!(value >= 1) || value > 1e18L)
    {
        return 0;
    }
    return static_cast<uint64_t>(std::llround(value));
}

/** \return true and the size in bytes if the text is a size */
bool
ParseSize(const std::string& text, uint64_t& bytes)
{
    static const std::regex form(
        R"(((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(B|KB|kB|KiB|MB|MiB|GB|GiB)?)");
    std::smatch m;
    if (!std::regex_match(text, m, form))
    {
        return false;
    }
    const std::string unit = m[2].str();
    const long double scale = (unit == "KB" || unit == "kB") ? 1e3L
                              : unit == "KiB"                ? 1024.0L
                              : unit == "MB"                 ? 1e6L
                              : unit == "MiB"                ? 1048576.0L
                              : unit == "GB"                 ? 1e9L
                              : unit == "GiB"                ? 1073741824.0L
                                                             : 1.0L;
    const long double value = std::stold(m[1].str()) * scale;
    if (value > 1e18L)
    {
        return false;
    }
    bytes = static_cast<uint64_t>(std::llround(value));
    return true;
}

std::string
FormatRate(uint64_t bps)
{
    static const std::pair<uint64_t, const char*> units[] = {
        {1000 * kGiga, "T"}, {kGiga, "G"}, {1000000, "M"}, {1000, "K"}};
    for (const auto& [scale, name] : units)
    {
        if (bps % scale == 0)
        {
            return std::to_string(bps / scale) + name;
        }
    }
    return std::to_string(bps);
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
            throw InputError(where + " is not RATE:KMIN/KMAX/PMAX (e.g. 25G:100KB/400KB/0.2)");
        }
        const uint64_t rate = ParseRate(Trim(m[1].str()));
        if (rate == 0)
        {
            throw InputError(where + ": '" + Trim(m[1].str()) +
                             "' is not a positive rate (e.g. 25G or 25Gbps)");
        }
        EcnMapEntry entry;
        if (!ParseSize(Trim(m[2].str()), entry.kminBytes) ||
            !ParseSize(Trim(m[3].str()), entry.kmaxBytes))
        {
            throw InputError(where + ": Kmin and Kmax must be sizes (e.g. 100KB)");
        }
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
