/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_INFO_CHECKS_H
#define MLFABRIC_ET_INFO_CHECKS_H

#include "ns3/et-info-groups.h"
#include "ns3/et-info-rank.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Problems kept verbatim by EtWorkloadChecks; the rest are only counted.
 */
constexpr uint64_t kEtMaxProblemsListed = 100;

/**
 * \ingroup mlfabric-helper
 * What the cross-rank checks of a workload found.
 */
struct EtWorkloadChecks
{
    uint64_t groupsChecked{0};         //!< groups whose members' collectives were compared
    uint64_t collectivesMatched{0};    //!< collective calls matched across their group
    uint64_t messagesMatched{0};       //!< sends paired with a receive
    uint64_t problemCount{0};          //!< problems found
    std::vector<std::string> problems; //!< the first kEtMaxProblemsListed, one line each

    /** \param line a problem, kept if fewer than kEtMaxProblemsListed are */
    void AddProblem(std::string line);
};

/**
 * \ingroup mlfabric-helper
 * Check that the ranks of a workload can replay together.
 *
 * - every collective names a known group (pg_name "" or "0": all ranks; others: an id
 *   of the comm-group file) of which its rank is a member;
 * - the members of each group issue the same sequence of collectives (type and
 *   comm_size), since replays match the k-th collective of a group across its members;
 * - every send has a receive with the same source, destination, tag and size, and the
 *   other way round, as many times.
 *
 * \param ranks the summaries of every rank, rank i at position i
 * \param groups the comm-group file's groups, if there is one
 * \return the counts and the problems, the rank-local ones of the summaries first
 */
EtWorkloadChecks CheckEtWorkload(const std::vector<EtRankInfo>& ranks,
                                 const std::optional<EtCommGroups>& groups);

} // namespace ns3

#endif /* MLFABRIC_ET_INFO_CHECKS_H */
