/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Helpers shared by the workload-generator tests: counting a rank's collectives,
// matching sends with receives, and checking a workload once written to disk.
#ifndef MLFABRIC_ET_GEN_TEST_SUPPORT_H
#define MLFABRIC_ET_GEN_TEST_SUPPORT_H

#include "et-test-support.h"

#include "ns3/et-info-checks.h"
#include "ns3/et-info-dry-run.h"
#include "ns3/et-rank-files.h"
#include "ns3/et-trace.h"
#include "ns3/gen-workload.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>

namespace ns3
{
namespace gentest
{

/** Collectives of one type on one rank. */
struct Calls
{
    uint64_t count{0};            //!< how many
    uint64_t bytes{0};            //!< their comm_size in total
    std::set<uint64_t> sizes;     //!< distinct comm_size values
    std::set<std::string> groups; //!< distinct pg_name values
};

/** \return the rank's collectives of `type`, optionally only those whose name contains `part` */
inline Calls
CollectivesOf(const GenRankTrace& trace, EtCollectiveType type, const std::string& part = "")
{
    Calls calls;
    for (const auto& node : trace.GetNodes())
    {
        if (node.type == EtNodeType::COMM_COLL_NODE && node.commType == type &&
            std::string(node.name).find(part) != std::string::npos)
        {
            ++calls.count;
            calls.bytes += node.commSize;
            calls.sizes.insert(node.commSize);
            calls.groups.insert(std::string(node.pgName));
        }
    }
    return calls;
}

/** \return the number of nodes of `type` on the rank */
inline uint64_t
CountOf(const GenRankTrace& trace, EtNodeType type)
{
    const auto& nodes = trace.GetNodes();
    return std::count_if(
        nodes.begin(), nodes.end(), [&](const EtNode& n) { return n.type == type; });
}

/**
 * Every send must meet one receive of the same (src, dst, tag, size) and vice versa, and
 * a tag names one message per (src, dst) pair.
 */
inline void
ExpectSendsMatchReceives(const GenWorkload& workload)
{
    std::map<std::tuple<int32_t, int32_t, int64_t, uint64_t>, int> balance;
    std::set<std::tuple<int32_t, int32_t, int64_t>> channels;
    uint64_t sends = 0;
    for (const auto& rank : workload.ranks)
    {
        for (const auto& node : rank.GetNodes())
        {
            if (node.type == EtNodeType::COMM_SEND_NODE)
            {
                EXPECT_EQ(node.commSrc, static_cast<int32_t>(rank.GetRank()));
                ++balance[{node.commSrc, node.commDst, node.commTag, node.commSize}];
                channels.insert({node.commSrc, node.commDst, node.commTag});
                ++sends;
            }
            else if (node.type == EtNodeType::COMM_RECV_NODE)
            {
                EXPECT_EQ(node.commDst, static_cast<int32_t>(rank.GetRank()));
                --balance[{node.commSrc, node.commDst, node.commTag, node.commSize}];
            }
        }
    }
    for (const auto& [key, count] : balance)
    {
        EXPECT_EQ(count, 0) << "unmatched message " << std::get<0>(key) << " -> "
                            << std::get<1>(key) << " tag " << std::get<2>(key);
    }
    EXPECT_EQ(channels.size(), sends);
}

/** Write the workload, load every rank back and run the cross-rank checks. */
inline void
ExpectValidOnDisk(const GenWorkload& workload)
{
    ettest::ScratchDir dir;
    const std::string prefix = dir.File("workload");
    EXPECT_EQ(workload.Write(prefix), 0u);
    const auto n = static_cast<uint32_t>(workload.ranks.size());
    EXPECT_NO_THROW(CheckEtRankFiles(prefix, n));
    EXPECT_EQ(DiscoverEtRankCount(prefix), n);
    const auto groups = ReadEtCommGroups(CommGroupFilePath(prefix), n);
    EXPECT_EQ(groups, workload.groups.GetGroups());
    std::vector<EtTrace> traces;
    std::vector<EtRankInfo> infos;
    for (uint32_t r = 0; r < n; ++r)
    {
        traces.push_back(EtTrace::Load(EtRankFilePath(prefix, r)));
        ASSERT_EQ(traces.back().GetNodes().size(), workload.ranks[r].GetNodes().size());
        for (size_t i = 0; i < traces.back().GetNodes().size(); ++i)
        {
            ASSERT_EQ(traces.back().GetNodes()[i], workload.ranks[r].GetNodes()[i]);
        }
        infos.push_back(SummarizeEtRank(traces.back(), r));
    }
    const EtWorkloadChecks checks = CheckEtWorkload(infos, groups);
    EXPECT_EQ(checks.problemCount, 0u) << (checks.problems.empty() ? "" : checks.problems[0]);
    const EtDryRun run = DryRunEtWorkload(traces, groups);
    EXPECT_TRUE(run.Completed()) << (run.stuck.empty() ? "" : run.stuck[0]);
}

} // namespace gentest
} // namespace ns3

#endif /* MLFABRIC_ET_GEN_TEST_SUPPORT_H */
