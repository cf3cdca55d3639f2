/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dimension-order-routing.h"

#include "ns3/hop-search.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/mixed-radix.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DimensionOrderRouting");

namespace
{

constexpr uint32_t kNone = Fabric::kNoNode;

/** Ports of each NPU toward its ring neighbours, per ring dimension. */
struct RingPorts
{
    std::vector<uint32_t> up;   //!< (rank * dims + d) -> port toward coordinate + 1
    std::vector<uint32_t> down; //!< (rank * dims + d) -> port toward coordinate - 1
};

/** Check that the fabric carries the dimension metadata the routing needs. */
MixedRadix
CheckDimensions(const Fabric& fabric)
{
    const std::string where = "fabric '" + fabric.GetName() + "': dimension-order routing";
    const auto& dims = fabric.GetDimensions();
    if (dims.empty())
    {
        throw InputError(where + " needs dimensions, and this fabric has none (use shortest)");
    }
    std::vector<uint32_t> sizes;
    for (const auto& dim : dims)
    {
        sizes.push_back(dim.size);
    }
    MixedRadix radix(sizes);
    if (radix.GetProduct() != fabric.GetNpuCount())
    {
        throw InputError(where + ": dimension sizes multiply to " +
                         std::to_string(radix.GetProduct()) + ", not to the " +
                         std::to_string(fabric.GetNpuCount()) + " NPUs");
    }
    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        const FabricLink& link = fabric.GetLink(l);
        if (link.dimension < 0 || link.dimension >= static_cast<int32_t>(dims.size()))
        {
            throw InputError(where + ": link '" + fabric.GetNode(link.nodeA).name + "' - '" +
                             fabric.GetNode(link.nodeB).name + "' belongs to no dimension");
        }
    }
    return radix;
}

RingPorts
FindRingPorts(const Fabric& fabric, const MixedRadix& radix)
{
    const uint32_t dims = radix.GetDimensionCount();
    RingPorts ring{std::vector<uint32_t>(uint64_t{fabric.GetNpuCount()} * dims, kNone),
                   std::vector<uint32_t>(uint64_t{fabric.GetNpuCount()} * dims, kNone)};
    for (uint32_t rank = 0; rank < fabric.GetNpuCount(); ++rank)
    {
        const auto& ports = fabric.GetPorts(fabric.GetNpuNode(rank));
        for (uint32_t p = 0; p < ports.size(); ++p)
        {
            const auto d = static_cast<uint32_t>(fabric.GetLink(ports[p].link).dimension);
            if (fabric.GetDimensions()[d].topology != "Ring" || !fabric.IsNpu(ports[p].peer))
            {
                continue;
            }
            const uint32_t n = radix.GetSize(d);
            const uint32_t mine = radix.GetCoordinate(rank, d);
            const uint32_t theirs = radix.GetCoordinate(fabric.GetNode(ports[p].peer).rank, d);
            if (theirs == (mine + 1) % n)
            {
                ring.up[uint64_t{rank} * dims + d] = p;
            }
            if (theirs == (mine + n - 1) % n)
            {
                ring.down[uint64_t{rank} * dims + d] = p;
            }
        }
    }
    return ring;
}

/**
 * One way round a ring from coordinate a to b that never passes through coordinate 0.
 * \param up set to true for increasing coordinates
 * \return hops
 */
uint32_t
RingDirection(uint32_t a, uint32_t b, uint32_t n, bool& up)
{
    const uint32_t upHops = (b + n - a) % n;
    const uint32_t downHops = (a + n - b) % n;
    const bool upCrossesZero = a > b && b != 0;
    const bool downCrossesZero = a < b && a != 0;
    up = !upCrossesZero && (downCrossesZero || upHops <= downHops);
    return up ? upHops : downHops;
}

} // namespace

RoutingTable
ComputeDimensionOrderRouting(const Fabric& fabric)
{
    const MixedRadix radix = CheckDimensions(fabric);
    const RingPorts ring = FindRingPorts(fabric, radix);
    const uint32_t npus = fabric.GetNpuCount();
    const uint32_t dims = radix.GetDimensionCount();
    const std::string where = "fabric '" + fabric.GetName() + "': dimension-order routing";

    RoutingTable table(fabric.GetNodeCount(), npus, RoutingAlgorithm::DimensionOrder);
    HopSearch search(fabric);
    std::vector<uint32_t> npuHops(npus, 0);
    std::vector<uint32_t> switchTarget(fabric.GetNodeCount(), kNone);
    std::vector<uint32_t> assigned;
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> phases(dims); // (w, v) per dimension

    for (uint32_t dst = 0; dst < npus; ++dst)
    {
        for (auto& phase : phases)
        {
            phase.clear();
        }
        for (uint32_t v = 0; v < npus; ++v)
        {
            for (uint32_t d = 0; d < dims; ++d)
            {
                const uint32_t want = radix.GetCoordinate(dst, d);
                if (radix.GetCoordinate(v, d) != want)
                {
                    phases[d].emplace_back(static_cast<uint32_t>(radix.WithCoordinate(v, d, want)),
                                           v);
                    break;
                }
            }
        }
        npuHops[dst] = 0;
        // Highest dimension first: its intermediate NPUs are the next ones' targets.
        for (uint32_t d = dims; d-- > 0;)
        {
            if (fabric.GetDimensions()[d].topology == "Ring")
            {
                for (const auto& [w, v] : phases[d])
                {
                    bool up = true;
                    const uint32_t hops = RingDirection(
                        radix.GetCoordinate(v, d), radix.GetCoordinate(w, d), radix.GetSize(d), up);
                    const uint32_t port =
                        up ? ring.up[uint64_t{v} * dims + d] : ring.down[uint64_t{v} * dims + d];
                    if (port == kNone)
                    {
                        throw InputError(where + ": NPU " + std::to_string(v) +
                                         " has no ring neighbour in dimension " +
                                         std::to_string(d));
                    }
                    npuHops[v] = hops + npuHops[w];
                    table.Set(fabric.GetNpuNode(v), dst, {port}, npuHops[v]);
                }
                continue;
            }
            std::sort(phases[d].begin(), phases[d].end());
            for (size_t i = 0; i < phases[d].size();)
            {
                const uint32_t w = phases[d][i].first;
                search.RunWithinDimension(fabric.GetNpuNode(w), static_cast<int32_t>(d));
                for (uint32_t node : search.GetReached())
                {
                    if (fabric.IsNpu(node))
                    {
                        continue;
                    }
                    if (switchTarget[node] == kNone)
                    {
                        switchTarget[node] = w;
                        assigned.push_back(node);
                        table.Set(node,
                                  dst,
                                  search.GetNextPorts(node),
                                  search.GetHops(node) + npuHops[w]);
                    }
                    else if (switchTarget[node] != w)
                    {
                        throw InputError(
                            where + ": switch '" + fabric.GetNode(node).name + "' would send NPU " +
                            std::to_string(dst) + "'s traffic toward NPUs " +
                            std::to_string(switchTarget[node]) + " and " + std::to_string(w));
                    }
                }
                for (; i < phases[d].size() && phases[d][i].first == w; ++i)
                {
                    const uint32_t v = phases[d][i].second;
                    const uint32_t node = fabric.GetNpuNode(v);
                    const uint32_t hops = search.GetHops(node);
                    if (hops == HopSearch::kUnreached)
                    {
                        throw InputError(where + ": NPU " + std::to_string(v) +
                                         " cannot reach NPU " + std::to_string(w) +
                                         " within dimension " + std::to_string(d));
                    }
                    npuHops[v] = hops + npuHops[w];
                    table.Set(node, dst, search.GetNextPorts(node), npuHops[v]);
                }
            }
        }
        table.Set(fabric.GetNpuNode(dst), dst, {}, 0);
        for (uint32_t node : assigned)
        {
            switchTarget[node] = kNone;
        }
        assigned.clear();
    }
    return table;
}

} // namespace ns3
