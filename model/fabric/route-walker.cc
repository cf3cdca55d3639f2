/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "route-walker.h"

#include "ns3/input-error.h"

namespace ns3
{

RouteWalker::RouteWalker(const Fabric& fabric, const RoutingTable& routes)
    : m_fabric(fabric)
    , m_routes(routes)
{
    if (routes.GetNodeCount() != fabric.GetNodeCount() ||
        routes.GetNpuCount() != fabric.GetNpuCount())
    {
        throw InputError("fabric '" + fabric.GetName() + "': routing tables for " +
                         std::to_string(routes.GetNodeCount()) + " nodes and " +
                         std::to_string(routes.GetNpuCount()) + " NPUs, but the fabric has " +
                         std::to_string(fabric.GetNodeCount()) + " nodes and " +
                         std::to_string(fabric.GetNpuCount()) + " NPUs");
    }
}

std::vector<uint32_t>
RouteWalker::Walk(uint32_t fromRank, uint32_t toRank, const PortChoice& choose) const
{
    const uint32_t target = m_fabric.GetNpuNode(toRank);
    std::vector<uint32_t> path;
    uint32_t node = m_fabric.GetNpuNode(fromRank);
    while (node != target)
    {
        const PortSet ports = m_routes.GetEgressPorts(node, toRank);
        // A route longer than the node count has visited some node twice.
        if (ports.empty() || path.size() >= m_fabric.GetNodeCount())
        {
            throw InputError("fabric '" + m_fabric.GetName() + "': the route from NPU " +
                             std::to_string(fromRank) + " to NPU " + std::to_string(toRank) +
                             (ports.empty() ? " ends at node '" : " loops at node '") +
                             m_fabric.GetNode(node).name + "'");
        }
        const uint32_t port = ports.size() == 1 ? ports[0] : choose(node, ports);
        const FabricPort& p = m_fabric.GetPorts(node)[port];
        const bool fromA = m_fabric.GetLink(p.link).nodeA == node;
        path.push_back(2 * p.link + (fromA ? 0 : 1));
        node = p.peer;
    }
    return path;
}

} // namespace ns3
