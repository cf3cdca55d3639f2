/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_KIND_TOTALS_H
#define MLFABRIC_REPLAY_KIND_TOTALS_H

#include "ns3/replay-result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * The communication of one parallelism kind over a replay.
 */
struct ReplayKindTotal
{
    std::string kind;  //!< tp, dp, pp, ep, world, group (or a combination such as dp+ep)
    uint64_t count{0}; //!< collectives, or for pp point-to-point sends
    uint64_t bytes{0}; //!< their comm_size
    Time slowest;      //!< sum of each one's longest rank issue-to-finish time (sends: to arrival)
    Time mean;         //!< sum of each one's mean rank issue-to-finish time
    Time skew;         //!< sum of each collective's issue skew (last issue - first issue)
    uint64_t unfinished{0}; //!< those that did not finish on every rank (or did not arrive)
};

/**
 * \ingroup mlfabric-helper
 * Totals per parallelism kind: collectives by their group's kind, point-to-point sends
 * (pipeline parallelism) as pp.
 * \param collectives the collectives
 * \param sends the sends
 * \return one entry per kind present, in the order tp, dp, ep, pp, world, group, others
 */
std::vector<ReplayKindTotal> TotalReplayKinds(
    const std::vector<ReplayCollectiveRecord>& collectives,
    const std::vector<ReplaySendRecord>& sends);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_KIND_TOTALS_H */
