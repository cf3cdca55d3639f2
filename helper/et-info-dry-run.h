/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_INFO_DRY_RUN_H
#define MLFABRIC_ET_INFO_DRY_RUN_H

#include "ns3/et-info-groups.h"
#include "ns3/et-trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Outcome of running a workload with every node taking no time.
 */
struct EtDryRun
{
    uint64_t nodesDone{0};          //!< nodes that completed, over all ranks
    uint64_t nodesTotal{0};         //!< nodes of all ranks
    uint64_t collectivesDone{0};    //!< collective instances completed (one per group call)
    uint64_t messagesDone{0};       //!< send/receive pairs completed
    std::vector<std::string> stuck; //!< why ranks stopped, one line per blocked node (at most 20)
    std::string rejected;           //!< why the replay cannot run the workload; empty if it ran

    /** \return true if the replay ran and every node of every rank completed */
    bool Completed() const;
};

/**
 * \ingroup mlfabric-helper
 * Replay a workload in zero time to find deadlocks across ranks: the replay engine
 * (ReplayEngine, an EtReplayApp per rank) over a ZeroTimeBackend, so that only the
 * order of the nodes and their matching across ranks remain.
 *
 * Every rank issues each node once its dependencies are done, with no slot limits; a
 * collective completes when every member of its group has issued its k-th collective on
 * that group (ReplayCollectiveMatcher); a send leaves only once its receive, the one
 * with the same source, destination and tag, first come first matched, is posted (the
 * strictest, rendezvous, semantics: ReplayEngine's RendezvousSends). The groups are the
 * file's and those of the traces' METADATA nodes. Whatever is left when nothing can
 * move is a deadlock: the line names each blocked rank, node and what it waits for. A
 * workload the replay refuses (ReplayEngine::AddRank, or traces that diverge) does not
 * run; rejected says why.
 *
 * \param traces every rank's trace, rank i at position i
 * \param groups the communicator groups, if there is a file
 * \return what completed and what did not
 */
EtDryRun DryRunEtWorkload(const std::vector<EtTrace>& traces,
                          const std::optional<EtCommGroups>& groups);

} // namespace ns3

#endif /* MLFABRIC_ET_INFO_DRY_RUN_H */
