/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// NCCL's tuner model (src/graph/tuning.cc, Simple protocol): the sizes at which its choice
// switches algorithm, against the closed form of its latency and bandwidth terms written
// out by hand for each communicator shape.
#include "ns3/collective-planner.h"
#include "ns3/comm-group.h"
#include "ns3/input-error.h"
#include "ns3/nccl-tuner.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr double kIntra = 360; // GB/s per rank inside a node
constexpr double kInter = 50;  // GB/s per rank across nodes

NcclGroupShape
Shape(uint32_t nodes, uint32_t perNode, bool nvls, bool collNet)
{
    NcclGroupShape s;
    s.ranks = nodes * perNode;
    s.nodes = nodes;
    s.intraGBps = kIntra;
    s.interGBps = kInter;
    s.nvls = nvls;
    s.collNet = collNet;
    return s;
}

/** Size at which a + B / (1000 ga) = b + B / (1000 gb), bytes. */
double
Crossover(double latencyA, double gbpsA, double latencyB, double gbpsB)
{
    return (latencyB - latencyA) / (1 / gbpsA - 1 / gbpsB) * 1000;
}

/** The algorithm just below and just above a closed-form switch-over size. */
void
ExpectSwitchAt(CollectiveType type,
               const NcclGroupShape& shape,
               double bytes,
               NcclAlgorithm below,
               NcclAlgorithm above)
{
    EXPECT_EQ(ChooseNcclAlgorithm(type, static_cast<uint64_t>(bytes * 0.995), shape), below)
        << ToString(below) << " expected below " << bytes << " B";
    EXPECT_EQ(ChooseNcclAlgorithm(type, static_cast<uint64_t>(bytes * 1.005), shape), above)
        << ToString(above) << " expected above " << bytes << " B";
}

} // namespace

TEST(NcclTuner, TreeBelowRingAboveOnSixteenNodesOfEight)
{
    const NcclGroupShape s = Shape(16, 8, false, false);
    // Ring: 8.4 + (254 - 30) steps x 3.4 (NVLink) + 30 x 14 (network), times 1.4 on the
    // plateau; bandwidth 50 x 128 / 254. Tree: 8.4 + 2 (7 x 4.0 + log2(16) x 14), bandwidth
    // 50 x 0.92 x 0.5 times the correction 0.9 at 2^21 x 64 B.
    const double ringLatency = (8.4 + 224 * 3.4 + 30 * 14.0) * 1.4;
    const double treeLatency = 8.4 + 2 * (7 * 4.0 + 4 * 14.0);
    const double bytes =
        Crossover(treeLatency, 50 * 0.92 * 0.5 * 0.9, ringLatency, 50 * 128.0 / 254);
    EXPECT_NEAR(bytes, 172.77e6, 0.01e6);
    ExpectSwitchAt(CollectiveType::AllReduce, s, bytes, NcclAlgorithm::Tree, NcclAlgorithm::Ring);
    EXPECT_EQ(DescribeNcclChoice(CollectiveType::AllReduce, s),
              "tree below 256 MiB, ring from 256 MiB");
}

TEST(NcclTuner, PatBelowRingAboveWithOneRankPerNode)
{
    const NcclGroupShape s = Shape(32, 1, false, false);
    // Ring: 8.4 + 31 x 14; bandwidth 50 x 32 / 31. PAT: 8.0 + log2(32) x 14 / 3.5 + 32 x 2.8,
    // bandwidth 50 x 0.75.
    const double bytes = Crossover(8.0 + 5 * 4.0 + 32 * 2.8, 37.5, 8.4 + 31 * 14.0, 50 * 32.0 / 31);
    EXPECT_NEAR(bytes, 44.544e6, 0.01e6);
    for (CollectiveType type : {CollectiveType::AllGather, CollectiveType::ReduceScatter})
    {
        ExpectSwitchAt(type, s, bytes, NcclAlgorithm::Pat, NcclAlgorithm::Ring);
    }
    // With two ranks per node PAT is not NCCL's to choose.
    EXPECT_EQ(ChooseNcclAlgorithm(CollectiveType::AllGather, 1024, Shape(16, 2, false, false)),
              NcclAlgorithm::Ring);
}

TEST(NcclTuner, CollNetBelowRingAbove)
{
    const NcclGroupShape s = Shape(16, 8, false, true);
    // CollNet Direct: 2 (3.7 + 7 x 0.4) + 31, bandwidth 50 x 0.85 x 0.5; it beats the tree at
    // every size (20.7 GB/s at most for the tree).
    const double ringLatency = (8.4 + 224 * 3.4 + 30 * 14.0) * 1.4;
    const double bytes =
        Crossover(2 * (3.7 + 7 * 0.4) + 31, 50 * 0.85 * 0.5, ringLatency, 50 * 128.0 / 254);
    EXPECT_NEAR(bytes, 220.04e6, 0.01e6);
    ExpectSwitchAt(
        CollectiveType::AllReduce, s, bytes, NcclAlgorithm::CollNet, NcclAlgorithm::Ring);
    EXPECT_EQ(ChooseNcclAlgorithm(CollectiveType::AllReduce, 1024, s), NcclAlgorithm::CollNet);
}

TEST(NcclTuner, CollNetGathersAndScattersBelowRingAboveWithOneRankPerNode)
{
    const NcclGroupShape s = Shape(32, 1, false, true);
    // CollNet Direct (NCCL 2.20 on): 14 (the network's tree latency with one rank per
    // node), bandwidth 1 x min(360, 0.9 x 50), unconverted; it beats PAT (8.0 + 5 x 4.0 +
    // 32 x 2.8 at 37.5) at every size. Ring: 8.4 + 31 x 14 at 50 x 32 / 31.
    const double bytes = Crossover(14.0, 45.0, 8.4 + 31 * 14.0, 50 * 32.0 / 31);
    EXPECT_NEAR(bytes, 150.47e6, 0.01e6);
    for (CollectiveType type : {CollectiveType::AllGather, CollectiveType::ReduceScatter})
    {
        ExpectSwitchAt(type, s, bytes, NcclAlgorithm::CollNet, NcclAlgorithm::Ring);
        EXPECT_EQ(DescribeNcclChoice(type, s), "collnet below 256 MiB, ring from 256 MiB");
    }
    // With two ranks per node both NICs carry a share: 2 x 45 GB/s beats the ring's
    // 50 x 32 / 31 at every size.
    const NcclGroupShape two = Shape(16, 2, false, true);
    EXPECT_EQ(DescribeNcclChoice(CollectiveType::AllGather, two), "collnet");
    const auto estimates = NcclEstimates(CollectiveType::ReduceScatter, two);
    ASSERT_EQ(estimates.size(), 2U);
    EXPECT_EQ(estimates[1].algorithm, NcclAlgorithm::CollNet);
    EXPECT_DOUBLE_EQ(estimates[1].latencyUs, 2 * (3.7 + 0.4) + 31);
    EXPECT_DOUBLE_EQ(estimates[1].algorithmGBps, 90.0);
}

TEST(NcclTuner, NvlsOnOneSwitchAtEverySize)
{
    const NcclGroupShape s = Shape(1, 8, true, false);
    const auto estimates = NcclEstimates(CollectiveType::AllReduce, s);
    ASSERT_EQ(estimates.size(), 3U);
    // Ring 8.4 + 14 x 3.4 at 360 x 8 / 14; tree 8.4 + 2 x 7 x 4.0 at 360 x 0.46; NVLS 25 at
    // 360 x 0.85 x 15/16 x 2 x 8 / 14.
    EXPECT_DOUBLE_EQ(estimates[0].latencyUs, 56.0);
    EXPECT_NEAR(estimates[0].algorithmGBps, 360 * 8.0 / 14, 1e-9);
    EXPECT_DOUBLE_EQ(estimates[1].latencyUs, 64.4);
    EXPECT_NEAR(estimates[1].algorithmGBps, 360 * 0.46, 1e-9);
    EXPECT_EQ(estimates[2].algorithm, NcclAlgorithm::Nvls);
    EXPECT_DOUBLE_EQ(estimates[2].latencyUs, 25.0);
    EXPECT_NEAR(estimates[2].algorithmGBps, 360 * 0.85 * 15 / 16 * 2 * 8 / 14, 1e-9);
    EXPECT_EQ(DescribeNcclChoice(CollectiveType::AllReduce, s), "nvls");
    // Without the switch's reduction the ring wins at every size on one node.
    EXPECT_EQ(DescribeNcclChoice(CollectiveType::AllReduce, Shape(1, 8, false, false)), "ring");
    // NVLS over several nodes is not offered (it needs one scale-up switch).
    for (const NcclEstimate& e : NcclEstimates(CollectiveType::AllReduce, Shape(2, 8, true, false)))
    {
        EXPECT_NE(e.algorithm, NcclAlgorithm::Nvls);
    }
}

// NVLS reduce-scatter and all-gather (NCCL 2.19 on): 25 us, and (ppn - 1) / ppn of the
// switch's per-channel bandwidth instead of the all-reduce's 2, times n / (n - 1).
TEST(NcclTuner, NvlsReduceScatterAndAllGatherBelowRingAbove)
{
    const NcclGroupShape s = Shape(1, 8, true, false);
    const double nvlsGBps = 360 * 0.85 * 15 / 16 * 7.0 / 8 * 8 / 7;
    const double ringGBps = 360 * 8.0 / 7;
    // Ring: 8.4 + 7 x 3.4.
    const double bytes = Crossover(25.0, nvlsGBps, 8.4 + 7 * 3.4, ringGBps);
    EXPECT_NEAR(bytes, 6.8228e6, 0.001e6);
    for (CollectiveType type : {CollectiveType::AllGather, CollectiveType::ReduceScatter})
    {
        const auto estimates = NcclEstimates(type, s);
        ASSERT_EQ(estimates.size(), 2U) << ToString(type);
        EXPECT_EQ(estimates[1].algorithm, NcclAlgorithm::Nvls);
        EXPECT_DOUBLE_EQ(estimates[1].latencyUs, 25.0);
        EXPECT_NEAR(estimates[1].algorithmGBps, nvlsGBps, 1e-9);
        ExpectSwitchAt(type, s, bytes, NcclAlgorithm::Nvls, NcclAlgorithm::Ring);
        EXPECT_EQ(DescribeNcclChoice(type, s), "nvls below 8 MiB, ring from 8 MiB");
        // More than 32 local ranks: not offered (NCCL_MAX_NVLS_ARITY); the all-reduce is.
        for (const NcclEstimate& e : NcclEstimates(type, Shape(1, 33, true, false)))
        {
            EXPECT_NE(e.algorithm, NcclAlgorithm::Nvls) << ToString(type);
        }
    }
    EXPECT_EQ(NcclEstimates(CollectiveType::AllReduce, Shape(1, 33, true, false)).back().algorithm,
              NcclAlgorithm::Nvls);
}

TEST(NcclTuner, OnlyTheThreeTunedCollectives)
{
    EXPECT_TRUE(NcclEstimates(CollectiveType::AllToAll, Shape(4, 8, true, true)).empty());
    EXPECT_TRUE(NcclEstimates(CollectiveType::AllReduce, Shape(1, 1, false, false)).empty());
}

namespace
{

/** 16 servers of 8: one 360 GB/s scale-up switch each, 50 GB/s rails onto one switch. */
CollectivePlanner
EightBySixteen(CollectiveOptimization optimization, bool collNet = false)
{
    SystemConfig config;
    config.collectiveOptimization = optimization;
    config.ncclCollNetEnable = collNet;
    const AlgorithmSpec nccl = ParseAlgorithmSpec("nccl", "test");
    config.allReduceImplementation = {nccl};
    config.reduceScatterImplementation = {nccl};
    config.allGatherImplementation = {nccl};
    return CollectivePlanner(config, {8, 16}, {{kIntra, true, true}, {kInter, false, true}});
}

/** \return a world all-reduce of \p bytes */
CollectivePlanner::Request
AllReduceOf(uint64_t bytes)
{
    CollectivePlanner::Request request;
    request.type = CollectiveType::AllReduce;
    request.where = "test";
    request.bytes = bytes;
    return request;
}

std::string
Algorithms(const CollectivePlan& plan)
{
    std::string text;
    for (const auto& phase : plan.phases)
    {
        text += (text.empty() ? "" : " ") + ToString(phase.algorithm) + "@" +
                std::to_string(phase.dimension);
    }
    return text;
}

} // namespace

TEST(NcclTuner, PlannerRunsTheChoiceOnTheGroupsDimensions)
{
    const CollectivePlanner planner = EightBySixteen(CollectiveOptimization::Baseline);
    // The world of 16 nodes of 8: a tree on both dimensions below 172.77 MB, one ring above.
    CollectivePlanner::Request request = AllReduceOf(1 << 20);
    auto plan = planner.Plan(request);
    EXPECT_EQ(Algorithms(*plan), "doubleBinaryTree@0 doubleBinaryTree@1");
    ASSERT_EQ(plan->notes.size(), 1U);
    EXPECT_EQ(plan->notes[0],
              "the world: nccl for ALL_REDUCE on 128 ranks in 16 node(s): tree below 256 MiB, "
              "ring from 256 MiB");
    request.bytes = 1ULL << 30;
    EXPECT_EQ(Algorithms(*planner.Plan(request)), "oneRing@0");
    // A TP group on one server's scale-up switch: nvls.
    std::vector<uint32_t> tp{8, 9, 10, 11, 12, 13, 14, 15};
    request.group = std::make_shared<CommGroup>("tp", tp);
    request.bytes = 1 << 20;
    EXPECT_EQ(Algorithms(*planner.Plan(request)), "nvls@0");
    // A DP group of one rank per server: pat for a small all-gather (sized by its output,
    // 16 x 64 KiB).
    std::vector<uint32_t> dp;
    for (uint32_t s = 0; s < 16; ++s)
    {
        dp.push_back(8 * s + 3);
    }
    request.group = std::make_shared<CommGroup>("dp", dp);
    request.type = CollectiveType::AllGather;
    request.bytes = 64 << 10;
    EXPECT_EQ(Algorithms(*planner.Plan(request)), "onePat@0");
}

TEST(NcclTuner, RingAcrossNodesRunsAChannelPerRankOfANode)
{
    const CollectivePlanner planner = EightBySixteen(CollectiveOptimization::Baseline);
    CollectivePlanner::Request request = AllReduceOf(1ULL << 30);
    auto plan = planner.Plan(request);
    ASSERT_EQ(Algorithms(*plan), "oneRing@0");
    ASSERT_EQ(plan->GetChannelCount(), 8U);
    // One chunk (preferred-dataset-splits 1) split over the 8 channels.
    EXPECT_EQ(plan->chunkCount, 8U);
    EXPECT_EQ(plan->chunkBytes, (1ULL << 30) / 8);
    ASSERT_EQ(plan->notes.size(), 2U);
    EXPECT_EQ(plan->notes[1],
              "the world: nccl ring in 8 channels, one per rank of a node, each leaving every "
              "node from another rank's NIC");
    for (uint32_t c = 0; c < 8; ++c)
    {
        const CollectiveTopology& ring = plan->TopologyOf(c);
        EXPECT_EQ(&ring, &plan->TopologyOf(c + 8));
        ASSERT_EQ(ring.GetRankCount(), 128U);
        for (uint32_t node = 0; node < 16; ++node)
        {
            // Channel c enters node n at its c-th rank and leaves it from the one before.
            EXPECT_EQ(ring.RankAt(0, 0, 8 * node), 8 * node + c);
            EXPECT_EQ(ring.RankAt(0, 0, 8 * node + 7), 8 * node + (c + 7) % 8);
        }
        for (uint32_t position = 0; position < 128; ++position)
        {
            EXPECT_EQ(ring.IndexOf(ring.RankAt(0, 0, position), 0), position);
        }
    }
    // One rank per node, or one node: a single ring.
    std::vector<uint32_t> dp;
    for (uint32_t s = 0; s < 16; ++s)
    {
        dp.push_back(8 * s + 3);
    }
    request.group = std::make_shared<CommGroup>("dp", dp);
    plan = planner.Plan(request);
    EXPECT_EQ(Algorithms(*plan), "oneRing@0");
    EXPECT_EQ(plan->GetChannelCount(), 1U);
    // Nodes holding different numbers of the group's ranks: one channel, and a note.
    request.group = std::make_shared<CommGroup>("uneven", std::vector<uint32_t>{0, 1, 2, 8, 9});
    plan = planner.Plan(request);
    EXPECT_EQ(plan->GetChannelCount(), 1U);
    EXPECT_EQ(plan->notes.back(),
              "group 'uneven': nccl ring in one channel: its nodes hold different numbers of "
              "its ranks");
}

TEST(NcclTuner, LocalBwAwareTreeOnlyOnTheHighestDimension)
{
    const CollectivePlanner planner = EightBySixteen(CollectiveOptimization::LocalBwAware);
    const CollectivePlanner::Request request = AllReduceOf(1 << 20);
    EXPECT_EQ(Algorithms(*planner.Plan(request)), "ring@0 doubleBinaryTree@1 ring@0");
}

TEST(NcclTuner, PlannerRefusesNcclWithoutFabricOrForAllToAll)
{
    SystemConfig config;
    config.allReduceImplementation = {ParseAlgorithmSpec("nccl", "test")};
    config.allToAllImplementation = {ParseAlgorithmSpec("nccl", "test")};
    CollectivePlanner::Request request = AllReduceOf(1 << 20);
    EXPECT_THROW(CollectivePlanner(config, {8}).Plan(request), InputError);
    request.type = CollectiveType::AllToAll;
    EXPECT_THROW(CollectivePlanner(config, {8}, {{kIntra, true, true}}).Plan(request), InputError);
    EXPECT_THROW(ParseAlgorithmSpec("oneNccl", "test"), InputError);
}

TEST(NcclTuner, CollNetOnSwitchLevelsReducesAllReduceOnly)
{
    // Above the nodes a Clos: no one switch, but SHARP's trees over its levels run an
    // all-reduce (CollNet Direct, as on one switch); a reduce-scatter or all-gather, which
    // the trees do not run, does not get CollNet there.
    SystemConfig config;
    config.ncclCollNetEnable = true;
    const AlgorithmSpec nccl = ParseAlgorithmSpec("nccl", "test");
    config.allReduceImplementation = {nccl};
    config.reduceScatterImplementation = {nccl};
    config.allGatherImplementation = {nccl};
    NcclDimension clos{kInter, false, false};
    clos.switchTree = true;
    const CollectivePlanner planner(config, {8, 16}, {{kIntra, true, true}, clos});
    CollectivePlanner::Request request = AllReduceOf(64 << 20);
    EXPECT_EQ(Algorithms(*planner.Plan(request)), "ring@0 inNetwork@1 ring@0");
    request.type = CollectiveType::ReduceScatter;
    request.bytes = 1 << 20; // CollNet's range on one switch
    EXPECT_EQ(Algorithms(*planner.Plan(request)).find("inNetwork"), std::string::npos);
    const CollectivePlanner oneSwitch(
        config, {8, 16}, {{kIntra, true, true}, {kInter, false, true}});
    EXPECT_NE(Algorithms(*oneSwitch.Plan(request)).find("inNetwork"), std::string::npos);
}

TEST(NcclTuner, CollNetOverSeveralRanksPerNodeSplitsTheAllReduce)
{
    // 16 nodes of 8 with CollNet on: below 220.04 MB NCCL's model picks CollNet Direct.
    // Whatever the collective optimization, the all-reduce reduce-scatters inside each
    // node, reduces each rank's share in the scale-out switch and all-gathers inside.
    const CollectivePlanner planner = EightBySixteen(CollectiveOptimization::Baseline, true);
    CollectivePlanner::Request request = AllReduceOf(64 << 20);
    auto plan = planner.Plan(request);
    ASSERT_EQ(Algorithms(*plan), "ring@0 inNetwork@1 ring@0");
    EXPECT_EQ(plan->phases[0].op, CollectiveType::ReduceScatter);
    EXPECT_EQ(plan->phases[1].op, CollectiveType::AllReduce);
    EXPECT_EQ(plan->phases[2].op, CollectiveType::AllGather);
    // Each rank's share through its NIC is an eighth of its data.
    EXPECT_EQ(plan->phases[1].inputBytes, plan->chunkBytes / 8);
    ASSERT_EQ(plan->notes.size(), 2U);
    EXPECT_EQ(plan->notes[0],
              "the world: nccl for ALL_REDUCE on 128 ranks in 16 node(s): collnet below 256 MiB, "
              "ring from 256 MiB");
    EXPECT_EQ(plan->notes[1],
              "the world: nccl collnet over 8 ranks per node: a ring inside each node, "
              "in-network across nodes, each rank's share through its own NIC");
    // A reduce-scatter needs no split: inside the node, then across.
    request.type = CollectiveType::ReduceScatter;
    EXPECT_EQ(Algorithms(*planner.Plan(request)), "ring@0 inNetwork@1");
    // Nodes holding different numbers of the group's ranks do not get CollNet.
    request.type = CollectiveType::AllReduce;
    request.group = std::make_shared<CommGroup>("uneven", std::vector<uint32_t>{0, 1, 2, 8, 9});
    plan = planner.Plan(request);
    EXPECT_EQ(Algorithms(*plan).find("inNetwork"), std::string::npos) << Algorithms(*plan);
    // Without CollNet the same world runs a tree on each dimension.
    request.group = nullptr;
    EXPECT_EQ(Algorithms(*EightBySixteen(CollectiveOptimization::Baseline).Plan(request)),
              "doubleBinaryTree@0 doubleBinaryTree@1");
}
