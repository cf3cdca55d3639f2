/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-router.h"

#include "ns3/flow-hash.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowRouter");

FlowRouter::FlowRouter(const Fabric& fabric, const RoutingTable& routes)
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
FlowRouter::DataPath(uint32_t srcRank, uint32_t dstRank, uint32_t srcQp, uint32_t dstQp) const
{
    const uint32_t from = m_fabric.GetNpuNode(srcRank);
    const uint32_t to = m_fabric.GetNpuNode(dstRank);
    return Walk(srcRank, dstRank, srcQp, dstQp, FlowHash(from, to, srcQp, dstQp, 0));
}

std::vector<uint32_t>
FlowRouter::AckPath(uint32_t srcRank, uint32_t dstRank, uint32_t srcQp, uint32_t dstQp) const
{
    return Walk(dstRank, srcRank, dstQp, srcQp, srcQp);
}

std::vector<uint32_t>
FlowRouter::Walk(
    uint32_t fromRank, uint32_t toRank, uint32_t fromQp, uint32_t toQp, uint32_t firstHash) const
{
    const uint32_t source = m_fabric.GetNpuNode(fromRank);
    const uint32_t target = m_fabric.GetNpuNode(toRank);
    std::vector<uint32_t> path;
    uint32_t node = source;
    while (node != target)
    {
        const PortSet ports = m_routes.GetEgressPorts(node, toRank);
        if (ports.empty() || path.size() >= m_fabric.GetNodeCount())
        {
            throw InputError("fabric '" + m_fabric.GetName() + "': the route from NPU " +
                             std::to_string(fromRank) + " to NPU " + std::to_string(toRank) +
                             (ports.empty() ? " ends at node '" : " loops at node '") +
                             m_fabric.GetNode(node).name + "'");
        }
        const uint32_t hash =
            node == source ? firstHash : FlowHash(source, target, fromQp, toQp, node);
        const uint32_t port = ports[hash % ports.size()];
        const FabricPort& p = m_fabric.GetPorts(node)[port];
        const bool fromA = m_fabric.GetLink(p.link).nodeA == node;
        path.push_back(2 * p.link + (fromA ? 0 : 1));
        node = p.peer;
    }
    return path;
}

} // namespace ns3
