/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-step-phase.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StepPhase");

StepPhase::StepPhase(const PhaseContext& context,
                     uint32_t steps,
                     uint32_t window,
                     uint32_t reducing,
                     bool gateSecondHalf)
    : PhaseExecution(context)
    , m_steps(steps)
    , m_window(window)
    , m_reducing(reducing)
    , m_gateSecondHalf(gateSecondHalf)
{
}

void
StepPhase::Start(PhaseIo& io)
{
    for (uint32_t i = 0; i < m_window; ++i)
    {
        Prepare(io);
    }
}

void
StepPhase::Prepare(PhaseIo& io)
{
    const PhaseContext& ctx = Context();
    const uint32_t packet = m_prepared++;
    const uint32_t cycle = m_window + m_reducing;
    const bool zeroLatency = packet % cycle < m_window;
    const bool firstHalf = (packet / cycle) % 2 == 0;
    const bool reduces = !zeroLatency && (ctx.spec.op == CollectiveType::ReduceScatter ||
                                          (ctx.spec.op == CollectiveType::AllReduce && firstHalf));
    const uint64_t delay = ctx.handoffNs + (reduces ? ctx.ReductionNs(PacketBytes(packet)) : 0);
    io.Wait(delay);
}

void
StepPhase::SendNext(PhaseIo& io)
{
    if (m_prepared == m_sent || m_sent == m_steps || m_free == 0)
    {
        return;
    }
    const uint32_t packet = m_sent++;
    --m_free;
    io.Send(SendPeer(packet), PacketBytes(packet));
    PostReceive(ReceivePeer(packet), io);
}

void
StepPhase::OnTimer(PhaseIo& io)
{
    ++m_free;
    const uint32_t middle = Context().size - 1;
    if (m_gateSecondHalf && m_steps - m_sent <= middle)
    {
        if (m_received < middle)
        {
            return;
        }
        for (uint32_t i = 0; i < m_window; ++i)
        {
            SendNext(io);
        }
    }
    else
    {
        SendNext(io);
    }
    if (m_sent == m_steps && m_free == m_window)
    {
        Finish();
    }
}

void
StepPhase::OnReceived(uint32_t peer, PhaseIo& io)
{
    ++m_received;
    Prepare(io);
}

} // namespace ns3
