/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "analytical-topology.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <iostream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AnalyticalTopology");

namespace
{

/** "file:line: key" for a YAML node. */
std::string
Where(const std::string& source, const YAML::Node& node, const std::string& key)
{
    const auto mark = node.Mark();
    if (mark.line < 0)
    {
        return source + ": " + key;
    }
    return source + ":" + std::to_string(mark.line + 1) + ": " + key;
}

/** The list under \p key, one entry per dimension. */
YAML::Node
ListAt(const YAML::Node& root, const std::string& key, const std::string& source)
{
    const YAML::Node list = root[key];
    if (!list)
    {
        throw InputError(source + ": key \"" + key + "\" is missing");
    }
    if (!list.IsSequence() || list.size() == 0)
    {
        throw InputError(Where(source, list, key) + ": expected a list, one entry per dimension");
    }
    return list;
}

template <typename T>
T
Scalar(const YAML::Node& item, const std::string& where)
{
    try
    {
        return item.as<T>();
    }
    catch (const YAML::Exception&)
    {
        throw InputError(where + ": \"" + (item.IsScalar() ? item.Scalar() : "<not a value>") +
                         "\" is not a valid value");
    }
}

AnalyticalBlock
ParseBlock(const std::string& name, const std::string& where)
{
    if (name == "Ring")
    {
        return AnalyticalBlock::Ring;
    }
    if (name == "FullyConnected")
    {
        return AnalyticalBlock::FullyConnected;
    }
    if (name == "Switch")
    {
        return AnalyticalBlock::Switch;
    }
    throw InputError(where + ": topology \"" + name + "\" is not Ring, FullyConnected or Switch");
}

} // namespace

AnalyticalTopology::AnalyticalTopology(std::vector<AnalyticalDimension> dimensions)
    : m_dimensions(std::move(dimensions))
{
    if (m_dimensions.empty())
    {
        throw InputError("analytical topology: no dimensions");
    }
    uint64_t npus = 1;
    for (size_t d = 0; d < m_dimensions.size(); ++d)
    {
        const AnalyticalDimension& dim = m_dimensions[d];
        const std::string where = "analytical topology: dimension " + std::to_string(d);
        if (dim.npus < 2)
        {
            throw InputError(where + ": npus_count must be larger than 1");
        }
        if (!(dim.bandwidthGBps > 0))
        {
            throw InputError(where + ": bandwidth must be > 0");
        }
        if (!(dim.latencyNs >= 0))
        {
            throw InputError(where + ": latency must be >= 0");
        }
        m_strides.push_back(static_cast<uint32_t>(npus));
        npus *= dim.npus;
        if (npus > (1ULL << 31))
        {
            throw InputError("analytical topology: more than 2^31 NPUs");
        }
    }
    m_npus = static_cast<uint32_t>(npus);
}

AnalyticalTopology
AnalyticalTopology::LoadYaml(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw InputError(path + ": cannot open the file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return ParseYaml(text.str(), path);
}

AnalyticalTopology
AnalyticalTopology::ParseYaml(const std::string& text, const std::string& source)
{
    YAML::Node root;
    try
    {
        root = YAML::Load(text);
    }
    catch (const YAML::Exception& e)
    {
        throw InputError(source + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML");
    }
    if (!root.IsMap())
    {
        throw InputError(source + ": expected keys topology, npus_count, bandwidth, latency");
    }
    for (const auto& entry : root)
    {
        const std::string key = entry.first.as<std::string>();
        if (key != "topology" && key != "npus_count" && key != "bandwidth" && key != "latency")
        {
            std::cerr << "warning: " << Where(source, entry.first, key) << ": unknown key, ignored"
                      << std::endl;
        }
    }
    const YAML::Node topology = ListAt(root, "topology", source);
    const YAML::Node npus = ListAt(root, "npus_count", source);
    const YAML::Node bandwidth = ListAt(root, "bandwidth", source);
    const YAML::Node latency = ListAt(root, "latency", source);
    for (const auto& [list, key] : {std::pair{npus, "npus_count"},
                                    std::pair{bandwidth, "bandwidth"},
                                    std::pair{latency, "latency"}})
    {
        if (list.size() != topology.size())
        {
            throw InputError(Where(source, list, key) + ": " + std::to_string(list.size()) +
                             " entries but topology has " + std::to_string(topology.size()));
        }
    }
    std::vector<AnalyticalDimension> dims;
    for (size_t d = 0; d < topology.size(); ++d)
    {
        AnalyticalDimension dim;
        dim.block =
            ParseBlock(Scalar<std::string>(topology[d], Where(source, topology[d], "topology")),
                       Where(source, topology[d], "topology"));
        const std::string npusWhere = Where(source, npus[d], "npus_count");
        const int64_t count = Scalar<int64_t>(npus[d], npusWhere);
        if (count < 2 || count > (1LL << 31))
        {
            throw InputError(npusWhere + ": " + std::to_string(count) +
                             " NPUs; a dimension needs more than 1");
        }
        dim.npus = static_cast<uint32_t>(count);
        const std::string bwWhere = Where(source, bandwidth[d], "bandwidth");
        dim.bandwidthGBps = Scalar<double>(bandwidth[d], bwWhere);
        if (!(dim.bandwidthGBps > 0))
        {
            throw InputError(bwWhere + ": must be > 0");
        }
        const std::string latWhere = Where(source, latency[d], "latency");
        dim.latencyNs = Scalar<double>(latency[d], latWhere);
        if (!(dim.latencyNs >= 0))
        {
            throw InputError(latWhere + ": must be >= 0");
        }
        dims.push_back(dim);
    }
    try
    {
        return AnalyticalTopology(std::move(dims));
    }
    catch (const InputError& e)
    {
        throw InputError(source + ": " + e.what());
    }
}

std::vector<uint32_t>
AnalyticalTopology::GetNpusPerDimension() const
{
    std::vector<uint32_t> sizes;
    for (const auto& d : m_dimensions)
    {
        sizes.push_back(d.npus);
    }
    return sizes;
}

uint32_t
AnalyticalTopology::FirstDifferingDimension(uint32_t src, uint32_t dst) const
{
    for (uint32_t d = 0; d < m_dimensions.size(); ++d)
    {
        if (GetCoordinate(src, d) != GetCoordinate(dst, d))
        {
            return d;
        }
    }
    return static_cast<uint32_t>(m_dimensions.size());
}

} // namespace ns3
