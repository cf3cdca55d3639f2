/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-activity.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayActivity");

void
ReplayActivity::Advance(Time now)
{
    const Time delta = now - m_last;
    m_last = now;
    if (!delta.IsStrictlyPositive())
    {
        return;
    }
    for (size_t k = 0; k < kReplayActivityKinds; ++k)
    {
        if (m_running[k] > 0)
        {
            m_busy[k] += delta;
        }
    }
    if (m_running[static_cast<size_t>(ReplayActivityKind::Comm)] > 0 &&
        m_running[static_cast<size_t>(ReplayActivityKind::Compute)] == 0)
    {
        m_exposed += delta;
    }
}

void
ReplayActivity::Begin(ReplayActivityKind kind, Time now)
{
    Advance(now);
    ++m_running[static_cast<size_t>(kind)];
}

void
ReplayActivity::End(ReplayActivityKind kind, Time now)
{
    Advance(now);
    auto& running = m_running[static_cast<size_t>(kind)];
    NS_ABORT_MSG_IF(running == 0, "activity ends that never began");
    --running;
}

Time
ReplayActivity::GetBusy(ReplayActivityKind kind) const
{
    return m_busy[static_cast<size_t>(kind)];
}

Time
ReplayActivity::GetExposedComm() const
{
    return m_exposed;
}

uint32_t
ReplayActivity::GetRunning(ReplayActivityKind kind) const
{
    return m_running[static_cast<size_t>(kind)];
}

} // namespace ns3
