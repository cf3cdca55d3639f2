/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ASTRA-sim's decomposition of collectives: chunking, phases per dimension, sizes,
// localBWAware and baseline all-reduce, groups, and the configurations it cannot run.
#include "ns3/collective-planner.h"
#include "ns3/group-decomposition.h"
#include "ns3/input-error.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

SystemConfig
Config(const std::string& algorithm,
       CollectiveOptimization optimization,
       uint32_t splits = 4,
       size_t dimensions = 1)
{
    SystemConfig c;
    c.preferredDatasetSplits = splits;
    c.collectiveOptimization = optimization;
    c.allReduceImplementation.assign(dimensions, ParseAlgorithmSpec(algorithm, "test"));
    c.reduceScatterImplementation = c.allReduceImplementation;
    c.allGatherImplementation = c.allReduceImplementation;
    c.allToAllImplementation = c.allReduceImplementation;
    return c;
}

CollectivePlanner::Request
Request(CollectiveType type, uint64_t bytes)
{
    CollectivePlanner::Request r;
    r.type = type;
    r.bytes = bytes;
    r.where = "trace.0.et: node 1";
    return r;
}

struct PhaseView
{
    CollectiveType op;
    uint32_t dimension;
    uint64_t input;
    uint64_t output;
    QueueClass queue;
};

void
ExpectPhases(const CollectivePlan& plan, const std::vector<PhaseView>& expected)
{
    ASSERT_EQ(plan.phases.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i)
    {
        SCOPED_TRACE("phase " + std::to_string(i));
        EXPECT_EQ(plan.phases[i].op, expected[i].op);
        EXPECT_EQ(plan.phases[i].dimension, expected[i].dimension);
        EXPECT_EQ(plan.phases[i].inputBytes, expected[i].input);
        EXPECT_EQ(plan.phases[i].outputBytes, expected[i].output);
        EXPECT_EQ(plan.phases[i].queue, expected[i].queue);
    }
}

void
ExpectInputError(const CollectivePlanner& planner,
                 const CollectivePlanner::Request& request,
                 const std::string& fragment)
{
    try
    {
        planner.Plan(request);
        FAIL() << "no error";
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
}

} // namespace

TEST(CollectivePlan, SplitsIntoPreferredChunks)
{
    CollectivePlanner planner(Config("ring", CollectiveOptimization::LocalBwAware, 4, 1), {8});
    auto plan = planner.Plan(Request(CollectiveType::AllReduce, 1048576));
    EXPECT_EQ(plan->chunkCount, 4U);
    EXPECT_EQ(plan->chunkBytes, 262144U);
    EXPECT_EQ(plan->handoffNs, 10U);
    ExpectPhases(*plan, {{CollectiveType::AllReduce, 0, 262144, 262144, QueueClass::FirstVisit}});
}

TEST(CollectivePlan, SmallChunksGrowToOneBytePerNpuExceptAllGather)
{
    CollectivePlanner planner(Config("ring", CollectiveOptimization::Baseline, 4, 2), {8, 4});
    // 100 B / 4 splits = 25 B < 32 NPUs: ASTRA-sim makes 4 chunks of 32 B.
    auto ar = planner.Plan(Request(CollectiveType::AllReduce, 100));
    EXPECT_EQ(ar->chunkCount, 4U);
    EXPECT_EQ(ar->chunkBytes, 32U);
    auto ag = planner.Plan(Request(CollectiveType::AllGather, 100));
    EXPECT_EQ(ag->chunkCount, 4U);
    EXPECT_EQ(ag->chunkBytes, 25U);
    // A size that does not divide: every chunk has the truncated size, one more chunk.
    auto odd = planner.Plan(Request(CollectiveType::AllGather, 1001));
    EXPECT_EQ(odd->chunkBytes, 250U);
    EXPECT_EQ(odd->chunkCount, 5U);
}

TEST(CollectivePlan, LocalBwAwareAllReduceGoesUpAndComesBack)
{
    CollectivePlanner planner(Config("ring", CollectiveOptimization::LocalBwAware, 1, 2), {4, 8});
    auto plan = planner.Plan(Request(CollectiveType::AllReduce, 1 << 20));
    ExpectPhases(*plan,
                 {{CollectiveType::ReduceScatter, 0, 1 << 20, 1 << 18, QueueClass::FirstVisit},
                  {CollectiveType::AllReduce, 1, 1 << 18, 1 << 18, QueueClass::FirstVisit},
                  {CollectiveType::AllGather, 0, 1 << 18, 1 << 20, QueueClass::SecondVisit}});
    CollectivePlanner three(Config("ring", CollectiveOptimization::LocalBwAware, 1, 3), {2, 4, 8});
    auto p3 = three.Plan(Request(CollectiveType::AllReduce, 1 << 20));
    ExpectPhases(*p3,
                 {{CollectiveType::ReduceScatter, 0, 1 << 20, 1 << 19, QueueClass::FirstVisit},
                  {CollectiveType::ReduceScatter, 1, 1 << 19, 1 << 17, QueueClass::FirstVisit},
                  {CollectiveType::AllReduce, 2, 1 << 17, 1 << 17, QueueClass::FirstVisit},
                  {CollectiveType::AllGather, 1, 1 << 17, 1 << 19, QueueClass::SecondVisit},
                  {CollectiveType::AllGather, 0, 1 << 19, 1 << 20, QueueClass::SecondVisit}});
}

TEST(CollectivePlan, BaselineAllReduceRunsFullSizeOnEveryDimension)
{
    CollectivePlanner planner(Config("ring", CollectiveOptimization::Baseline, 1, 2), {4, 8});
    auto plan = planner.Plan(Request(CollectiveType::AllReduce, 1 << 20));
    ExpectPhases(*plan,
                 {{CollectiveType::AllReduce, 0, 1 << 20, 1 << 20, QueueClass::Shared},
                  {CollectiveType::AllReduce, 1, 1 << 20, 1 << 20, QueueClass::Shared}});
}

TEST(CollectivePlan, AllGatherDescendsOthersAscend)
{
    CollectivePlanner planner(Config("ring", CollectiveOptimization::LocalBwAware, 1, 2), {4, 8});
    ExpectPhases(*planner.Plan(Request(CollectiveType::AllGather, 1024)),
                 {{CollectiveType::AllGather, 1, 1024, 8192, QueueClass::Shared},
                  {CollectiveType::AllGather, 0, 8192, 32768, QueueClass::Shared}});
    ExpectPhases(*planner.Plan(Request(CollectiveType::ReduceScatter, 32768)),
                 {{CollectiveType::ReduceScatter, 0, 32768, 8192, QueueClass::Shared},
                  {CollectiveType::ReduceScatter, 1, 8192, 1024, QueueClass::Shared}});
    ExpectPhases(*planner.Plan(Request(CollectiveType::ReduceScatterBlock, 32768)),
                 {{CollectiveType::ReduceScatter, 0, 32768, 8192, QueueClass::Shared},
                  {CollectiveType::ReduceScatter, 1, 8192, 1024, QueueClass::Shared}});
    ExpectPhases(*planner.Plan(Request(CollectiveType::AllToAll, 32768)),
                 {{CollectiveType::AllToAll, 0, 32768, 32768, QueueClass::Shared},
                  {CollectiveType::AllToAll, 1, 32768, 32768, QueueClass::Shared}});
}

TEST(CollectivePlan, SkipsUninvolvedAndSingleNpuDimensions)
{
    CollectivePlanner planner(Config("ring", CollectiveOptimization::LocalBwAware, 1, 3),
                              {4, 1, 8});
    auto r = Request(CollectiveType::AllReduce, 1 << 20);
    ExpectPhases(*planner.Plan(r),
                 {{CollectiveType::ReduceScatter, 0, 1 << 20, 1 << 18, QueueClass::FirstVisit},
                  {CollectiveType::AllReduce, 2, 1 << 18, 1 << 18, QueueClass::FirstVisit},
                  {CollectiveType::AllGather, 0, 1 << 18, 1 << 20, QueueClass::SecondVisit}});
    r.involvedDimensions = {true, true, false};
    ExpectPhases(*planner.Plan(r),
                 {{CollectiveType::AllReduce, 0, 1 << 20, 1 << 20, QueueClass::FirstVisit}});
    r.involvedDimensions = {false, false, false};
    auto none = planner.Plan(r);
    EXPECT_TRUE(none->phases.empty());
    EXPECT_EQ(none->chunkCount, 0U);
}

TEST(CollectivePlan, OneStarImplementationsFlattenEveryNpu)
{
    auto config = Config("oneRing", CollectiveOptimization::LocalBwAware, 1);
    CollectivePlanner planner(config, {4, 8});
    auto plan = planner.Plan(Request(CollectiveType::AllReduce, 1 << 20));
    ASSERT_EQ(plan->topology->GetDimensionCount(), 1U);
    EXPECT_EQ(plan->topology->GetSize(0), 32U);
    EXPECT_EQ(plan->topology->RankAt(5, 0, 31), 31U);
    ExpectPhases(*plan, {{CollectiveType::AllReduce, 0, 1 << 20, 1 << 20, QueueClass::FirstVisit}});
}

TEST(CollectivePlan, DimensionsAreStridedByLowerDimensions)
{
    CollectivePlanner planner(Config("ring", CollectiveOptimization::LocalBwAware, 1, 2), {4, 8});
    auto plan = planner.Plan(Request(CollectiveType::AllReduce, 1 << 20));
    const auto& t = *plan->topology;
    EXPECT_EQ(t.IndexOf(13, 0), 1U);
    EXPECT_EQ(t.IndexOf(13, 1), 3U);
    EXPECT_EQ(t.RankAt(13, 0, 3), 15U);
    EXPECT_EQ(t.RankAt(13, 1, 7), 29U);
}

TEST(CollectivePlan, MemberRingModeRunsOneRingOverSortedMembers)
{
    auto config = Config("halvingDoubling", CollectiveOptimization::LocalBwAware, 2, 2);
    config.groupDecomposition = GroupDecompositionMode::MemberRing;
    CollectivePlanner planner(config, {4, 4});
    auto r = Request(CollectiveType::AllReduce, 1 << 20);
    r.group = std::make_shared<const CommGroup>("7", std::vector<uint32_t>{9, 1, 5});
    auto plan = planner.Plan(r);
    ASSERT_TRUE(plan->topology->IsMemberRing());
    EXPECT_EQ(plan->topology->GetSize(0), 3U);
    EXPECT_EQ(plan->topology->RankAt(5, 0, 0), 1U);
    EXPECT_EQ(plan->topology->IndexOf(9, 0), 2U);
    EXPECT_EQ(plan->handoffNs, 10U);
    ASSERT_EQ(plan->phases.size(), 1U);
    EXPECT_EQ(plan->phases[0].algorithm.algorithm, CollectiveAlgorithm::Ring);
    EXPECT_EQ(plan->chunkCount, 2U);
    // A group spanning the world uses the native dimensions and ignores involved_dim.
    std::vector<uint32_t> all(16);
    for (uint32_t i = 0; i < 16; ++i)
    {
        all[i] = i;
    }
    r.group = std::make_shared<const CommGroup>("8", all);
    r.involvedDimensions = {false, false};
    auto world = planner.Plan(r);
    EXPECT_FALSE(world->topology->IsMemberRing());
    EXPECT_EQ(world->phases.size(), 3U);
}

TEST(CollectivePlan, GroupsRunOverTheDimensionsTheySpan)
{
    // 4 NPUs per server (dimension 0) x 4 servers. TP = 2, DP = 4, as the generator
    // places them: TP groups {0,1}, ...; DP groups {0,2,4,...,14}, ...
    auto config = Config("halvingDoubling", CollectiveOptimization::LocalBwAware, 2, 2);
    config.endpointDelayNs = 25;
    CollectivePlanner planner(config, {4, 4});
    auto r = Request(CollectiveType::AllReduce, 1 << 20);

    r.group = std::make_shared<const CommGroup>("1", std::vector<uint32_t>{0, 1});
    auto tp = planner.Plan(r);
    ASSERT_TRUE(tp->topology->IsSubGrid());
    EXPECT_EQ(tp->handoffNs, 25U);
    EXPECT_TRUE(tp->notes.empty());
    ExpectPhases(*tp, {{CollectiveType::AllReduce, 0, 524288, 524288, QueueClass::FirstVisit}});
    EXPECT_EQ(tp->phases[0].algorithm.algorithm, CollectiveAlgorithm::HalvingDoubling);
    EXPECT_EQ(tp->topology->GetSize(0), 2U);
    EXPECT_EQ(tp->topology->GetSize(1), 1U);

    // Two NPUs of each server, four servers: reduce-scatter inside, all-reduce across,
    // all-gather inside, with halving-doubling on both.
    r.group =
        std::make_shared<const CommGroup>("5", std::vector<uint32_t>{0, 2, 4, 6, 8, 10, 12, 14});
    auto dp = planner.Plan(r);
    ASSERT_TRUE(dp->topology->IsSubGrid());
    ExpectPhases(*dp,
                 {{CollectiveType::ReduceScatter, 0, 524288, 262144, QueueClass::FirstVisit},
                  {CollectiveType::AllReduce, 1, 262144, 262144, QueueClass::FirstVisit},
                  {CollectiveType::AllGather, 0, 262144, 524288, QueueClass::SecondVisit}});
    EXPECT_EQ(dp->topology->RankAt(6, 0, 0), 4U);
    EXPECT_EQ(dp->topology->RankAt(6, 1, 3), 14U);
    EXPECT_EQ(dp->topology->IndexOf(10, 0), 1U);
    EXPECT_EQ(dp->topology->IndexOf(10, 1), 2U);
    EXPECT_FALSE(dp->topology->Contains(1));

    // One NPU of each server: the scale-out dimension alone.
    r.group = std::make_shared<const CommGroup>("9", std::vector<uint32_t>{3, 7, 11, 15});
    ExpectPhases(*planner.Plan(r),
                 {{CollectiveType::AllReduce, 1, 524288, 524288, QueueClass::FirstVisit}});
}

TEST(CollectivePlan, GroupsSayWhereTheyCannotRunAsConfigured)
{
    auto config = Config("halvingDoubling", CollectiveOptimization::LocalBwAware, 2, 2);
    config.endpointDelayNs = 25;
    CollectivePlanner planner(config, {4, 4});
    auto r = Request(CollectiveType::AllReduce, 1 << 20);
    // Three ranks of one server: a sub-grid, but halving-doubling needs a power of two.
    r.group = std::make_shared<const CommGroup>("2", std::vector<uint32_t>{0, 1, 2});
    auto three = planner.Plan(r);
    ASSERT_TRUE(three->topology->IsSubGrid());
    EXPECT_EQ(three->phases[0].algorithm.algorithm, CollectiveAlgorithm::Ring);
    ASSERT_EQ(three->notes.size(), 1U);
    EXPECT_NE(three->notes[0].find("needs a power of two, dimension 0 has 3"), std::string::npos)
        << three->notes[0];

    // {0, 1, 5}: coordinates {0,1} x {0,1} would be four NPUs: no sub-grid.
    r.group = std::make_shared<const CommGroup>("3", std::vector<uint32_t>{0, 1, 5});
    auto odd = planner.Plan(r);
    ASSERT_TRUE(odd->topology->IsMemberRing());
    EXPECT_EQ(odd->handoffNs, 25U); // the configured endpoint delay, not ASTRA-sim's 10 ns
    EXPECT_EQ(odd->phases[0].algorithm.algorithm, CollectiveAlgorithm::Ring);
    ASSERT_EQ(odd->notes.size(), 1U);
    EXPECT_NE(odd->notes[0].find("no sub-grid of the fabric's dimensions 4x4"), std::string::npos)
        << odd->notes[0];

    // A list shorter than the dimensions the group spans: ring on the others.
    CollectivePlanner short1(Config("direct", CollectiveOptimization::Baseline, 2, 1), {4, 4});
    r.type = CollectiveType::AllToAll;
    r.group = std::make_shared<const CommGroup>("4", std::vector<uint32_t>{0, 1, 4, 5});
    auto a2a = short1.Plan(r);
    ASSERT_EQ(a2a->phases.size(), 2U);
    EXPECT_EQ(a2a->phases[0].algorithm.algorithm, CollectiveAlgorithm::Direct);
    EXPECT_EQ(a2a->phases[1].algorithm.algorithm, CollectiveAlgorithm::Ring);
    ASSERT_EQ(a2a->notes.size(), 1U);
    EXPECT_NE(a2a->notes[0].find("all-to-all-implementation lists 1 dimension(s)"),
              std::string::npos);

    // "one*" algorithms flatten the group into one dimension of its members.
    CollectivePlanner flat(Config("oneHalvingDoubling", CollectiveOptimization::Baseline, 2, 2),
                           {4, 4});
    r.type = CollectiveType::AllReduce;
    auto one = flat.Plan(r);
    ASSERT_TRUE(one->topology->IsMemberRing());
    EXPECT_EQ(one->phases[0].algorithm.algorithm, CollectiveAlgorithm::HalvingDoubling);
    EXPECT_TRUE(one->notes.empty());
}

TEST(CollectivePlan, NonAstraCollectivesRunOnePhaseOverTheGroup)
{
    CollectivePlanner planner(Config("ring", CollectiveOptimization::LocalBwAware, 2, 2), {4, 4});
    for (auto type : {CollectiveType::Broadcast,
                      CollectiveType::Reduce,
                      CollectiveType::Gather,
                      CollectiveType::Scatter})
    {
        auto r = Request(type, 4096);
        r.root = 5;
        auto plan = planner.Plan(r);
        EXPECT_EQ(plan->root, 5U);
        EXPECT_EQ(plan->chunkCount, 2U);
        EXPECT_EQ(plan->topology->GetSize(0), 16U);
        ExpectPhases(*plan, {{type, 0, 2048, 2048, QueueClass::Shared}});
    }
    auto barrier = planner.Plan(Request(CollectiveType::Barrier, 123456));
    EXPECT_EQ(barrier->chunkCount, 1U);
    EXPECT_EQ(barrier->chunkBytes, 1U);
}

TEST(CollectivePlan, RefusesWhatTheSystemConfigurationCannotRun)
{
    SystemConfig none;
    none.preferredDatasetSplits = 1;
    CollectivePlanner empty(none, {8});
    ExpectInputError(empty, Request(CollectiveType::AllReduce, 64), "no all-reduce-implementation");

    CollectivePlanner tooMany(Config("ring", CollectiveOptimization::Baseline, 4, 3), {8});
    ExpectInputError(tooMany, Request(CollectiveType::AllToAll, 64), "lists 3 dimensions");

    CollectivePlanner hd(Config("halvingDoubling", CollectiveOptimization::Baseline, 4, 3),
                         {6, 2, 2});
    ExpectInputError(hd, Request(CollectiveType::AllReduce, 1 << 20), "power of two");
    CollectivePlanner hdA2a(Config("halvingDoubling", CollectiveOptimization::Baseline, 4, 3),
                            {4, 2, 2});
    ExpectInputError(hdA2a, Request(CollectiveType::AllToAll, 1 << 20), "cannot run ALL_TO_ALL");

    CollectivePlanner dbt(Config("doubleBinaryTree", CollectiveOptimization::LocalBwAware, 4, 3),
                          {4, 2, 2});
    ExpectInputError(dbt, Request(CollectiveType::AllReduce, 1 << 20), "only ALL_REDUCE");

    auto custom = Config("ring", CollectiveOptimization::Baseline);
    custom.allReduceCustom = "msccl/ar";
    CollectivePlanner customPlanner(custom, {2, 2, 2});
    ExpectInputError(customPlanner, Request(CollectiveType::AllReduce, 64), "not supported");

    CollectivePlanner planner(Config("ring", CollectiveOptimization::Baseline, 4, 3), {2, 2, 2});
    auto r = Request(CollectiveType::Gather, 64);
    r.root = 8;
    ExpectInputError(planner, r, "root 8 is outside a group of 8");

    auto perNode = Config("ring", CollectiveOptimization::Baseline);
    perNode.perNodeCustomImplementation = "map.yaml";
    EXPECT_THROW(CollectivePlanner(perNode, {2, 2, 2}), InputError);
}

TEST(CollectivePlan, DecomposeGroupFindsSubGrids)
{
    // 8 x 4 x 2: TP inside a server, DP across servers and pods.
    const std::vector<uint32_t> dims{8, 4, 2};
    auto tp = DecomposeGroup({8, 9, 10, 11}, dims);
    ASSERT_TRUE(tp.subGrid);
    EXPECT_EQ(tp.dimensions[0].coordinates, (std::vector<uint32_t>{0, 1, 2, 3}));
    EXPECT_EQ(tp.dimensions[1].coordinates, (std::vector<uint32_t>{1}));
    EXPECT_EQ(tp.dimensions[2].coordinates, (std::vector<uint32_t>{0}));
    auto dp = DecomposeGroup({5, 13, 21, 29, 37, 45, 53, 61}, dims);
    ASSERT_TRUE(dp.subGrid);
    EXPECT_EQ(dp.dimensions[0].size, 1U);
    EXPECT_EQ(dp.dimensions[1].size, 4U);
    EXPECT_EQ(dp.dimensions[2].size, 2U);
    EXPECT_EQ(dp.dimensions[2].stride, 32U);
    auto no = DecomposeGroup({0, 9}, dims);
    EXPECT_FALSE(no.subGrid);
    EXPECT_NE(no.reason.find("span 2x2x1 = 4 NPUs"), std::string::npos) << no.reason;
    EXPECT_EQ(DimensionsText(dims), "8x4x2");
}
