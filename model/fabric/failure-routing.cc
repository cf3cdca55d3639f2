/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "failure-routing.h"

#include "ns3/log.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FailureRouting");

namespace
{

constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();

/** \return true if \p node may carry traffic between other nodes */
bool
Forwards(const Fabric& fabric, uint32_t node)
{
    const FabricNode& n = fabric.GetNode(node);
    return n.kind == FabricNodeKind::Switch || n.forwards;
}

} // namespace

RoutingTable
ComputeRoutingAvoiding(const Fabric& fabric, const std::vector<bool>& linkDown)
{
    NS_LOG_FUNCTION(fabric.GetName());
    RoutingTable table(fabric.GetNodeCount(), fabric.GetNpuCount(), RoutingAlgorithm::ShortestPath);
    std::vector<uint32_t> hops(fabric.GetNodeCount());
    std::vector<uint32_t> order;
    std::vector<uint32_t> ports;
    for (uint32_t dst = 0; dst < fabric.GetNpuCount(); ++dst)
    {
        const uint32_t target = fabric.GetNpuNode(dst);
        std::fill(hops.begin(), hops.end(), kUnreached);
        order.assign(1, target);
        hops[target] = 0;
        // Breadth first from the destination; order doubles as the queue.
        for (size_t head = 0; head < order.size(); ++head)
        {
            const uint32_t node = order[head];
            if (node != target && !Forwards(fabric, node))
            {
                continue;
            }
            for (const auto& port : fabric.GetPorts(node))
            {
                if (!linkDown[port.link] && hops[port.peer] == kUnreached)
                {
                    hops[port.peer] = hops[node] + 1;
                    order.push_back(port.peer);
                }
            }
        }
        for (size_t i = 1; i < order.size(); ++i)
        {
            const uint32_t node = order[i];
            const auto& all = fabric.GetPorts(node);
            ports.clear();
            for (uint32_t p = 0; p < all.size(); ++p)
            {
                const uint32_t peer = all[p].peer;
                if (!linkDown[all[p].link] && hops[peer] == hops[node] - 1 &&
                    (peer == target || Forwards(fabric, peer)))
                {
                    ports.push_back(p);
                }
            }
            table.Set(node, dst, ports, hops[node]);
        }
    }
    return table;
}

} // namespace ns3
