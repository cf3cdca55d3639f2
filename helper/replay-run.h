/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_RUN_H
#define MLFABRIC_REPLAY_RUN_H

#include "ns3/collective-type.h"
#include "ns3/invariant-options.h"
#include "ns3/network-stats.h"
#include "ns3/nstime.h"
#include "ns3/replay-job-spec.h"
#include "ns3/replay-network.h"
#include "ns3/replay-rank-stats.h"
#include "ns3/replay-trace-check.h"
#include "ns3/system-config.h"

#include <atomic>
#include <cstdint>
#include <optional>
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
    std::ostream* progress{nullptr};            //!< progress lines go here, if set
    double progressPeriod{2.0};                 //!< wall seconds between progress lines
    const std::atomic<bool>* stopFlag{nullptr}; //!< stop the run when it becomes true
};

/**
 * \ingroup mlfabric-helper
 * One collective of a replay, as its ranks ran it.
 */
struct ReplayCollectiveRecord
{
    uint32_t id{0};                                 //!< in issue order
    CollectiveType type{CollectiveType::AllReduce}; //!< the collective
    uint64_t bytes{0};                              //!< comm_size
    std::string group;                              //!< pg_name; "" all ranks
    uint64_t sequence{0};                           //!< its place on the group
    uint32_t ranks{0};                              //!< ranks of the group
    uint32_t finishedRanks{0};                      //!< ranks it finished on
    std::string algorithm;                          //!< DescribeCollectiveAlgorithm
    uint32_t chunks{0};                             //!< chunks it was split into
    Time start;                                     //!< the first rank issued it
    Time end;                                       //!< it finished on the last rank
};

/**
 * \ingroup mlfabric-helper
 * One job of a multi-job replay, as it ran.
 */
struct ReplayJobResult
{
    std::string name;                                //!< as configured
    std::string workload;                            //!< trace prefix
    std::vector<uint32_t> npus;                      //!< fabric NPU of each rank
    std::vector<uint32_t> dimensions;                //!< its collectives' dimensions
    std::vector<ReplayRankStats> ranks;              //!< per rank of the job
    std::vector<ReplayCollectiveRecord> collectives; //!< per collective of the job, by id
    ReplayNotes notes;                               //!< nodes replayed by their duration
    std::string groups;                              //!< description of its groups
    uint64_t nodes{0};                               //!< nodes of all its ranks
    bool completed{false};                           //!< every rank of the job finished
    Time alone; //!< its finish when run alone on the same NPUs, if measured; else zero
};

/**
 * \ingroup mlfabric-helper
 * What a replay measured.
 */
struct ReplayResult
{
    std::vector<ReplayRankStats> ranks;              //!< per rank; single workload only
    std::vector<ReplayCollectiveRecord> collectives; //!< per collective, by id; single only
    std::vector<ReplayJobResult> jobs;               //!< per job; multi-job runs only
    ReplayNotes notes;                               //!< nodes replayed by their duration
    std::vector<std::string> warnings;               //!< ignored configuration keys
    std::vector<std::string> stuck;                  //!< why unfinished ranks could not go on
    bool completed{false};                           //!< every rank finished
    bool interrupted{false};                         //!< stopped by the stop flag
    bool timedOut{false};                            //!< stopped by the time limit
    std::string networkFailure; //!< packet level: the run guard's report, if it stopped it
    std::optional<NetworkStats> networkStats; //!< packet level: PFC, ECN, queues, drops
    InvariantReport invariants; //!< packet level, with an invariant period: what the checks found
    Time simulated;             //!< last rank's finish, or the stop time
    uint64_t events{0};         //!< simulator events of the replay
    double wallSeconds{0};      //!< wall-clock time of the simulation
    uint64_t nodes{0};          //!< nodes of all ranks
    uint64_t networkDeliveredBytes{0}; //!< payload the network delivered
    std::string network;               //!< description of the network
    std::string system;                //!< description of the system configuration
    std::string groups;                //!< description of the communicator groups (single)
    std::string fabricName;            //!< the fabric's name

    /** \return bytes sent by all ranks of every job */
    uint64_t GetBytesSent() const;
    /** \return bytes received by all ranks of every job */
    uint64_t GetBytesReceived() const;
    /** \return the ranks of the single workload, or of every job in job order */
    std::vector<const ReplayRankStats*> GetAllRanks() const;
};

/**
 * \ingroup mlfabric-helper
 * The system configuration used without --system: ASTRA-sim's defaults with a ring
 * for every collective on every dimension.
 * \param dimensions number of network dimensions
 * \return the configuration
 */
SystemConfig DefaultReplaySystemConfig(size_t dimensions);

/**
 * \ingroup mlfabric-helper
 * Build the network, load every rank's trace, replay the workload with one
 * EtReplayApp per NPU and tear the simulation down.
 *
 * With config.jobs, each job runs its own workload on its own NPUs (PlaceReplayJobs):
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
