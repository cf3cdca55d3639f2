/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The workloads shipped in traces/ replay on the shipped fabrics: every rank finishes,
// every collective finishes on all of its ranks, and the bytes the ranks sent are the
// bytes they received and the bytes the network delivered.

#include "replay-test-support.h"

#include <gtest/gtest.h>

#include <set>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

const std::string kRoot = MLFABRIC_SOURCE_DIR;

/** Replay a bundled workload with its communicator groups and check conservation. */
ReplayResult
ReplayBundled(const std::string& workload, const std::string& fabric, ReplayBackendKind backend)
{
    ReplayRunConfig config =
        RunConfig(kRoot + "/traces/" + workload, kRoot + "/fabrics/" + fabric, "", backend);
    config.commGroupPath = config.workload + ".comm-groups.json";
    const ReplayResult r = RunReplay(config);
    EXPECT_TRUE(r.completed) << workload << " on " << fabric;
    for (const auto& c : r.collectives)
    {
        EXPECT_EQ(c.finishedRanks, c.ranks) << "collective " << c.id;
        EXPECT_GE(c.end, c.start);
    }
    EXPECT_GT(r.GetBytesSent(), 0u);
    EXPECT_EQ(r.GetBytesSent(), r.GetBytesReceived());
    EXPECT_EQ(r.networkDeliveredBytes, r.GetBytesSent());
    EXPECT_TRUE(r.notes.empty());
    return r;
}

} // namespace

TEST(ReplayBundled, GptOnTheMainJobFabricAtPacketLevel)
{
    const ReplayResult r =
        ReplayBundled("gpt-16npu/gpt", "two-dim-4x4.yaml", ReplayBackendKind::Packet);
    ASSERT_EQ(r.ranks.size(), 16u);
    // Tensor-parallel groups of 4 inside each server, pipeline and data parallelism
    // across: collectives on several groups, and point-to-point pipeline messages.
    std::set<std::string> groups;
    uint64_t sends = 0;
    for (const auto& c : r.collectives)
    {
        groups.insert(c.group);
    }
    for (const auto& s : r.ranks)
    {
        sends += s.sends;
        EXPECT_GT(s.compute, Time(0));
        EXPECT_LE(s.exposedComm, s.comm);
        EXPECT_LE(s.compute + s.exposedComm, s.finish);
    }
    EXPECT_GT(groups.size(), 4u);
    EXPECT_GT(sends, 0u);
}

TEST(ReplayBundled, AllReduceOnTheRingAtEveryLevel)
{
    for (auto backend : {ReplayBackendKind::Packet,
                         ReplayBackendKind::Analytical,
                         ReplayBackendKind::AnalyticalAware})
    {
        const ReplayResult r = ReplayBundled("allreduce-8npu/allreduce", "ring-8.yaml", backend);
        ASSERT_EQ(r.collectives.size(), 1u);
        // One 1 MiB ring all-reduce over 8 ranks: 2 x 7 steps of 128 KiB each.
        for (const auto& s : r.ranks)
        {
            EXPECT_EQ(s.bytesSent, 14u * 131072) << ToString(backend);
        }
    }
}
