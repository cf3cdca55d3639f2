/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// How the replay pairs work across ranks: collectives by (group, sequence number),
// never by node id; sends and receives by (source, destination, tag) in FIFO order;
// groups from the JSON file and from METADATA nodes; divergence and deadlock reports.

#include "replay-test-support.h"

#include "ns3/replay-p2p-matcher.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

/** Four NPUs on a ring, a workload prefix and a system file. */
class ReplayMatching : public testing::Test
{
  protected:
    ettest::ScratchDir m_dir;
    std::string m_prefix{m_dir.File("w")};
    std::string m_fabric{WriteNetwork(m_dir, "Ring", 4, 50, 500)};
    std::string m_system{WriteSystem(m_dir, "ring", 1)};

    ReplayRunConfig
    Config() const
    {
        return RunConfig(m_prefix, m_fabric, m_system, ReplayBackendKind::Analytical);
    }
};

} // namespace

TEST(ReplayP2pMatcher, FifoPerKeyWhicheverSideComesFirst)
{
    ReplayP2pMatcher m;
    const ReplayP2pMatcher::Key key{0, 1, 5};
    EXPECT_FALSE(m.Post(key, 100));
    EXPECT_FALSE(m.Post(key, 101));
    EXPECT_EQ(m.GetWaitingReceives(), 2u);
    EXPECT_EQ(m.Arrive(key, 10), std::optional<uint64_t>(100));
    // Another key does not disturb this one.
    EXPECT_FALSE(m.Arrive({0, 1, 6}, 99));
    EXPECT_EQ(m.Arrive(key, 20), std::optional<uint64_t>(101));
    EXPECT_FALSE(m.Arrive(key, 30));
    EXPECT_FALSE(m.Arrive(key, 40));
    EXPECT_EQ(m.Post(key, 102), std::optional<uint64_t>(30));
    EXPECT_EQ(m.Post(key, 103), std::optional<uint64_t>(40));
    EXPECT_EQ(m.GetWaitingReceives(), 0u);
    EXPECT_EQ(m.GetUnclaimedMessages(), 1u);
    const auto lines = m.Describe(5);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("rank 0 -> rank 1 tag 6"), std::string::npos) << lines[0];
}

TEST_F(ReplayMatching, CollectivesPairByGroupAndSequenceNotById)
{
    const std::string groups = m_dir.File("groups.json");
    WriteText(groups, "{\"1\": [0, 1], \"2\": [2, 3]}");
    const uint64_t s = 1 << 20;
    for (uint32_t r = 0; r < 4; ++r)
    {
        // Node ids differ on every rank; rank 3 lists its nodes in another order.
        const uint64_t base = 1000 * (r + 1);
        const char* group = r < 2 ? "1" : "2";
        EtNode sub =
            Collective(base + 1, EtCollectiveType::ALL_REDUCE, r < 2 ? s : 2 * s, {}, group);
        EtNode world = Collective(base + 2, EtCollectiveType::ALL_REDUCE, s, {base + 1});
        if (r == 3)
        {
            WriteRank(m_prefix, r, {world, sub});
        }
        else
        {
            WriteRank(m_prefix, r, {sub, world});
        }
    }
    auto config = Config();
    config.commGroupPath = groups;
    const auto r = RunReplay(config);
    ASSERT_TRUE(r.completed);
    ASSERT_EQ(r.collectives.size(), 3u);
    std::map<std::string, ReplayCollectiveRecord> byGroup;
    for (const auto& c : r.collectives)
    {
        byGroup[c.group] = c;
        EXPECT_EQ(c.finishedRanks, c.ranks);
    }
    EXPECT_EQ(byGroup["1"].ranks, 2u);
    EXPECT_EQ(byGroup["2"].bytes, 2 * s);
    EXPECT_EQ(byGroup[""].ranks, 4u);
    // Ring all-reduce traffic: 2 x (n-1)/n x size per rank.
    EXPECT_EQ(r.ranks[0].bytesSent, s + 3 * s / 2);
    EXPECT_EQ(r.ranks[3].bytesSent, 2 * s + 3 * s / 2);
    EXPECT_EQ(r.GetBytesSent(), r.GetBytesReceived());
    EXPECT_EQ(r.networkDeliveredBytes, r.GetBytesSent());
    // Ranks 0 and 1 issue the world all-reduce as soon as their (smaller) group one is
    // done; it cannot end before ranks 2 and 3 have finished theirs and joined.
    EXPECT_EQ(byGroup[""].start, byGroup["1"].end);
    EXPECT_LT(byGroup["1"].end, byGroup["2"].end);
    EXPECT_GT(byGroup[""].end, byGroup["2"].end);
}

TEST_F(ReplayMatching, ProcessGroupsFromMetadataNodes)
{
    EtNode meta;
    meta.id = 1;
    meta.type = EtNodeType::METADATA_NODE;
    meta.inputsValues = "['[{\"pg_name\": \"7\", \"pg_desc\": \"tp\", \"ranks\": [1, 2], "
                        "\"group_size\": 2}]']";
    for (uint32_t r = 0; r < 4; ++r)
    {
        std::vector<EtNode> nodes = {meta};
        if (r == 1 || r == 2)
        {
            nodes.push_back(Collective(2, EtCollectiveType::ALL_GATHER, 4096, {1}, "7"));
        }
        WriteRank(m_prefix, r, nodes);
    }
    const auto r = RunReplay(Config());
    ASSERT_TRUE(r.completed);
    ASSERT_EQ(r.collectives.size(), 1u);
    EXPECT_EQ(r.collectives[0].ranks, 2u);
    EXPECT_EQ(r.collectives[0].group, "7");
    // All-gather of a 4 KiB input over 2 ranks: each sends its part once.
    EXPECT_EQ(r.ranks[1].bytesSent, 4096u);
    EXPECT_EQ(r.ranks[0].bytesSent, 0u);
}

TEST_F(ReplayMatching, DivergentCollectivesNameBothNodes)
{
    for (uint32_t r = 0; r < 4; ++r)
    {
        WriteRank(m_prefix,
                  r,
                  {Collective(10 + r,
                              r == 2 ? EtCollectiveType::ALL_GATHER : EtCollectiveType::ALL_REDUCE,
                              1 << 20)});
    }
    ettest::ExpectInputError([&] { RunReplay(Config()); },
                             {"w.2.et: node 12", "ALL_GATHER", "ALL_REDUCE", "diverge"});
}

TEST_F(ReplayMatching, DeadlocksAreReportedNotHung)
{
    // Rank 0 waits for a message rank 1 never sends; ranks 2 and 3 issue a collective
    // on the default group that ranks 0 and 1 never reach.
    WriteRank(m_prefix, 0, {Receive(1, 1, 64, 3)});
    WriteRank(m_prefix, 1, {Compute(1, 1)});
    WriteRank(m_prefix, 2, {Collective(1, EtCollectiveType::ALL_REDUCE, 4096)});
    WriteRank(m_prefix, 3, {Collective(1, EtCollectiveType::ALL_REDUCE, 4096)});
    const auto r = RunReplay(Config());
    EXPECT_FALSE(r.completed);
    EXPECT_FALSE(r.timedOut);
    EXPECT_TRUE(r.ranks[1].finished);
    EXPECT_FALSE(r.ranks[0].finished);
    std::string all;
    for (const auto& line : r.stuck)
    {
        all += line + "\n";
    }
    EXPECT_NE(all.find("rank 0: 0 of 1 nodes done, waiting on node 1 (COMM_RECV_NODE from rank 1"),
              std::string::npos)
        << all;
    EXPECT_NE(all.find("ALL_REDUCE #0 of the default group was issued by 2 of its 4 ranks (2,3)"),
              std::string::npos)
        << all;
    EXPECT_NE(all.find("1 receive(s) of rank 1 -> rank 0 tag 3 wait for a send"), std::string::npos)
        << all;
}

TEST_F(ReplayMatching, PacketLevelMessagesWithEitherQueuePairMode)
{
    // Every rank sends three messages with one tag to the next rank round the ring and
    // receives three from the previous one.
    for (uint32_t r = 0; r < 4; ++r)
    {
        const auto next = static_cast<int32_t>((r + 1) % 4);
        const auto prev = static_cast<int32_t>((r + 3) % 4);
        WriteRank(m_prefix,
                  r,
                  {Send(1, next, 100000, 9),
                   Send(2, next, 200000, 9, {1}),
                   Send(3, next, 300000, 9, {2}),
                   Receive(4, prev, 100000, 9),
                   Receive(5, prev, 200000, 9),
                   Receive(6, prev, 300000, 9)});
    }
    for (bool perMessage : {false, true})
    {
        SCOPED_TRACE(perMessage ? "a queue pair per message" : "queue pairs per peer");
        auto config = RunConfig(m_prefix, m_fabric, m_system, ReplayBackendKind::Packet);
        config.network.qpPerMessage = perMessage;
        const auto r = RunReplay(config);
        ASSERT_TRUE(r.completed);
        for (const auto& s : r.ranks)
        {
            EXPECT_EQ(s.bytesSent, 600000u);
            EXPECT_EQ(s.bytesReceived, 600000u);
            EXPECT_EQ(s.sends, 3u);
            EXPECT_EQ(s.receives, 3u);
        }
        EXPECT_EQ(r.networkDeliveredBytes, 4u * 600000);
        EXPECT_NE(r.network.find(perMessage ? "a queue pair per message" : "queue pairs per peer"),
                  std::string::npos);
    }
}

TEST_F(ReplayMatching, SendsWithoutPeersReplayTheirDuration)
{
    EtNode send;
    send.id = 1;
    send.type = EtNodeType::COMM_SEND_NODE;
    send.durationMicros = 3;
    send.SetCommSize(100);
    EtNode hostCollective;
    hostCollective.id = 2;
    hostCollective.type = EtNodeType::COMM_COLL_NODE;
    hostCollective.SetIsCpuOp(true);
    hostCollective.durationMicros = 2;
    for (uint32_t r = 0; r < 4; ++r)
    {
        WriteRank(m_prefix, r, {send, hostCollective});
    }
    const auto r = RunReplay(Config());
    ASSERT_TRUE(r.completed);
    // The send (comm slot) and the host-side collective (CPU slot) overlap.
    EXPECT_EQ(r.ranks[0].finish, MicroSeconds(3));
    EXPECT_EQ(r.GetBytesSent(), 0u);
    EXPECT_EQ(r.notes.at("COMM_SEND_NODE without comm_dst, replayed by its duration"), 4u);
    EXPECT_EQ(r.notes.at("host-side COMM_COLL_NODE, replayed by its duration"), 4u);
}
