/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ASTRA-sim's decomposition of collectives: chunking, phases per dimension, sizes,
// localBWAware and baseline all-reduce, groups, and the configurations it cannot run.
#include "ns3/collective-planner.h"
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

TEST(CollectivePlan, SubGroupsRunOneRingOverSortedMembers)
{
    CollectivePlanner planner(Config("halvingDoubling", CollectiveOptimization::LocalBwAware, 2, 2),
                              {4, 4});
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
