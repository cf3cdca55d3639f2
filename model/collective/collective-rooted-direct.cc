/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-rooted-direct.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RootedDirectPhase");

RootedDirectPhase::RootedDirectPhase(const PhaseContext& context)
    : PhaseExecution(context)
{
}

bool
RootedDirectPhase::Sends() const
{
    const bool isRoot = Context().index == Context().root;
    return Context().spec.op == CollectiveType::Gather ? !isRoot : isRoot;
}

void
RootedDirectPhase::Start(PhaseIo& io)
{
    const PhaseContext& ctx = Context();
    if (Sends())
    {
        io.Wait(ctx.handoffNs);
        return;
    }
    if (ctx.spec.op == CollectiveType::Scatter)
    {
        PostReceive(ctx.root, io);
        return;
    }
    for (uint32_t peer = 0; peer < ctx.size; ++peer)
    {
        if (peer != ctx.root)
        {
            PostReceive(peer, io);
        }
    }
}

void
RootedDirectPhase::OnReceived(uint32_t, PhaseIo& io)
{
    const PhaseContext& ctx = Context();
    const uint32_t expected = ctx.spec.op == CollectiveType::Gather ? ctx.size - 1 : 1;
    if (++m_received == expected)
    {
        io.Wait(ctx.handoffNs);
    }
}

void
RootedDirectPhase::OnTimer(PhaseIo& io)
{
    const PhaseContext& ctx = Context();
    if (Sends())
    {
        if (ctx.spec.op == CollectiveType::Gather)
        {
            io.Send(ctx.root, ctx.spec.inputBytes);
        }
        else
        {
            for (uint32_t peer = 0; peer < ctx.size; ++peer)
            {
                if (peer != ctx.root)
                {
                    io.Send(peer, ctx.spec.inputBytes / ctx.size);
                }
            }
        }
    }
    Finish();
}

} // namespace ns3
