/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "analytical-router.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AnalyticalRouter");

AnalyticalRouter::AnalyticalRouter(const AnalyticalTopology& topology, bool bidirectionalRing)
    : m_topology(topology)
    , m_bidirectionalRing(bidirectionalRing)
{
}

uint32_t
AnalyticalRouter::HopCount(uint32_t dimension, uint32_t from, uint32_t to) const
{
    const AnalyticalDimension& dim = m_topology.GetDimensions()[dimension];
    if (from == to)
    {
        return 0;
    }
    switch (dim.block)
    {
    case AnalyticalBlock::FullyConnected:
        return 1;
    case AnalyticalBlock::Switch:
        return 2;
    case AnalyticalBlock::Ring:
        break;
    }
    const uint32_t clockwise = (to + dim.npus - from) % dim.npus;
    const uint32_t anticlockwise = dim.npus - clockwise;
    return m_bidirectionalRing && anticlockwise < clockwise ? anticlockwise : clockwise;
}

uint32_t
AnalyticalRouter::SwitchOf(uint32_t npu, uint32_t dimension)
{
    const uint32_t line =
        npu - m_topology.GetCoordinate(npu, dimension) * m_topology.GetStride(dimension);
    const uint64_t key = (static_cast<uint64_t>(dimension) << 32) | line;
    auto it = m_switches.find(key);
    if (it != m_switches.end())
    {
        return it->second;
    }
    const uint32_t id = m_topology.GetNpuCount() + static_cast<uint32_t>(m_switches.size());
    m_switches.emplace(key, id);
    return id;
}

std::vector<AnalyticalRouter::Hop>
AnalyticalRouter::Route(uint32_t src, uint32_t dst)
{
    std::vector<Hop> hops;
    uint32_t current = src;
    const auto& dims = m_topology.GetDimensions();
    for (uint32_t d = 0; d < dims.size(); ++d)
    {
        const uint32_t from = m_topology.GetCoordinate(current, d);
        const uint32_t to = m_topology.GetCoordinate(dst, d);
        if (from == to)
        {
            continue;
        }
        const uint32_t stride = m_topology.GetStride(d);
        const uint32_t base = current - from * stride;
        const uint32_t target = base + to * stride;
        switch (dims[d].block)
        {
        case AnalyticalBlock::FullyConnected:
            hops.push_back({current, target, d});
            break;
        case AnalyticalBlock::Switch:
        {
            const uint32_t sw = SwitchOf(current, d);
            hops.push_back({current, sw, d});
            hops.push_back({sw, target, d});
            break;
        }
        case AnalyticalBlock::Ring:
        {
            const uint32_t n = dims[d].npus;
            const uint32_t clockwise = (to + n - from) % n;
            const bool forward = !(m_bidirectionalRing && n - clockwise < clockwise);
            uint32_t at = from;
            while (at != to)
            {
                const uint32_t next = forward ? (at + 1) % n : (at + n - 1) % n;
                hops.push_back({base + at * stride, base + next * stride, d});
                at = next;
            }
            break;
        }
        }
        current = target;
    }
    return hops;
}

} // namespace ns3
