/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hop-search.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HopSearch");

HopSearch::HopSearch(const Fabric& fabric)
    : m_fabric(fabric)
    , m_hops(fabric.GetNodeCount(), kUnreached)
{
}

void
HopSearch::Run(uint32_t target)
{
    Search(target, -1, false);
}

void
HopSearch::RunWithinDimension(uint32_t target, int32_t dimension)
{
    Search(target, dimension, true);
}

const std::vector<uint32_t>&
HopSearch::GetReached() const
{
    return m_reached;
}

bool
HopSearch::IsInner(uint32_t node) const
{
    const FabricNode& n = m_fabric.GetNode(node);
    if (n.kind == FabricNodeKind::Switch)
    {
        return true;
    }
    return !m_switchesOnly && n.forwards;
}

void
HopSearch::Search(uint32_t target, int32_t dimension, bool switchesOnly)
{
    for (uint32_t node : m_reached)
    {
        m_hops[node] = kUnreached;
    }
    m_reached.clear();
    m_target = target;
    m_dimension = dimension;
    m_switchesOnly = switchesOnly;

    m_hops[target] = 0;
    m_reached.push_back(target);
    // m_reached doubles as the BFS queue: it is filled in visiting order.
    for (size_t head = 0; head < m_reached.size(); ++head)
    {
        const uint32_t node = m_reached[head];
        if (node != target && !IsInner(node))
        {
            continue;
        }
        for (const auto& port : m_fabric.GetPorts(node))
        {
            if (dimension >= 0 && m_fabric.GetLink(port.link).dimension != dimension)
            {
                continue;
            }
            if (m_hops[port.peer] == kUnreached)
            {
                m_hops[port.peer] = m_hops[node] + 1;
                m_reached.push_back(port.peer);
            }
        }
    }
}

std::vector<uint32_t>
HopSearch::GetNextPorts(uint32_t node) const
{
    std::vector<uint32_t> ports;
    const uint32_t hops = m_hops[node];
    if (hops == kUnreached || hops == 0)
    {
        return ports;
    }
    const auto& all = m_fabric.GetPorts(node);
    for (uint32_t p = 0; p < all.size(); ++p)
    {
        const uint32_t peer = all[p].peer;
        if (m_dimension >= 0 && m_fabric.GetLink(all[p].link).dimension != m_dimension)
        {
            continue;
        }
        if (m_hops[peer] == hops - 1 && (peer == m_target || IsInner(peer)))
        {
            ports.push_back(p);
        }
    }
    return ports;
}

} // namespace ns3
