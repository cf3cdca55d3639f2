/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The critical path and the timeline of a replay, on traces whose chain is known: a
// collective that waits for its slowest member, a receive that waits for its send.

#include "replay-test-support.h"

#include "ns3/replay-critical-path.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>

namespace ns3
{
namespace
{

using namespace replaytest;

constexpr double kUs = 1e6; // picoseconds per microsecond

double
Us(Time t)
{
    return static_cast<double>(t.GetPicoSeconds()) / kUs;
}

Time
KindTime(const CriticalPath& path, const std::string& kind)
{
    auto it = path.byKind.find(kind);
    return it == path.byKind.end() ? Time(0) : it->second;
}

/** Rank 0 computes 10 us, rank 1 30 us, then both all-reduce 1 MiB and compute 5 us. */
class CriticalPathTest : public ::testing::Test
{
  protected:
    ReplayResult
    Run(const std::vector<std::vector<EtNode>>& ranks, const std::string& timeline)
    {
        const std::string prefix = m_dir.File("w");
        for (uint32_t r = 0; r < ranks.size(); ++r)
        {
            WriteRank(prefix, r, ranks[r]);
        }
        const std::string fabric =
            WriteNetwork(m_dir, "Ring", static_cast<uint32_t>(ranks.size()), 50, 500);
        ReplayRunConfig config =
            RunConfig(prefix, fabric, WriteSystem(m_dir, "ring", 1), ReplayBackendKind::Analytical);
        config.commGroupPath = "empty";
        config.criticalPath = true;
        config.timelinePath = timeline;
        return RunReplay(config);
    }

    ettest::ScratchDir m_dir; //!< traces, fabric, timeline
};

TEST_F(CriticalPathTest, CollectiveWaitsForItsSlowestMember)
{
    const auto rank = [](uint64_t micros)
    {
        return std::vector<EtNode>{Compute(1, micros),
                                   Collective(2, EtCollectiveType::ALL_REDUCE, 1 << 20, {1}),
                                   Compute(3, 5, {2})};
    };
    const ReplayResult result = Run({rank(10), rank(30)}, "");
    ASSERT_TRUE(result.completed);
    ASSERT_EQ(result.criticalPaths.size(), 1U);
    const CriticalPath& path = result.criticalPaths.front();
    EXPECT_DOUBLE_EQ(Us(path.length) * 1e3, LastFinishNs(result));

    // Rank 1's 30 us, the all-reduce from when rank 1 issued it, the last 5 us.
    ASSERT_EQ(path.steps.size(), 3U);
    EXPECT_EQ(path.steps[0].rank, 1U);
    EXPECT_EQ(path.steps[0].kind, "compute");
    EXPECT_DOUBLE_EQ(Us(path.steps[0].from), 0);
    EXPECT_DOUBLE_EQ(Us(path.steps[0].to), 30);
    EXPECT_EQ(path.steps[1].kind, "group all");
    EXPECT_DOUBLE_EQ(Us(path.steps[1].from), 30);
    EXPECT_EQ(path.steps[2].kind, "compute");
    EXPECT_DOUBLE_EQ(Us(path.steps[2].to - path.steps[2].from), 5);

    EXPECT_EQ(KindTime(path, "compute"), MicroSeconds(35));
    EXPECT_EQ(KindTime(path, "group all"), path.length - MicroSeconds(35));
    EXPECT_EQ(KindTime(path, "waiting"), Time(0));
    Time sum;
    for (const auto& [kind, time] : path.byKind)
    {
        sum += time;
    }
    EXPECT_EQ(sum, path.length);
}

TEST_F(CriticalPathTest, ReceiveWaitsForItsSendAcrossRanks)
{
    // Rank 1 posts its receive at once; the message leaves rank 0 after 20 us.
    EtNode send = Send(2, 1, 1 << 16, 7, {1});
    send.name = "i0.mb0.act.pp.send";
    const ReplayResult result =
        Run({{Compute(1, 20), send}, {Receive(1, 0, 1 << 16, 7), Compute(2, 5, {1})}}, "");
    ASSERT_TRUE(result.completed);
    const CriticalPath& path = result.criticalPaths.front();
    ASSERT_EQ(path.steps.size(), 3U);
    EXPECT_EQ(path.steps[0].rank, 0U);
    EXPECT_EQ(path.steps[0].kind, "compute");
    EXPECT_DOUBLE_EQ(Us(path.steps[0].to), 20);
    // The receive is entered when the send was issued, and named by the receive node
    // ("recv": no parallelism in its name).
    EXPECT_EQ(path.steps[1].rank, 1U);
    EXPECT_EQ(path.steps[1].kind, "p2p");
    EXPECT_DOUBLE_EQ(Us(path.steps[1].from), 20);
    EXPECT_EQ(KindTime(path, "compute"), MicroSeconds(25));
    EXPECT_EQ(KindTime(path, "p2p"), path.length - MicroSeconds(25));
    EXPECT_DOUBLE_EQ(Us(path.length) * 1e3, LastFinishNs(result));
}

TEST_F(CriticalPathTest, ParallelismKindComesFromTheNodeName)
{
    EtNode tp = Collective(1, EtCollectiveType::ALL_REDUCE, 1);
    tp.name = "i0.mb0.layer3.attn.fwd.tp.all_reduce";
    EXPECT_EQ(ParallelismKindOf(tp), "tp");
    EtNode dp = Collective(1, EtCollectiveType::ALL_REDUCE, 1, {}, "5");
    dp.name = "i0.grad.bucket2.dp.all_reduce";
    EXPECT_EQ(ParallelismKindOf(dp), "dp");
    EtNode unnamed = Collective(1, EtCollectiveType::ALL_REDUCE, 1, {}, "5");
    unnamed.name = "allreduce_tpx"; // "tp" only as a whole dot-separated part
    EXPECT_EQ(ParallelismKindOf(unnamed), "group 5");
    EXPECT_EQ(ParallelismKindOf(Compute(1, 1)), "compute");
    EXPECT_EQ(ParallelismKindOf(Send(1, 0, 1, 0)), "p2p");
}

TEST_F(CriticalPathTest, TimelineHoldsEveryNodeAndThePath)
{
    const auto rank = [](uint64_t micros)
    {
        return std::vector<EtNode>{Compute(1, micros),
                                   Collective(2, EtCollectiveType::ALL_REDUCE, 1 << 20, {1}),
                                   Compute(3, 5, {2})};
    };
    const std::string file = m_dir.File("timeline.json");
    const ReplayResult result = Run({rank(10), rank(30)}, file);
    ASSERT_TRUE(result.completed);
    std::ifstream in(file);
    const nlohmann::json doc = nlohmann::json::parse(in);
    ASSERT_TRUE(doc.contains("traceEvents"));
    std::map<std::string, int> perCategory;
    double rank1Compute = 0;
    std::set<std::string> tracks;
    for (const auto& e : doc["traceEvents"])
    {
        if (e["ph"] == "M" && e["name"] == "thread_name")
        {
            tracks.insert(e["args"]["name"].get<std::string>());
        }
        if (e["ph"] != "X")
        {
            continue;
        }
        ++perCategory[e["cat"].get<std::string>()];
        if (e["cat"] == "compute" && e["pid"] == 0 && e["tid"].get<int64_t>() >> 8 == 1)
        {
            rank1Compute += e["dur"].get<double>();
        }
    }
    EXPECT_EQ(perCategory["compute"], 4);
    EXPECT_EQ(perCategory["collective"], 2);
    EXPECT_EQ(perCategory["critical path"], 3);
    EXPECT_DOUBLE_EQ(rank1Compute, 35.0); // ts and dur in microseconds
    for (const std::string track :
         {"rank 0 compute", "rank 1 compute", "rank 0 collective", "critical path"})
    {
        EXPECT_TRUE(tracks.count(track)) << track;
    }
}

} // namespace
} // namespace ns3
