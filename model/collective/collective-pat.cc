/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-pat.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PatPhase");

uint32_t
PatPhase::StepCount(uint32_t n)
{
    uint32_t steps = 0;
    while (steps < 32 && (1ULL << steps) < n)
    {
        ++steps;
    }
    return steps;
}

uint64_t
PatPhase::BlocksAtDimension(uint32_t n, uint32_t k)
{
    const uint64_t distance = 1ULL << k;
    if (n < 2 || distance > n - 1ULL)
    {
        return 0;
    }
    // Offsets 2^k (2m + 1) below n.
    return (n - 1ULL - distance) / (2 * distance) + 1;
}

PatPhase::PatPhase(const PhaseContext& context)
    : StepPhase(context,
                StepCount(context.size),
                1,
                std::max<uint32_t>(StepCount(context.size), 1) - 1,
                false)
    , m_steps(StepCount(context.size))
    , m_blockBytes(context.spec.op == CollectiveType::AllGather
                       ? context.spec.inputBytes
                       : context.spec.inputBytes / context.size)
{
    NS_ABORT_MSG_UNLESS(context.spec.op == CollectiveType::AllGather ||
                            context.spec.op == CollectiveType::ReduceScatter,
                        "PAT runs all-gather and reduce-scatter phases only");
}

uint32_t
PatPhase::Dimension(uint32_t packet) const
{
    return Context().spec.op == CollectiveType::AllGather ? m_steps - 1 - packet : packet;
}

int64_t
PatPhase::SendShift(uint32_t packet) const
{
    const int64_t distance = int64_t{1} << Dimension(packet);
    const int64_t sign = Context().spec.op == CollectiveType::AllGather ? -1 : 1;
    return sign * Context().direction * distance;
}

uint32_t
PatPhase::SendPeer(uint32_t packet) const
{
    return Context().Wrap(static_cast<int64_t>(Context().index) + SendShift(packet));
}

uint32_t
PatPhase::ReceivePeer(uint32_t packet) const
{
    return Context().Wrap(static_cast<int64_t>(Context().index) - SendShift(packet));
}

uint64_t
PatPhase::PacketBytes(uint32_t packet) const
{
    // The pipeline prepares one packet beyond the last step; it carries nothing.
    if (packet >= m_steps)
    {
        return 0;
    }
    return BlocksAtDimension(Context().size, Dimension(packet)) * m_blockBytes;
}

} // namespace ns3
