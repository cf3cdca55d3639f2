/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "shortest-path-routing.h"

#include "ns3/hop-search.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ShortestPathRouting");

RoutingTable
ComputeShortestPathRouting(const Fabric& fabric, bool allowUnreachable)
{
    RoutingTable table(fabric.GetNodeCount(), fabric.GetNpuCount(), RoutingAlgorithm::ShortestPath);
    HopSearch search(fabric);
    for (uint32_t dst = 0; dst < fabric.GetNpuCount(); ++dst)
    {
        const uint32_t target = fabric.GetNpuNode(dst);
        search.Run(target);
        for (uint32_t node : search.GetReached())
        {
            table.Set(node, dst, search.GetNextPorts(node), search.GetHops(node));
        }
        for (uint32_t src = 0; src < fabric.GetNpuCount() && !allowUnreachable; ++src)
        {
            if (search.GetHops(fabric.GetNpuNode(src)) == HopSearch::kUnreached)
            {
                throw InputError("fabric '" + fabric.GetName() + "': NPU " + std::to_string(src) +
                                 " cannot reach NPU " + std::to_string(dst) +
                                 (fabric.GetNode(fabric.GetNpuNode(src)).forwards
                                      ? ""
                                      : " (NPUs do not forward)"));
            }
        }
    }
    return table;
}

} // namespace ns3
