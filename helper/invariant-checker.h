/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_INVARIANT_CHECKER_H
#define MLFABRIC_INVARIANT_CHECKER_H

#include "ns3/nstime.h"
#include "ns3/roce-network.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Checks that a packet-level run keeps its books, while it runs and at its end.
 *
 * - Conservation: every payload byte a NIC sent was delivered, discarded as a duplicate
 *   or out of order, dropped by a switch or an NPU relay or lost on a cable, or is still
 *   in flight (on a cable, in a switch queue, or held by a NIC that relays or processes
 *   it). Each term is counted where it happens, so a leak anywhere breaks the sum.
 * - Buffers: a switch or NPU relay never holds more than its buffer, and its buffer
 *   accounting equals the bytes its egress queues hold.
 * - PFC: a port paused by its peer has a peer that holds it paused, or that released it
 *   within the time a resume frame takes to arrive.
 * - At the end of a run that has finished: every message posted has been received
 *   exactly once and acknowledged, and no priority is paused or held.
 */
class InvariantChecker
{
  public:
    /** \param net the network to check; it must outlive the checker's events */
    explicit InvariantChecker(const RoceNetwork& net);

    /** \return the violations now, one line each (empty when all hold) */
    std::vector<std::string> Check() const;
    /** \return the violations of a finished run, including the end-of-run rules */
    std::vector<std::string> CheckFinished() const;
    /** \return true when every queue pair's messages are all acknowledged */
    bool AllAcknowledged() const;
    /**
     * Check every \p period while the simulation has other events and \p done is false;
     * on a violation, stop the simulation and keep the violations.
     * \param period time between checks
     * \param done true once the workload has finished; without it, checks go on until
     *        the event list is empty or the simulation stops (so a Simulator::Stop far
     *        ahead would keep them going)
     */
    void StartPeriodic(Time period, std::function<bool()> done = nullptr);
    /** \return violations found by the periodic checks */
    const std::vector<std::string>& GetPeriodicViolations() const;
    /** \return periodic checks made so far */
    uint64_t GetPeriodicCheckCount() const;

  private:
    /** One periodic check. */
    void Tick();
    /** Append conservation violations to \p out. */
    void CheckConservation(std::vector<std::string>& out) const;
    /** Append buffer violations to \p out. */
    void CheckBuffers(std::vector<std::string>& out) const;
    /** Append PFC violations to \p out. */
    void CheckPfc(std::vector<std::string>& out) const;

    const RoceNetwork& m_net;
    Time m_period;
    std::function<bool()> m_done;
    uint64_t m_checks{0};
    std::vector<std::string> m_violations;
};

} // namespace ns3

#endif /* MLFABRIC_INVARIANT_CHECKER_H */
