/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_COLLECTIVE_MATCHER_H
#define MLFABRIC_REPLAY_COLLECTIVE_MATCHER_H

#include "ns3/collective-plan.h"
#include "ns3/collective-planner.h"
#include "ns3/comm-group.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * One rank's COMM_COLL node, as the replay asks for it.
 */
struct ReplayCollectiveCall
{
    CollectiveType type{CollectiveType::AllReduce}; //!< comm_type
    uint64_t bytes{0};                              //!< comm_size
    std::shared_ptr<const CommGroup> group;         //!< from pg_name; nullptr: all ranks
    std::vector<bool> involved;                     //!< involved_dim, empty: all
    std::string where;                              //!< file and node, for messages
};

/**
 * \ingroup mlfabric-replay
 * One collective as all its ranks run it: the k-th collective issued on one group.
 */
struct ReplayCollective
{
    uint32_t id{0};                                 //!< the CollectiveRunner id
    std::string group;                              //!< pg_name of the group; "" all ranks
    uint64_t sequence{0};                           //!< k: its place on the group
    CollectiveType type{CollectiveType::AllReduce}; //!< the collective
    uint64_t bytes{0};                              //!< comm_size
    std::vector<bool> involved;                     //!< involved_dim
    std::shared_ptr<const CollectivePlan> plan;     //!< the decomposition
    uint32_t members{0};                            //!< ranks of the group
    uint32_t issued{0};                             //!< ranks that have issued it
    uint32_t finished{0};                           //!< ranks on which it has finished
    Time firstIssue;                                //!< the first rank issued it
    Time lastIssue;                                 //!< the last rank issued it
    Time lastFinish;                                //!< it finished on the last rank
    Time rankTimeTotal;             //!< sum over finished ranks of each one's issue-to-finish time
    Time rankTimeMax;               //!< the longest issue-to-finish time of a rank
    std::string kind;               //!< parallelism kind (ReportedKind)
    std::string where;              //!< the first issuer's file and node, until all issued
    std::vector<uint32_t> issuedBy; //!< ranks that issued it, until all have
};

/**
 * \ingroup mlfabric-replay
 * Matches COMM_COLL nodes across ranks by (group, sequence number).
 *
 * The Chakra schema has no collective id, and node ids differ between ranks, so the
 * k-th collective a rank issues on a group is the k-th collective of every other member
 * (ASTRA-sim's rule). The first member to issue it plans it; the others must ask for
 * the same type, size and involved dimensions, or the traces have diverged and the
 * replay stops with an InputError naming both nodes.
 */
class ReplayCollectiveMatcher
{
  public:
    /**
     * \param planner decomposes collectives
     * \param worldSize ranks of the run
     */
    ReplayCollectiveMatcher(std::shared_ptr<const CollectivePlanner> planner, uint32_t worldSize);

    /**
     * A rank issues its next collective on the call's group.
     * \param rank the rank
     * \param call what its node asks for
     * \param now the time
     * \return the collective (valid until the next Issue)
     */
    const ReplayCollective& Issue(uint32_t rank, const ReplayCollectiveCall& call, Time now);

    /**
     * The collective has finished on one of its ranks.
     * \param id its id
     * \param rank the rank
     * \param now the time
     */
    void Finish(uint32_t id, uint32_t rank, Time now);

    /** \return every collective issued so far, by id */
    const std::vector<ReplayCollective>& GetCollectives() const;

    /**
     * \param limit most lines returned
     * \return one line per collective some but not all members have issued
     */
    std::vector<std::string> DescribeIncomplete(size_t limit) const;

    /**
     * \param c a collective (type, sequence, group, members)
     * \param issuedBy the ranks that issued it
     * \return the line DescribeIncomplete gives for it
     */
    static std::string DescribeIssued(const ReplayCollective& c, std::vector<uint32_t> issuedBy);

  private:
    /** \return the plan of a call, shared with earlier identical calls */
    std::shared_ptr<const CollectivePlan> PlanFor(const ReplayCollectiveCall& call);

    /** Plans by (type, bytes, group, involved). */
    using PlanKey = std::tuple<CollectiveType, uint64_t, std::string, std::vector<bool>>;

    std::shared_ptr<const CollectivePlanner> m_planner;               //!< decomposition
    uint32_t m_worldSize;                                             //!< ranks of the run
    std::vector<ReplayCollective> m_collectives;                      //!< by id
    std::map<std::string, std::vector<uint64_t>> m_nextSequence;      //!< group -> per rank
    std::map<std::pair<std::string, uint64_t>, uint32_t> m_open;      //!< not yet issued by all
    std::map<PlanKey, std::shared_ptr<const CollectivePlan>> m_plans; //!< plan cache
    std::unordered_map<uint64_t, Time> m_issuedAt; //!< (id, rank) -> issue, until it finishes
};

} // namespace ns3

#endif /* MLFABRIC_REPLAY_COLLECTIVE_MATCHER_H */
