/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-chain.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChainPhase");

ChainPhase::ChainPhase(const PhaseContext& context)
    : PhaseExecution(context)
{
    // A broadcast chain starts at the root, a reduce chain ends there.
    const int64_t first = context.spec.op == CollectiveType::Broadcast
                              ? static_cast<int64_t>(context.root)
                              : static_cast<int64_t>(context.root) + 1;
    m_position = context.Wrap(static_cast<int64_t>(context.index) - first);
}

void
ChainPhase::Start(PhaseIo& io)
{
    if (m_position == 0)
    {
        io.Wait(Context().handoffNs);
        return;
    }
    PostReceive(Context().Wrap(static_cast<int64_t>(Context().index) - 1), io);
}

void
ChainPhase::OnReceived(uint32_t, PhaseIo& io)
{
    const PhaseContext& ctx = Context();
    const bool reduces = ctx.spec.op == CollectiveType::Reduce;
    io.Wait(ctx.handoffNs + (reduces ? ctx.ReductionNs(ctx.spec.inputBytes) : 0));
}

void
ChainPhase::OnTimer(PhaseIo& io)
{
    const PhaseContext& ctx = Context();
    if (m_position + 1 < ctx.size)
    {
        io.Send(ctx.Wrap(static_cast<int64_t>(ctx.index) + 1), ctx.spec.inputBytes);
    }
    Finish();
}

} // namespace ns3
