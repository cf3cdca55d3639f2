/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "analytical-paths.h"

#include "ns3/analytical-fabric-dimensions.h"
#include "ns3/flow-hash.h"
#include "ns3/log.h"

#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AnalyticalPaths");

std::string
GetEcmpChoiceName(EcmpChoice choice)
{
    return choice == EcmpChoice::FlowHash ? "flow hash" : "lowest dimension";
}

AnalyticalPaths::AnalyticalPaths(const Fabric& fabric, const RoutingTable& routes)
    : m_fabric(fabric)
    , m_walker(fabric, routes)
    , m_choice(EcmpChoice::FlowHash)
{
    if (HasAnalyticalDimensions(fabric))
    {
        m_choice = EcmpChoice::LowestDimension;
        std::vector<uint32_t> sizes;
        for (const auto& dim : fabric.GetDimensions())
        {
            sizes.push_back(dim.size);
        }
        m_radix = std::make_unique<MixedRadix>(sizes);
    }
    NS_LOG_INFO("fabric " << fabric.GetName() << ": ECMP by " << GetEcmpChoiceName(m_choice));
}

uint32_t
AnalyticalPaths::ChooseLowestDimension(uint32_t node, const PortSet& ports) const
{
    const auto& all = m_fabric.GetPorts(node);
    const bool npu = m_fabric.IsNpu(node);
    const uint32_t rank = npu ? m_fabric.GetNode(node).rank : 0;
    std::tuple<int32_t, bool, uint32_t> best{0, true, 0};
    bool first = true;
    for (uint32_t port : ports)
    {
        const FabricPort& p = all[port];
        const auto d = m_fabric.GetLink(p.link).dimension;
        bool clockwise = true;
        if (npu && m_fabric.IsNpu(p.peer))
        {
            const uint32_t n = m_radix->GetSize(d);
            const uint32_t peer = m_fabric.GetNode(p.peer).rank;
            clockwise =
                m_radix->GetCoordinate(peer, d) == (m_radix->GetCoordinate(rank, d) + 1) % n;
        }
        // Lowest dimension, then clockwise (false sorts first), then lowest port.
        const std::tuple<int32_t, bool, uint32_t> key{d, !clockwise, port};
        if (first || key < best)
        {
            best = key;
            first = false;
        }
    }
    return std::get<2>(best);
}

std::vector<uint32_t>
AnalyticalPaths::Walk(uint32_t srcRank, uint32_t dstRank, uint32_t srcQp, uint32_t dstQp) const
{
    const uint32_t source = m_fabric.GetNpuNode(srcRank);
    const uint32_t target = m_fabric.GetNpuNode(dstRank);
    return m_walker.Walk(
        srcRank,
        dstRank,
        [&](uint32_t node, const PortSet& ports)
        {
            if (m_choice == EcmpChoice::LowestDimension)
            {
                return ChooseLowestDimension(node, ports);
            }
            // The NIC hashes unsalted when it connects the queue pair; switches and
            // forwarding NPUs salt with their node id.
            const uint32_t salt = node == source ? 0 : node;
            return ports[FlowHash(source, target, srcQp, dstQp, salt) % ports.size()];
        });
}

} // namespace ns3
