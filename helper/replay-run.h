/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_RUN_H
#define MLFABRIC_REPLAY_RUN_H

#include "ns3/nstime.h"
#include "ns3/replay-job-spec.h"
#include "ns3/replay-network.h"
#include "ns3/replay-result.h"
#include "ns3/replay-system.h"

#include <atomic>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * A Chakra replay to run: workload, network, system and options.
 */
struct ReplayRunConfig
{
    std::string workload;                //!< prefix: rank r reads `<workload>.r.et`
    std::vector<ReplayJobSpec> jobs;     //!< several jobs on one fabric, instead of workload
    ReplayNetworkConfig network;         //!< fabric and backend
    std::string systemPath;              //!< ASTRA-sim system JSON; empty: ring on every dimension
    std::string commGroupPath;           //!< communicator-group JSON; empty or "...empty...": none
    std::string remoteMemoryPath;        //!< remote-memory JSON; empty: none
    bool ctrlDeps{false};                //!< ctrl_deps are dependencies too
    uint32_t cpuSlots{1};                //!< host-side operations at once (0 = unlimited)
    uint32_t computeSlots{1};            //!< device compute nodes at once (0 = unlimited)
    uint32_t commSlots{1};               //!< device collectives and sends at once (0 = unlimited)
    Time stopTime;                       //!< simulated time limit; zero: none
    Time stallTimeout{MilliSeconds(20)}; //!< packet level: nothing moving this long is a stall
    Time pfcDeadlockThreshold{MilliSeconds(2)}; //!< packet level: pauses this long in a cycle
    Time invariantPeriod{0};    //!< packet level: check the InvariantChecker rules this often
    std::string timeseriesPath; //!< packet level: switch samples CSV, if set
    Time samplePeriod{MicroSeconds(10)};        //!< packet level: time between samples
    LinkWatchSettings links;                    //!< packet level: link utilization
    std::ostream* progress{nullptr};            //!< progress lines go here, if set
    double progressPeriod{2.0};                 //!< wall seconds between progress lines
    const std::atomic<bool>* stopFlag{nullptr}; //!< stop the run when it becomes true
    bool criticalPath{false};                   //!< find each job's critical path
    std::string timelinePath; //!< write the run as a Chrome trace here (WriteReplayTimeline)
};

/**
 * \ingroup mlfabric-helper
 * Build the network, load every rank's trace, replay the workload with one
 * EtReplayApp per NPU and tear the simulation down: the steps of a ReplaySession.
 *
 * A workload alone is one job on every NPU of the fabric. With config.jobs, each job
 * runs its own workload on its own NPUs (PlaceReplayJobs):
 * its own ReplayEngine, groups and collectives, over a RankMapBackend of the shared
 * network, all starting at time 0; the run ends when no job can go on. The system and
 * remote-memory files apply to every job (each job has its own remote memory); a job
 * spanning fewer dimensions than the fabric uses the first entries of each
 * implementation list. Results are in result.jobs then, not result.ranks.
 *
 * Throws InputError before the simulation starts for any bad input (trace, fabric,
 * system, groups, remote memory, a rank count that differs from the fabric's NPU
 * count, or a job that does not fit), and during it for traces that diverge. A run that cannot
 * finish (ranks wait for each other) returns with completed false and the reasons in stuck. At
 * packet level a RunGuard watches the network: a PFC deadlock or a stall ends the run with its
 * report in networkFailure. \param config the run \return what it measured
 */
ReplayResult RunReplay(const ReplayRunConfig& config);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_RUN_H */
