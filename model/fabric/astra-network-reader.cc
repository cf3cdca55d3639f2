/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "astra-network-reader.h"

#include "fabric-check.h"

#include "ns3/log.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AstraNetworkReader");

std::string
GetFileStem(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    const auto dot = name.find_last_of('.');
    return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

std::vector<DimensionSpec>
ParseAstraNetwork(const YamlInput& input, const LinkDefaults& defaults)
{
    const YAML::Node& root = input.GetRoot();
    input.CheckKeys(root, "", {"topology", "npus_count", "bandwidth", "latency"});
    const char* keys[] = {"topology", "npus_count", "bandwidth", "latency"};
    std::vector<YAML::Node> lists;
    for (const char* key : keys)
    {
        lists.push_back(input.Require(root, key));
        input.RequireSequence(lists.back(), key);
    }
    const size_t dims = lists[0].size();
    if (dims == 0)
    {
        input.Fail(lists[0], "topology", "needs at least one dimension");
    }
    for (size_t k = 1; k < lists.size(); ++k)
    {
        if (lists[k].size() != dims)
        {
            input.Fail(lists[k],
                       keys[k],
                       "has " + std::to_string(lists[k].size()) + " entries but topology has " +
                           std::to_string(dims) + " (one per dimension)");
        }
    }
    std::vector<DimensionSpec> specs;
    for (size_t d = 0; d < dims; ++d)
    {
        const std::string index = "[" + std::to_string(d) + "]";
        DimensionSpec spec;
        const std::string name = input.String(lists[0][d], "topology" + index);
        if (!ParseDimensionTopology(name, spec.topology))
        {
            input.Fail(lists[0][d],
                       "topology" + index,
                       "unknown topology '" + name + "' (known: Ring, FullyConnected, Switch)");
        }
        spec.npus =
            static_cast<uint32_t>(input.Uint(lists[1][d], "npus_count" + index, 2, 1u << 24));
        const double gbytes = input.Number(lists[2][d], "bandwidth" + index);
        if (!(gbytes > 0))
        {
            input.Fail(lists[2][d], "bandwidth" + index, "must be > 0 GB/s");
        }
        const double ns = input.Number(lists[3][d], "latency" + index);
        if (ns < 0)
        {
            input.Fail(lists[3][d], "latency" + index, "must be >= 0 ns");
        }
        // GB/s with GB = 2^30 bytes, as ASTRA-sim's network side counts it.
        const auto bps = static_cast<uint64_t>(std::llround(gbytes * 1073741824.0 * 8.0));
        spec.link = defaults.Make(bps, static_cast<int64_t>(std::llround(ns * 1000.0)));
        spec.name = "dim" + std::to_string(d);
        specs.push_back(spec);
    }
    return specs;
}

Fabric
ReadAstraNetwork(const std::string& path, const LinkDefaults& defaults)
{
    const YamlInput input(path);
    Fabric fabric = BuildMultiDim(GetFileStem(path), ParseAstraNetwork(input, defaults));
    CheckFabric(fabric, path);
    return fabric;
}

} // namespace ns3
