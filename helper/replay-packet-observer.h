/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_PACKET_OBSERVER_H
#define MLFABRIC_REPLAY_PACKET_OBSERVER_H

#include "ns3/invariant-checker.h"
#include "ns3/link-utilization.h"
#include "ns3/network-sampler.h"
#include "ns3/ptr.h"
#include "ns3/queue-monitor.h"
#include "ns3/rdma-network-backend.h"
#include "ns3/replay-network-observer.h"
#include "ns3/replay-stuck-watch.h"
#include "ns3/roce-network.h"
#include "ns3/run-guard.h"

#include <functional>
#include <memory>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * The packet-level network of a replay and its instruments: it keeps the RoCE network
 * alive for the run, and watches it with a RunGuard (stalls, PFC deadlocks), a
 * ReplayStuckWatch (ranks that can only wait), a QueueMonitor for the network stats, a
 * LinkUtilizationSampler for the busiest links, and, when asked, a NetworkSampler and an
 * InvariantChecker.
 */
class ReplayPacketObserver : public ReplayNetworkObserver
{
  public:
    /**
     * \param net the installed network
     * \param backend the backend over it
     */
    ReplayPacketObserver(std::unique_ptr<RoceNetwork> net, Ptr<RdmaNetworkBackend> backend);

    void Start(const ReplayWatchSettings& settings, std::function<bool()> finished) override;
    /** \return true unless invariant checks wait for acknowledgements still in flight */
    bool IsSettled() const override;
    ReplayNetworkFigures Collect(bool finished) override;

    /** \return the network */
    RoceNetwork& GetNetwork();

    /**
     * Across processes: where one process would have stopped the run, the last rank's
     * finish over every process; the link utilization's span ends there. Call before
     * Collect.
     * \param end the time
     */
    void SetRunEnd(Time end);

    /** \return the queue monitor, once Start has made it; else nullptr */
    const QueueMonitor* GetQueues() const;

    /**
     * Tell the stuck watch when the workload's network is quiet; by default when the
     * backend is idle (RdmaNetworkBackend::IsIdle). Before Start.
     * \param quiet true while no message is in flight and no work is scheduled
     */
    void SetQuiet(std::function<bool()> quiet);

  private:
    std::unique_ptr<RoceNetwork> m_net;              //!< the network
    Ptr<RdmaNetworkBackend> m_backend;               //!< the backend over it
    std::string m_timeseriesPath;                    //!< where the samples go, if anywhere
    std::unique_ptr<QueueMonitor> m_queues;          //!< queue depths for the stats
    std::unique_ptr<NetworkSampler> m_sampler;       //!< time series, if asked
    std::unique_ptr<LinkUtilizationSampler> m_links; //!< link utilization
    LinkWatchSettings m_linkSettings;                //!< what to report of the links
    std::unique_ptr<RunGuard> m_guard;               //!< stalls and PFC deadlocks
    std::unique_ptr<ReplayStuckWatch> m_stuck;       //!< ranks that can only wait
    std::unique_ptr<InvariantChecker> m_checker;     //!< invariants, if asked
    std::function<bool()> m_quiet;                   //!< for the stuck watch; null: m_backend
    ProcessGroup* m_processes{nullptr};              //!< across processes, granted time window
    Time m_runEnd;                                   //!< across processes: SetRunEnd
};

} // namespace ns3

#endif /* MLFABRIC_REPLAY_PACKET_OBSERVER_H */
