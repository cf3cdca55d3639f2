/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-stuck-watch.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayStuckWatch");

ReplayStuckWatch::ReplayStuckWatch(std::function<bool()> quiet,
                                   std::function<bool()> finished,
                                   Time patience)
    : m_quiet(std::move(quiet))
    , m_finished(std::move(finished))
    , m_patience(patience)
{
}

void
ReplayStuckWatch::Start()
{
    Simulator::Schedule(m_patience / 4, &ReplayStuckWatch::Check, this);
}

bool
ReplayStuckWatch::HasStopped() const
{
    return m_stopped;
}

void
ReplayStuckWatch::Check()
{
    if (m_finished())
    {
        return;
    }
    if (!m_quiet())
    {
        m_idleSince = Time(-1);
    }
    else if (m_idleSince.IsStrictlyNegative())
    {
        m_idleSince = Simulator::Now();
    }
    else if (Simulator::Now() - m_idleSince >= m_patience)
    {
        NS_LOG_INFO("nothing in flight or scheduled since " << m_idleSince.As(Time::US));
        m_stopped = true;
        Simulator::Stop();
        return;
    }
    if (!Simulator::IsFinished())
    {
        Simulator::Schedule(m_patience / 4, &ReplayStuckWatch::Check, this);
    }
}

} // namespace ns3
