/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Every collective of the Chakra schema replays at packet level, the five ASTRA-sim
// rejects included, and moves exactly its algorithm's bytes.

#include "replay-test-support.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

struct Case
{
    EtCollectiveType type;
    uint64_t totalBytes; //!< bytes all ranks send, for comm_size S = 64 KiB on 4 NPUs
};

constexpr uint64_t kS = 64 * 1024;

class EveryCollective : public testing::TestWithParam<Case>
{
};

} // namespace

TEST_P(EveryCollective, ReplaysAndMovesItsBytes)
{
    const Case c = GetParam();
    ettest::ScratchDir dir;
    const std::string prefix = dir.File("w");
    for (uint32_t r = 0; r < 4; ++r)
    {
        WriteRank(prefix, r, {Compute(1, 1), Collective(2, c.type, kS, {1}), Compute(3, 1, {2})});
    }
    const ReplayResult r = RunReplay(
        RunConfig(prefix, WriteNetwork(dir, "Ring", 4, 50, 500), WriteSystem(dir, "ring", 1)));
    ASSERT_TRUE(r.completed);
    ASSERT_EQ(r.collectives.size(), 1u);
    EXPECT_EQ(r.collectives[0].finishedRanks, 4u);
    EXPECT_EQ(r.GetBytesSent(), c.totalBytes);
    EXPECT_EQ(r.GetBytesReceived(), c.totalBytes);
    EXPECT_EQ(r.networkDeliveredBytes, c.totalBytes);
    for (const auto& s : r.ranks)
    {
        // Both computes ran, the collective between them.
        EXPECT_EQ(s.compute, MicroSeconds(2));
        EXPECT_GT(s.finish, MicroSeconds(2));
    }
}

INSTANTIATE_TEST_SUITE_P(
    Replay,
    EveryCollective,
    testing::Values(
        // Ring: 2(n-1) steps of S/n per rank; (n-1) steps of S/n; (n-1) steps of S.
        Case{EtCollectiveType::ALL_REDUCE, 4 * 6 * kS / 4},
        Case{EtCollectiveType::REDUCE_SCATTER, 4 * 3 * kS / 4},
        Case{EtCollectiveType::REDUCE_SCATTER_BLOCK, 4 * 3 * kS / 4},
        Case{EtCollectiveType::ALL_GATHER, 4 * 3 * kS},
        // Ring all-to-all: n(n-1)/2 steps of S/n per rank.
        Case{EtCollectiveType::ALL_TO_ALL, 4 * 6 * kS / 4},
        // Chains from and into the root: every rank but one forwards S.
        Case{EtCollectiveType::BROADCAST, 3 * kS},
        Case{EtCollectiveType::REDUCE, 3 * kS},
        // Direct to and from the root: S from each other rank; S/n to each other rank.
        Case{EtCollectiveType::GATHER, 3 * kS},
        Case{EtCollectiveType::SCATTER, 3 * kS / 4},
        // Dissemination: log2(n) rounds of one byte from every rank.
        Case{EtCollectiveType::BARRIER, 2 * 4}),
    [](const testing::TestParamInfo<Case>& info) { return ToString(info.param.type); });
