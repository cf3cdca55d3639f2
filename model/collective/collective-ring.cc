/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-ring.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingPhase");

namespace
{

/** ASTRA-sim's Ring message size for an input of \p input bytes. */
uint64_t
RingMessageBytes(CollectiveType op, uint64_t input, uint32_t n)
{
    return op == CollectiveType::AllGather ? input : input / n;
}

} // namespace

uint32_t
RingPhase::StepCount(CollectiveType op, uint32_t n)
{
    switch (op)
    {
    case CollectiveType::AllReduce:
        return 2 * (n - 1);
    case CollectiveType::AllToAll:
        return n * (n - 1) / 2;
    default:
        return n - 1;
    }
}

RingPhase::RingPhase(const PhaseContext& context)
    : StepPhase(context, StepCount(context.spec.op, context.size), 1, context.size - 1, false)
    , m_messageBytes(RingMessageBytes(context.spec.op, context.spec.inputBytes, context.size))
{
}

uint32_t
RingPhase::SendPeer(uint32_t) const
{
    return Context().Wrap(static_cast<int64_t>(Context().index) + Context().direction);
}

uint32_t
RingPhase::ReceivePeer(uint32_t) const
{
    return Context().Wrap(static_cast<int64_t>(Context().index) - Context().direction);
}

uint64_t
RingPhase::PacketBytes(uint32_t) const
{
    return m_messageBytes;
}

} // namespace ns3
