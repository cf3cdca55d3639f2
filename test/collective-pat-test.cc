/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// NCCL's PAT all-gather and reduce-scatter on the analytical networks: the blocks each
// log step aggregates, the peers at power-of-two shifts (seen through the hop counts of a
// one-way ring), closed-form completion times on powers of two and other sizes, on a
// group inside a hierarchical all-reduce, and the collectives it refuses.
#include "collective-run.h"

#include "ns3/boolean.h"
#include "ns3/collective-pat.h"
#include "ns3/collective-planner.h"
#include "ns3/congestion-unaware-backend.h"
#include "ns3/input-error.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

#include <map>
#include <numeric>

using namespace ns3;

namespace
{

constexpr uint64_t kMiB = 1048576;
constexpr uint64_t kE = 10;      // endpoint-delay, ns
constexpr double kMemBw = 1600;  // local-mem-bw, GB/s = B/ns
constexpr double kGbps = 50;     // link bandwidth, GB/s (2^30 B)
constexpr double kLatency = 500; // link latency, ns

/** Delay of \p bytes over \p hops links, whole ns. */
uint64_t
Delta(uint64_t bytes, uint32_t hops = 1, double gbps = kGbps, double latency = kLatency)
{
    return static_cast<uint64_t>(hops * latency + static_cast<double>(bytes) /
                                                      AnalyticalTopology::ToBytesPerNs(gbps));
}

/** Local reduction of \p bytes: one write and two reads at local-mem-bw. */
uint64_t
Red(uint64_t bytes)
{
    return 3 * static_cast<uint64_t>(static_cast<double>(bytes) / kMemBw);
}

SystemConfig
Config(std::vector<std::string> algorithms)
{
    SystemConfig c;
    c.endpointDelayNs = kE;
    c.localMemBwGBps = kMemBw;
    c.preferredDatasetSplits = 1;
    c.collectiveOptimization = CollectiveOptimization::LocalBwAware;
    for (const auto& a : algorithms)
    {
        c.allReduceImplementation.push_back(ParseAlgorithmSpec(a, "test"));
    }
    c.reduceScatterImplementation = c.allReduceImplementation;
    c.allGatherImplementation = c.allReduceImplementation;
    c.allToAllImplementation = c.allReduceImplementation;
    return c;
}

Ptr<CongestionUnawareBackend>
Network(std::vector<AnalyticalDimension> dims, bool bidirectionalRing = true)
{
    auto b = CreateObject<CongestionUnawareBackend>();
    b->SetAttribute("BidirectionalRing", BooleanValue(bidirectionalRing));
    b->SetTopology(AnalyticalTopology(std::move(dims)));
    return b;
}

std::shared_ptr<const CollectivePlan>
Plan(const SystemConfig& config,
     std::vector<uint32_t> dims,
     CollectiveType type,
     uint64_t bytes,
     std::shared_ptr<const CommGroup> group = nullptr)
{
    CollectivePlanner planner(config, std::move(dims));
    CollectivePlanner::Request r;
    r.type = type;
    r.bytes = bytes;
    r.group = std::move(group);
    r.where = "test";
    return planner.Plan(r);
}

} // namespace

TEST(PatCollective, StepsAndBlocksPerStep)
{
    EXPECT_EQ(PatPhase::StepCount(2), 1U);
    EXPECT_EQ(PatPhase::StepCount(8), 3U);
    EXPECT_EQ(PatPhase::StepCount(6), 3U);
    EXPECT_EQ(PatPhase::StepCount(9), 4U);
    // Powers of two: n/2, n/4, .., 1 blocks over distances 1, 2, .., n/2.
    EXPECT_EQ(PatPhase::BlocksAtDimension(8, 0), 4U);
    EXPECT_EQ(PatPhase::BlocksAtDimension(8, 1), 2U);
    EXPECT_EQ(PatPhase::BlocksAtDimension(8, 2), 1U);
    // Six ranks: offsets 1, 3, 5 over distance 1; 2 over 2; 4 over 4.
    EXPECT_EQ(PatPhase::BlocksAtDimension(6, 0), 3U);
    EXPECT_EQ(PatPhase::BlocksAtDimension(6, 1), 1U);
    EXPECT_EQ(PatPhase::BlocksAtDimension(6, 2), 1U);
    EXPECT_EQ(PatPhase::BlocksAtDimension(6, 3), 0U);
    // Every block but a rank's own crosses exactly one message of each rank.
    for (uint32_t n = 2; n <= 130; ++n)
    {
        uint64_t blocks = 0;
        for (uint32_t k = 0; k < PatPhase::StepCount(n); ++k)
        {
            EXPECT_GT(PatPhase::BlocksAtDimension(n, k), 0U) << n << " " << k;
            blocks += PatPhase::BlocksAtDimension(n, k);
        }
        EXPECT_EQ(blocks, n - 1) << n;
    }
}

TEST(PatCollective, NamesAndRefusals)
{
    EXPECT_EQ(ToString(ParseAlgorithmSpec("pat", "t")), "pat");
    EXPECT_EQ(ToString(ParseAlgorithmSpec("onePat", "t")), "onePat");
    const auto config = Config({"pat"});
    EXPECT_THROW(Plan(config, {8}, CollectiveType::AllReduce, kMiB), InputError);
    EXPECT_THROW(Plan(config, {8}, CollectiveType::AllToAll, kMiB), InputError);
    try
    {
        Plan(config, {8}, CollectiveType::AllReduce, kMiB);
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find("pat cannot run ALL_REDUCE, only ALL_GATHER and "
                                             "REDUCE_SCATTER"),
                  std::string::npos)
            << e.what();
    }
}

TEST(PatCollective, FullyConnectedPowerOfTwoClosedForm)
{
    const uint32_t n = 8;
    const auto config = Config({"pat"});
    const auto fc = []
    {
        return Network({{AnalyticalBlock::FullyConnected, 8, kGbps, kLatency}});
    };
    // All-gather of D per rank: log2 n = 3 steps of D, 2D, 4D; a hand-off before each
    // send and after the last receipt.
    const uint64_t d = kMiB;
    auto ag = RunCollectiveOnMembers(fc(), config, Plan(config, {n}, CollectiveType::AllGather, d));
    EXPECT_EQ(ag.Last(), 4 * kE + Delta(d) + Delta(2 * d) + Delta(4 * d));
    EXPECT_EQ(ag.messages, n * 3);
    for (uint32_t r = 0; r < n; ++r)
    {
        EXPECT_EQ(ag.sent[r], (n - 1) * d);
    }
    // Reduce-scatter of D: blocks of D/8, messages of 4, 2, 1 blocks; the two after the
    // first reduce what they forward.
    auto rs =
        RunCollectiveOnMembers(fc(), config, Plan(config, {n}, CollectiveType::ReduceScatter, d));
    const uint64_t b = d / n;
    EXPECT_EQ(rs.Last(), 4 * kE + Delta(4 * b) + Delta(2 * b) + Delta(b) + Red(2 * b) + Red(b));
    EXPECT_EQ(rs.messages, n * 3);
    EXPECT_EQ(rs.TotalReceived(), n * (n - 1) * b);
}

TEST(PatCollective, SixRanksTakeThreeSteps)
{
    // Not a power of two (halving-doubling refuses it): ceil(log2 6) = 3 steps, against a
    // ring's 5.
    const uint32_t n = 6;
    const auto config = Config({"pat"});
    const auto fc = []
    {
        return Network({{AnalyticalBlock::FullyConnected, 6, kGbps, kLatency}});
    };
    const uint64_t d = 6 * 65536;
    auto ag = RunCollectiveOnMembers(fc(), config, Plan(config, {n}, CollectiveType::AllGather, d));
    EXPECT_EQ(ag.Last(), 4 * kE + Delta(d) + Delta(d) + Delta(3 * d));
    EXPECT_EQ(ag.TotalReceived(), n * (n - 1) * d);
    const uint64_t b = d / n;
    auto rs =
        RunCollectiveOnMembers(fc(), config, Plan(config, {n}, CollectiveType::ReduceScatter, d));
    EXPECT_EQ(rs.Last(), 4 * kE + Delta(3 * b) + Delta(b) + Delta(b) + Red(b) + Red(b));
    EXPECT_EQ(rs.TotalReceived(), n * (n - 1) * b);

    const auto ring = Config({"ring"});
    auto ringAg = RunCollectiveOnMembers(fc(), ring, Plan(ring, {n}, CollectiveType::AllGather, d));
    EXPECT_EQ(ringAg.Last(), 6 * kE + 5 * Delta(d));
    EXPECT_LT(ag.Last(), ringAg.Last());
}

TEST(PatCollective, PeersArePowerOfTwoShifts)
{
    // On a one-way ring a message from i to j crosses (j - i) mod n links: the all-gather
    // sends to i - 2^k (far first: 8 - 4, 8 - 2, 8 - 1 links), the reduce-scatter to
    // i + 2^k (1, 2, 4 links).
    const uint32_t n = 8;
    const auto config = Config({"pat"});
    const uint64_t d = kMiB;
    const auto ring = []
    {
        return Network({{AnalyticalBlock::Ring, 8, kGbps, kLatency}}, false);
    };
    auto ag =
        RunCollectiveOnMembers(ring(), config, Plan(config, {n}, CollectiveType::AllGather, d));
    EXPECT_EQ(ag.Last(), 4 * kE + Delta(d, 4) + Delta(2 * d, 6) + Delta(4 * d, 7));
    const uint64_t b = d / n;
    auto rs =
        RunCollectiveOnMembers(ring(), config, Plan(config, {n}, CollectiveType::ReduceScatter, d));
    EXPECT_EQ(rs.Last(),
              4 * kE + Delta(4 * b, 1) + Delta(2 * b, 2) + Delta(b, 4) + Red(2 * b) + Red(b));
}

TEST(PatCollective, GroupAllReduceRunsPatInsideTheServer)
{
    // A group of every GPU of servers 0 and 1 of a 4 x 4 network: localBWAware with
    // ["pat", "ring"] reduce-scatters by PAT inside (4 ranks: 2 steps), all-reduces by a
    // two-rank ring across, all-gathers by PAT inside.
    auto network = Network({{AnalyticalBlock::FullyConnected, 4, 50.0, 500.0},
                            {AnalyticalBlock::FullyConnected, 4, 100.0, 200.0}});
    const auto config = Config({"pat", "ring"});
    auto group =
        std::make_shared<const CommGroup>("1", std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7});
    const uint64_t d = kMiB;
    const auto plan = Plan(config, {4, 4}, CollectiveType::AllReduce, d, group);
    ASSERT_EQ(plan->phases.size(), 3U);
    EXPECT_EQ(plan->phases[0].algorithm.algorithm, CollectiveAlgorithm::Pat);
    EXPECT_EQ(plan->phases[1].algorithm.algorithm, CollectiveAlgorithm::Ring);
    EXPECT_EQ(plan->phases[2].algorithm.algorithm, CollectiveAlgorithm::Pat);
    auto out = RunCollectiveOnMembers(network, config, plan);
    const uint64_t b = d / 4;
    const uint64_t rs = 3 * kE + Delta(2 * b) + Delta(b) + Red(b);
    const uint64_t ar = kE + 2 * (Delta(b / 2, 1, 100.0, 200.0) + kE) + Red(b / 2);
    const uint64_t ag = 3 * kE + Delta(b) + Delta(2 * b);
    for (uint32_t r = 0; r < 8; ++r)
    {
        EXPECT_EQ(out.finishNs.at(r), rs + ar + ag) << r;
        EXPECT_EQ(out.sent[r], 3 * b + 2 * (b / 2) + 3 * b) << r;
    }
    for (uint32_t r = 8; r < 16; ++r)
    {
        EXPECT_EQ(out.sent[r], 0U);
    }
}
