/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-progress.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdio>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayProgress");

ReplayProgress::ReplayProgress(std::ostream* out, double wallPeriod, Status status)
    : m_out(out)
    , m_wallPeriod(wallPeriod)
    , m_status(std::move(status))
{
}

void
ReplayProgress::SetStopFlag(const std::atomic<bool>* flag)
{
    m_stop = flag;
}

void
ReplayProgress::SetDoneWhen(std::function<bool()> done)
{
    m_done = std::move(done);
}

void
ReplayProgress::Start()
{
    m_lastCheck = Clock::now();
    m_lastLine = m_lastCheck;
    m_lastLineEvents = Simulator::GetEventCount();
    Simulator::Schedule(m_interval, &ReplayProgress::Check, this);
}

bool
ReplayProgress::WasInterrupted() const
{
    return m_interrupted;
}

uint64_t
ReplayProgress::GetLineCount() const
{
    return m_lines;
}

uint64_t
ReplayProgress::GetCheckCount() const
{
    return m_checks;
}

void
ReplayProgress::Check()
{
    ++m_checks;
    if (m_stop != nullptr && m_stop->load())
    {
        m_interrupted = true;
        Simulator::Stop();
        return;
    }
    const Clock::time_point now = Clock::now();
    const double sinceCheck = std::chrono::duration<double>(now - m_lastCheck).count();
    m_lastCheck = now;
    // Aim the next check at a tenth of the line period (so the stop flag is seen
    // promptly), changing the simulated interval at most fourfold per check.
    const double target = m_wallPeriod / 10;
    const double scale = sinceCheck > 0 ? std::clamp(target / sinceCheck, 0.25, 4.0) : 4.0;
    m_interval =
        std::max(NanoSeconds(1),
                 Time(static_cast<int64_t>(static_cast<double>(m_interval.GetTimeStep()) * scale)));

    const double sinceLine = std::chrono::duration<double>(now - m_lastLine).count();
    if (m_out != nullptr && sinceLine >= m_wallPeriod)
    {
        const uint64_t events = Simulator::GetEventCount();
        char line[160];
        std::snprintf(line,
                      sizeof(line),
                      "progress: %.3f us simulated, %.2f M events/s, ",
                      Simulator::Now().GetSeconds() * 1e6,
                      static_cast<double>(events - m_lastLineEvents) / sinceLine / 1e6);
        *m_out << line << (m_status ? m_status() : "") << std::endl;
        m_lastLine = now;
        m_lastLineEvents = events;
        ++m_lines;
    }
    if (!Simulator::IsFinished() && !(m_done && m_done()))
    {
        Simulator::Schedule(m_interval, &ReplayProgress::Check, this);
    }
}

} // namespace ns3
