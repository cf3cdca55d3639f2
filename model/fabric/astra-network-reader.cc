/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "astra-network-reader.h"

#include "ns3/fabric-check.h"
#include "ns3/log.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AstraNetworkReader");

namespace
{
/** Fastest link accepted, bit/s (as for rates given in bit/s). */
constexpr double kMaxBps = 1e16;
/** Longest latency accepted, ns: picoseconds must fit 63 bits. */
constexpr double kMaxNs = 9.2e15;
} // namespace

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
            static_cast<uint32_t>(input.Uint(lists[1][d], "npus_count" + index, 2, kMaxFabricNpus));
        const double gbytes = input.Number(lists[2][d], "bandwidth" + index);
        // GB/s with GB = 2^30 bytes, as ASTRA-sim's network side counts it.
        const double bps = gbytes * 1073741824.0 * 8.0;
        if (!(gbytes > 0))
        {
            input.Fail(lists[2][d], "bandwidth" + index, "must be > 0 GB/s");
        }
        if (!(bps >= 1 && bps <= kMaxBps))
        {
            input.Fail(lists[2][d],
                       "bandwidth" + index,
                       "must be between 1 bit/s and 10^16 bit/s (1.2e-10 to 1.16e6 GB/s)");
        }
        const double ns = input.Number(lists[3][d], "latency" + index);
        if (!(ns >= 0 && ns <= kMaxNs))
        {
            input.Fail(lists[3][d], "latency" + index, "must be in [0, 9.2e15] ns");
        }
        spec.link = defaults.Make(static_cast<uint64_t>(std::llround(bps)),
                                  static_cast<int64_t>(std::llround(ns * 1000.0)));
        spec.name = "dim" + std::to_string(d);
        specs.push_back(spec);
    }
    double npus = 1;
    for (const auto& spec : specs)
    {
        npus *= spec.npus;
    }
    CheckFabricSize(npus, CountDimensionLinks(specs, npus), input.Where(lists[1]) + ": npus_count");
    return specs;
}

double
CountDimensionLinks(const std::vector<DimensionSpec>& dims, double npus)
{
    double links = 0;
    for (const auto& dim : dims)
    {
        const double n = dim.npus;
        double perGroup = n;
        if (dim.topology == DimensionTopology::Ring && dim.npus == 2)
        {
            perGroup = 1;
        }
        else if (dim.topology == DimensionTopology::FullyConnected)
        {
            perGroup = n * (n - 1) / 2;
        }
        links += npus / n * perGroup;
    }
    return links;
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
