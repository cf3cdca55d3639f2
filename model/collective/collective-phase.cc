/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-phase.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectivePhase");

PhaseExecution::PhaseExecution(const PhaseContext& context)
    : m_context(context)
{
}

void
PhaseExecution::Deliver(uint32_t peer, PhaseIo& io)
{
    auto it = m_pending.find(peer);
    if (it != m_pending.end() && it->second.posted > 0)
    {
        if (--it->second.posted == 0 && it->second.arrived == 0)
        {
            m_pending.erase(it);
        }
        OnReceived(peer, io);
        return;
    }
    ++m_pending[peer].arrived;
}

void
PhaseExecution::PostReceive(uint32_t peer, PhaseIo& io)
{
    auto it = m_pending.find(peer);
    if (it != m_pending.end() && it->second.arrived > 0)
    {
        if (--it->second.arrived == 0 && it->second.posted == 0)
        {
            m_pending.erase(it);
        }
        OnReceived(peer, io);
        return;
    }
    ++m_pending[peer].posted;
}

} // namespace ns3
