/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-halving-doubling.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HalvingDoublingPhase");

namespace
{

uint32_t
Log2(uint32_t n)
{
    uint32_t l = 0;
    while ((1U << (l + 1)) <= n)
    {
        ++l;
    }
    return l;
}

} // namespace

uint32_t
HalvingDoublingPhase::StepCount(CollectiveType op, uint32_t n)
{
    const uint32_t l = Log2(n);
    return op == CollectiveType::AllReduce ? 2 * l : l;
}

HalvingDoublingPhase::HalvingDoublingPhase(const PhaseContext& context)
    : StepPhase(context, StepCount(context.spec.op, context.size), 1, Log2(context.size) - 1, false)
{
    const CollectiveType op = context.spec.op;
    const uint32_t n = context.size;
    const uint64_t input = context.spec.inputBytes;
    // The distance halves or doubles after every packet, the size the other way; an
    // all-reduce turns around when the distance reaches n.
    bool doubling = op != CollectiveType::AllGather;
    uint64_t distance = doubling ? 1 : n / 2;
    uint64_t bytes = doubling ? input / 2 : input;
    const uint32_t packets = StepCount(op, n) + 1;
    for (uint32_t p = 0; p < packets; ++p)
    {
        m_distance.push_back(static_cast<uint32_t>(distance));
        m_bytes.push_back(bytes);
        if (doubling)
        {
            distance *= 2;
            bytes /= 2;
            if (distance == n && op == CollectiveType::AllReduce)
            {
                doubling = false;
                distance /= 2;
                bytes *= 2;
            }
        }
        else
        {
            distance /= 2;
            bytes *= 2;
        }
    }
}

uint32_t
HalvingDoublingPhase::Partner(uint32_t packet) const
{
    const int64_t index = Context().index;
    const int64_t d = m_distance[packet];
    if (d == 0)
    {
        return Context().index;
    }
    return Context().Wrap((index / d) % 2 == 0 ? index + d : index - d);
}

uint32_t
HalvingDoublingPhase::SendPeer(uint32_t packet) const
{
    return Partner(packet);
}

uint32_t
HalvingDoublingPhase::ReceivePeer(uint32_t packet) const
{
    return Partner(packet);
}

uint64_t
HalvingDoublingPhase::PacketBytes(uint32_t packet) const
{
    return m_bytes[std::min<size_t>(packet, m_bytes.size() - 1)];
}

} // namespace ns3
