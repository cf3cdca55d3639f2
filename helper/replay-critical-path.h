/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_CRITICAL_PATH_H
#define MLFABRIC_REPLAY_CRITICAL_PATH_H

#include "ns3/nstime.h"
#include "ns3/replay-spans.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

struct ReplayJob;

/**
 * \ingroup mlfabric-helper
 * One link of the critical path: a node, or the part of it that the path waited on.
 */
struct CriticalPathStep
{
    uint32_t rank{0};     //!< rank of the node
    uint32_t position{0}; //!< position of the node in its trace
    uint64_t node{0};     //!< its id
    std::string name;     //!< its name
    Time from;            //!< where the path enters the node
    Time to;              //!< where it leaves (the node's finish)
    std::string kind;     //!< ParallelismKindOf the node, or "waiting" for a gap
};

/**
 * \ingroup mlfabric-helper
 * The chain of compute and communication that sets a job's finish, from time 0 to its
 * last rank's last node, in time order.
 */
struct CriticalPath
{
    Time length;                         //!< the job's finish
    std::vector<CriticalPathStep> steps; //!< in time order
    std::map<std::string, Time> byKind;  //!< time on the path per kind
};

/**
 * \ingroup mlfabric-helper
 * Walk back from the node that finished last. A node is entered when it started,
 * unless it waited on another rank: a collective starts for real when its last member
 * issued it (matched by group and sequence, as the replay matches them), a receive when
 * its send was issued (matched by source, destination, tag and order); the path then
 * goes on from that rank. Before a node, the path goes to the parent that finished
 * last, or, if the node started after all its parents had finished, to the node of its
 * rank that finished last before it started (the one that held its slot). Time the
 * path cannot explain (nothing finished just before a node started) is "waiting".
 * \param jobs the run's jobs
 * \param spans what ran (ReplaySpanRecorder)
 * \param job the job whose finish is explained
 * \return the path; empty if the job ran no node
 */
CriticalPath FindCriticalPath(const std::vector<ReplayJob>& jobs,
                              const std::vector<ReplaySpan>& spans,
                              uint32_t job);

/**
 * \ingroup mlfabric-helper
 * \param path a critical path
 * \return one line: its length and the share of each kind, largest first, e.g.
 *         "critical path 2285.717 us: compute 61.2 %, tp 20.3 %, dp 12.0 %, pp 6.5 %"
 */
std::string DescribeCriticalPath(const CriticalPath& path);

/**
 * \ingroup mlfabric-helper
 * \param path a critical path
 * \return {length_ns, by_kind_ns: {kind: ns}, steps: [{rank, node, name, kind, from_ns,
 *         to_ns}]}
 */
nlohmann::json CriticalPathToJson(const CriticalPath& path);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_CRITICAL_PATH_H */
