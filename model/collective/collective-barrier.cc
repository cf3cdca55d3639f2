/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-barrier.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BarrierPhase");

uint32_t
BarrierPhase::RoundCount(uint32_t n)
{
    uint32_t rounds = 0;
    while ((1ULL << rounds) < n)
    {
        ++rounds;
    }
    return rounds;
}

BarrierPhase::BarrierPhase(const PhaseContext& context)
    : PhaseExecution(context)
    , m_rounds(RoundCount(context.size))
{
}

void
BarrierPhase::Start(PhaseIo& io)
{
    io.Wait(Context().handoffNs);
}

void
BarrierPhase::OnTimer(PhaseIo& io)
{
    const PhaseContext& ctx = Context();
    if (m_round == m_rounds)
    {
        Finish();
        return;
    }
    const int64_t distance = int64_t{1} << m_round;
    io.Send(ctx.Wrap(static_cast<int64_t>(ctx.index) + distance), ctx.spec.inputBytes);
    PostReceive(ctx.Wrap(static_cast<int64_t>(ctx.index) - distance), io);
}

void
BarrierPhase::OnReceived(uint32_t, PhaseIo& io)
{
    ++m_round;
    io.Wait(Context().handoffNs);
}

} // namespace ns3
