/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_RESULT_H
#define MLFABRIC_REPLAY_RESULT_H

#include "ns3/collective-type.h"
#include "ns3/failure-schedule.h"
#include "ns3/invariant-options.h"
#include "ns3/network-stats.h"
#include "ns3/nstime.h"
#include "ns3/replay-critical-path.h"
#include "ns3/replay-engine.h"
#include "ns3/replay-rank-stats.h"
#include "ns3/replay-trace-check.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

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
    Time lastIssue;   //!< the last rank issued it: lastIssue - start is the group's skew
    Time rankMean;    //!< mean over finished ranks of each one's issue-to-finish time
    Time rankMax;     //!< the longest issue-to-finish time of a rank
    std::string kind; //!< parallelism kind: tp, dp, pp, ep, world or group
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
    std::vector<ReplaySendRecord> sends;             //!< per point-to-point send of the job
    ReplayNotes notes;                               //!< nodes replayed by their duration
    std::string groups;                              //!< description of its groups
    std::vector<std::string> groupPlans;             //!< how each group's collectives run
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
    std::vector<ReplaySendRecord> sends;             //!< point-to-point sends; single only
    std::vector<ReplayJobResult> jobs;               //!< per job; multi-job runs only
    std::vector<std::string> groupPlans; //!< how each group's collectives run; single only
    ReplayNotes notes;                   //!< nodes replayed by their duration
    std::vector<std::string> warnings;   //!< ignored configuration keys; the network's caveats
    std::vector<std::string> stuck;      //!< why unfinished ranks could not go on
    bool completed{false};               //!< every rank finished
    bool interrupted{false};             //!< stopped by the stop flag
    bool timedOut{false};                //!< stopped by the time limit
    std::string networkFailure;          //!< packet level: the run guard's report, if it stopped it
    std::optional<NetworkStats> networkStats;   //!< packet level: PFC, ECN, queues, drops
    std::vector<LinkUtilization> timelineLinks; //!< packet level: busiest links, with windows
    InvariantReport invariants; //!< packet level, with an invariant period: what the checks found
    Time simulated;             //!< last rank's finish, or the stop time
    uint64_t events{0};         //!< simulator events of the replay
    double wallSeconds{0};      //!< wall-clock time of the simulation
    uint64_t nodes{0};          //!< nodes of all ranks
    uint64_t networkDeliveredBytes{0};       //!< payload the network delivered
    std::string network;                     //!< description of the network
    std::string system;                      //!< description of the system configuration
    std::string groups;                      //!< description of the communicator groups (single)
    std::string fabricName;                  //!< the fabric's name
    std::string partition;                   //!< across processes: how the fabric was split
    std::vector<CriticalPath> criticalPaths; //!< per job, with ReplayRunConfig::criticalPath

    std::map<std::string, uint64_t> networkCounters; //!< the backend's own counts, by name
    std::vector<FailureSchedule::Outcome> failures;  //!< packet level: one per --fail value

    /** \return bytes sent by all ranks of every job */
    uint64_t GetBytesSent() const;
    /** \return bytes received by all ranks of every job */
    uint64_t GetBytesReceived() const;
    /** \return the ranks of the single workload, or of every job in job order */
    std::vector<const ReplayRankStats*> GetAllRanks() const;
};

} // namespace ns3

#endif /* MLFABRIC_REPLAY_RESULT_H */
