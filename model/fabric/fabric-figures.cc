/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-figures.h"

#include "ns3/bisection.h"
#include "ns3/hop-search.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricFigures");

namespace
{

std::vector<DimensionFigures>
ComputeDimensionFigures(const Fabric& fabric)
{
    std::vector<DimensionFigures> figures;
    for (const auto& dim : fabric.GetDimensions())
    {
        figures.push_back(DimensionFigures{dim.name, dim.topology, dim.size, 0, 0, 0});
    }
    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        const FabricLink& link = fabric.GetLink(l);
        if (link.dimension >= 0 && link.dimension < static_cast<int32_t>(figures.size()))
        {
            auto& dim = figures[link.dimension];
            ++dim.links;
            dim.linkRateBps = std::max(dim.linkRateBps, link.settings.rateBps);
        }
    }
    std::vector<uint64_t> sums(figures.size(), 0);
    for (uint32_t rank = 0; rank < fabric.GetNpuCount(); ++rank)
    {
        for (const auto& port : fabric.GetPorts(fabric.GetNpuNode(rank)))
        {
            const FabricLink& link = fabric.GetLink(port.link);
            if (link.dimension >= 0 && link.dimension < static_cast<int32_t>(figures.size()))
            {
                sums[link.dimension] += link.settings.rateBps;
            }
        }
    }
    for (size_t d = 0; d < figures.size(); ++d)
    {
        figures[d].npuBandwidthBps = sums[d] / std::max<uint32_t>(fabric.GetNpuCount(), 1);
    }
    return figures;
}

uint32_t
ComputeDiameter(const Fabric& fabric)
{
    HopSearch search(fabric);
    uint32_t diameter = 0;
    for (uint32_t dst = 0; dst < fabric.GetNpuCount(); ++dst)
    {
        search.Run(fabric.GetNpuNode(dst));
        for (uint32_t src = 0; src < fabric.GetNpuCount(); ++src)
        {
            const uint32_t hops = search.GetHops(fabric.GetNpuNode(src));
            if (hops != HopSearch::kUnreached)
            {
                diameter = std::max(diameter, hops);
            }
        }
    }
    return diameter;
}

} // namespace

FabricFigures
ComputeFabricFigures(const Fabric& fabric,
                     const RoutingTable& routing,
                     const ChannelDependencyGraph& cdg)
{
    FabricFigures f;
    f.name = fabric.GetName();
    f.nodes = fabric.GetNodeCount();
    f.npus = fabric.GetNpuCount();
    f.switches = fabric.GetSwitchCount();
    f.links = fabric.GetLinkCount();
    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        ++f.linksByRate[fabric.GetLink(l).settings.rateBps];
    }
    f.dimensions = ComputeDimensionFigures(fabric);

    f.rankHalvesCutBps = ComputeRankHalvesCut(fabric);
    if (fabric.GetStructuralBisection() != 0)
    {
        f.bisectionBps = fabric.GetStructuralBisection();
        f.bisectionMethod = "structure";
    }
    else
    {
        f.bisectionBps = f.rankHalvesCutBps;
        f.bisectionMethod = "rank-halves cut";
    }

    f.diameter = ComputeDiameter(fabric);
    uint64_t sets = 0;
    uint64_t ports = 0;
    for (uint32_t dst = 0; dst < routing.GetNpuCount(); ++dst)
    {
        const uint32_t dstNode = fabric.GetNpuNode(dst);
        for (uint32_t node = 0; node < routing.GetNodeCount(); ++node)
        {
            const PortSet set = routing.GetEgressPorts(node, dst);
            if (node == dstNode || set.empty())
            {
                continue;
            }
            ++sets;
            ports += set.size();
            f.ecmpMax = std::max(f.ecmpMax, set.size());
            if (fabric.IsNpu(node))
            {
                f.longestRoute = std::max(f.longestRoute, routing.GetHops(node, dst));
            }
        }
    }
    f.ecmpMean = sets == 0 ? 0.0 : static_cast<double>(ports) / static_cast<double>(sets);
    f.routing = GetRoutingAlgorithmName(routing.GetAlgorithm());
    f.npuForwarding = fabric.GetNode(fabric.GetNpuNode(0)).forwards;

    f.channels = cdg.GetChannelCount();
    f.dependencies = cdg.GetDependencyCount();
    f.cdgCyclic = cdg.IsCyclic();
    f.cdgCycle = cdg.DescribeCycle();
    return f;
}

nlohmann::json
FabricFiguresToJson(const FabricFigures& f)
{
    nlohmann::json json;
    json["name"] = f.name;
    json["nodes"] = f.nodes;
    json["npus"] = f.npus;
    json["switches"] = f.switches;
    json["links"] = f.links;
    nlohmann::json byRate = nlohmann::json::array();
    for (const auto& [rate, count] : f.linksByRate)
    {
        byRate.push_back({{"rate_bps", rate}, {"links", count}});
    }
    json["links_by_rate"] = byRate;
    nlohmann::json dims = nlohmann::json::array();
    for (const auto& d : f.dimensions)
    {
        dims.push_back({{"name", d.name},
                        {"topology", d.topology},
                        {"size", d.size},
                        {"links", d.links},
                        {"link_rate_bps", d.linkRateBps},
                        {"npu_bandwidth_bps", d.npuBandwidthBps}});
    }
    json["dimensions"] = dims;
    json["bisection_bps"] = f.bisectionBps;
    json["bisection_method"] = f.bisectionMethod;
    json["rank_halves_cut_bps"] = f.rankHalvesCutBps;
    json["diameter_hops"] = f.diameter;
    json["longest_route_hops"] = f.longestRoute;
    json["ecmp_width_max"] = f.ecmpMax;
    json["ecmp_width_mean"] = f.ecmpMean;
    json["routing"] = f.routing;
    json["npu_forwarding"] = f.npuForwarding;
    json["cdg_channels"] = f.channels;
    json["cdg_dependencies"] = f.dependencies;
    json["cdg_cyclic"] = f.cdgCyclic;
    json["cdg_example_cycle"] = f.cdgCycle;
    return json;
}

} // namespace ns3
