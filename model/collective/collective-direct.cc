/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-direct.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DirectPhase");

uint32_t
DirectPhase::StepCount(CollectiveType op, uint32_t n)
{
    return op == CollectiveType::AllReduce ? 2 * (n - 1) : n - 1;
}

uint32_t
DirectPhase::Window(const PhaseContext& context)
{
    const uint32_t peers = context.size - 1;
    const uint32_t window = context.spec.algorithm.window;
    return window == 0 ? peers : std::min(window, peers);
}

DirectPhase::DirectPhase(const PhaseContext& context)
    : StepPhase(context,
                StepCount(context.spec.op, context.size),
                Window(context),
                Window(context),
                context.spec.op == CollectiveType::AllReduce)
    , m_messageBytes(context.spec.op == CollectiveType::AllGather
                         ? context.spec.inputBytes
                         : context.spec.inputBytes / context.size)
{
}

int64_t
DirectPhase::Distance(uint32_t packet) const
{
    return static_cast<int64_t>(packet % (Context().size - 1) + 1) * Context().direction;
}

uint32_t
DirectPhase::SendPeer(uint32_t packet) const
{
    return Context().Wrap(static_cast<int64_t>(Context().index) + Distance(packet));
}

uint32_t
DirectPhase::ReceivePeer(uint32_t packet) const
{
    return Context().Wrap(static_cast<int64_t>(Context().index) - Distance(packet));
}

uint64_t
DirectPhase::PacketBytes(uint32_t) const
{
    return m_messageBytes;
}

} // namespace ns3
