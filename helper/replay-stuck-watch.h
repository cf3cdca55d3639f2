/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_STUCK_WATCH_H
#define MLFABRIC_REPLAY_STUCK_WATCH_H

#include "ns3/nstime.h"

#include <functional>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Ends a packet-level replay whose ranks can only wait: the workload is unfinished, no
 * message is in flight and no compute or other work is scheduled, and that has lasted a
 * whole patience (receives for messages no one sends, collectives some rank never
 * joins).
 *
 * Without a network, such a replay runs out of events and ends by itself. The packet
 * network keeps periodic events (the run guard, progress lines, invariant checks), so
 * the simulation would run until its time limit, or for ever without one. The watch
 * stops it; the caller then describes what is stuck (ReplayEngine::DescribeStuck).
 */
class ReplayStuckWatch
{
  public:
    /**
     * \param quiet true while the network every job's engine talks to has no message
     *        in flight and no work scheduled (RdmaNetworkBackend::IsIdle)
     * \param finished true once every rank of every job has finished
     * \param patience how long the state must last to count
     */
    ReplayStuckWatch(std::function<bool()> quiet, std::function<bool()> finished, Time patience);

    /** Begin watching. */
    void Start();
    /** \return true if the watch stopped the run */
    bool HasStopped() const;

  private:
    /** The periodic check. */
    void Check();

    std::function<bool()> m_quiet;
    std::function<bool()> m_finished;
    Time m_patience;
    Time m_idleSince{-1}; //!< negative while the backend is busy
    bool m_stopped{false};
};

} // namespace ns3

#endif /* MLFABRIC_REPLAY_STUCK_WATCH_H */
