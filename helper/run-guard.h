/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_RUN_GUARD_H
#define MLFABRIC_RUN_GUARD_H

#include "ns3/nstime.h"
#include "ns3/process-group.h"
#include "ns3/roce-network.h"

#include <cstdint>
#include <functional>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Ends a packet-level run that can no longer finish, and says why.
 *
 * Two conditions are watched by one periodic check, so that a run never hangs silently
 * until its time limit:
 * - a PFC deadlock: ports that have been paused without a break for the deadlock
 *   threshold and wait on each other in a cycle (each waits on the node that pauses it);
 * - a stall: queue pairs have bytes outstanding and no payload byte has been delivered
 *   or acknowledged anywhere for the stall timeout.
 * Either stops the simulation and keeps a report naming the ports and priorities (and
 * since when) or the stuck queue pairs. The check reschedules itself only while other
 * events are pending, so it never keeps a finished simulation alive.
 */
class RunGuard
{
  public:
    /** Why the guard stopped a run. */
    enum class Verdict
    {
        NONE,         //!< it did not stop the run
        PFC_DEADLOCK, //!< a cycle of persistent pauses
        STALL,        //!< no progress with bytes outstanding
    };

    /**
     * \param net the network to watch; it must outlive the simulation
     * \param stallTimeout simulated time without progress that counts as a stall
     * \param deadlockThreshold a pause lasting this long counts toward a deadlock
     */
    RunGuard(const RoceNetwork& net, Time stallTimeout, Time deadlockThreshold);

    /**
     * Begin watching.
     * \param finished if set, the checks end once it is true (a run that ends when its
     *        events run out); else they go on until the simulation stops
     * \param processes if set, this is one process of a distributed run under the
     *        granted time window, whose processes check at the same simulated times:
     *        each check adds up their progress, outstanding bytes, pause cycles and
     *        unfinished work, so that all of them stop together, or none
     */
    void Start(std::function<bool()> finished = nullptr, ProcessGroup* processes = nullptr);
    /** \return why the run was stopped, if it was */
    Verdict GetVerdict() const;
    /** \return the report (empty if the run was not stopped) */
    const std::string& GetReport() const;

  private:
    /** The periodic check. */
    void Check();
    /** \return a report of a cycle of persistent pauses, or empty */
    std::string FindPauseCycle() const;
    /** \return a counter that grows whenever any byte makes progress */
    uint64_t Progress() const;
    /** \return true if any queue pair has bytes outstanding */
    bool AnyOutstanding() const;
    /** \return the stall report */
    std::string DescribeStall() const;
    /** Stop the run with \p verdict and \p report. */
    void Stop(Verdict verdict, const std::string& report);

    const RoceNetwork& m_net;
    Time m_stallTimeout;
    Time m_deadlockThreshold;
    Time m_period;
    std::function<bool()> m_finished;   //!< the checks end once it is true, if set
    ProcessGroup* m_processes{nullptr}; //!< across processes: the processes checking
    uint64_t m_lastProgress{0};
    Time m_lastProgressTime;
    Verdict m_verdict{Verdict::NONE};
    std::string m_report;
};

} // namespace ns3

#endif /* MLFABRIC_RUN_GUARD_H */
