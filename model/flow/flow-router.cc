/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-router.h"

#include "ns3/flow-hash.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowRouter");

FlowRouter::FlowRouter(const Fabric& fabric, const RoutingTable& routes)
    : m_fabric(fabric)
    , m_walker(fabric, routes)
{
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
    return m_walker.Walk(fromRank,
                         toRank,
                         [&](uint32_t node, const PortSet& ports)
                         {
                             const uint32_t hash =
                                 node == source ? firstHash
                                                : FlowHash(source, target, fromQp, toQp, node);
                             return ports[hash % ports.size()];
                         });
}

} // namespace ns3
