/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_PROGRESS_H
#define MLFABRIC_REPLAY_PROGRESS_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Reports a long run's progress and stops it cleanly when asked.
 *
 * A check runs periodically in simulated time. It adapts its period so that checks
 * come about every \p wallPeriod of wall-clock time, prints one line (simulated time,
 * events per second of wall time and the caller's status, e.g. ranks finished) when
 * that much wall time has passed since the last line, and stops the simulation once
 * the stop flag is raised (by a signal handler, say). It reschedules itself only while
 * other events are pending, so it never keeps a finished simulation alive.
 */
class ReplayProgress
{
  public:
    /** Text appended to every progress line. */
    using Status = std::function<std::string()>;

    /**
     * \param out where lines go; nullptr prints nothing (the stop flag still works)
     * \param wallPeriod wall-clock seconds between lines
     * \param status the caller's part of each line
     */
    ReplayProgress(std::ostream* out, double wallPeriod, Status status);

    /** \param flag stop the run once it becomes true; may be nullptr */
    void SetStopFlag(const std::atomic<bool>* flag);

    /**
     * Stop checking once \p done returns true, so that the checks do not keep the event
     * queue from running empty (a process of a distributed run ends when no process has
     * events left).
     * \param done whether this process's work is done
     */
    void SetDoneWhen(std::function<bool()> done);

    /** Schedule the first check; call before Simulator::Run. */
    void Start();

    /** \return true if the run was stopped by the stop flag */
    bool WasInterrupted() const;

    /** \return lines printed */
    uint64_t GetLineCount() const;

    /** \return checks run: simulator events of its own, to leave out of event counts */
    uint64_t GetCheckCount() const;

  private:
    /** The periodic check. */
    void Check();

    using Clock = std::chrono::steady_clock;

    std::ostream* m_out;                      //!< where lines go
    double m_wallPeriod;                      //!< seconds between lines
    Status m_status;                          //!< caller's text
    const std::atomic<bool>* m_stop{nullptr}; //!< stop request
    std::function<bool()> m_done;             //!< no checks once it holds; empty: never
    Time m_interval{MicroSeconds(1)};         //!< simulated time between checks
    Clock::time_point m_lastCheck;            //!< wall time of the last check
    Clock::time_point m_lastLine;             //!< wall time of the last line
    uint64_t m_lastLineEvents{0};             //!< event count at the last line
    bool m_interrupted{false};                //!< stopped by the flag
    uint64_t m_lines{0};                      //!< lines printed
    uint64_t m_checks{0};                     //!< checks run
};

} // namespace ns3

#endif /* MLFABRIC_REPLAY_PROGRESS_H */
