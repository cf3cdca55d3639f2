/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_NETWORK_OBSERVER_H
#define MLFABRIC_REPLAY_NETWORK_OBSERVER_H

#include "ns3/invariant-options.h"
#include "ns3/network-stats.h"
#include "ns3/nstime.h"
#include "ns3/process-group.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * How a replay wants its network watched. Each backend uses what applies to it.
 */
struct ReplayWatchSettings
{
    Time stallTimeout{MilliSeconds(20)};        //!< nothing moving this long is a stall
    Time pfcDeadlockThreshold{MilliSeconds(2)}; //!< pauses this long in a cycle
    Time invariantPeriod{0};                    //!< check invariants this often; zero: never
    std::string timeseriesPath;                 //!< samples CSV, if set
    Time samplePeriod{MicroSeconds(10)};        //!< time between samples
    LinkWatchSettings links;                    //!< link utilization
    bool drains{false};               //!< the run ends when its events run out (across processes):
                                      //!< every periodic check stops once the ranks have finished
    ProcessGroup* processes{nullptr}; //!< across processes, granted time window: the
                                      //!< stall and stuck watches decide together
};

/**
 * \ingroup mlfabric-helper
 * What a network reports about a replay besides carrying its messages.
 */
struct ReplayNetworkFigures
{
    uint64_t deliveredBytes{0};                 //!< payload the network delivered, by its count
    std::string failure;                        //!< why the network stopped the run, if it did
    std::optional<NetworkStats> stats;          //!< PFC, ECN, queues, drops, where measured
    InvariantReport invariants;                 //!< what invariant checks found, if any ran
    std::vector<LinkUtilization> timelineLinks; //!< the busiest links with their windows

    std::map<std::string, uint64_t> counters; //!< the backend's own counts, by name
    std::vector<std::string> warnings;        //!< what the run's figures should be read with
};

/**
 * \ingroup mlfabric-helper
 * The watchers and counters a backend brings along, made by the function that builds
 * the backend (BuildReplayNetwork), which knows its type: the replay asks the observer,
 * never the backend's type, for its figures.
 */
class ReplayNetworkObserver
{
  public:
    virtual ~ReplayNetworkObserver() = default;

    /**
     * Start watching, just before the simulation runs.
     * \param settings what to watch
     * \param finished true once every rank of every job has finished
     */
    virtual void Start(const ReplayWatchSettings& settings, std::function<bool()> finished) = 0;

    /**
     * After the simulation: the figures, and the files the settings asked for.
     * \param finished every rank of every job finished
     * \return the figures
     */
    virtual ReplayNetworkFigures Collect(bool finished) = 0;

    /**
     * Once the workload has finished, whether the run may end: the end-of-run invariant
     * checks want the acknowledgements still on the wire to arrive first.
     * \return true when nothing the final checks look at is still in flight
     */
    virtual bool
    IsSettled() const
    {
        return true;
    }
};

} // namespace ns3

#endif /* MLFABRIC_REPLAY_NETWORK_OBSERVER_H */
