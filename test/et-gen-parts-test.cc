/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The pieces the workload generators share: rank placement, the 1F1B schedule,
// gradient buckets, compute timing, group ids, option parsing, the ResNet-50 layers.
#include "et-test-support.h"

#include "ns3/device-model.h"
#include "ns3/gen-comm-groups.h"
#include "ns3/gen-names.h"
#include "ns3/gradient-buckets.h"
#include "ns3/one-f-one-b.h"
#include "ns3/parallel-layout.h"
#include "ns3/resnet50-layers.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>

using namespace ns3;
using namespace ns3::ettest;

TEST(ParallelLayout, TensorParallelIsInnermostThenDataThenPipeline)
{
    const ParallelLayout layout(4, 2, 3); // tp, dp, pp
    ASSERT_EQ(layout.GetRankCount(), 24u);
    for (uint32_t r = 0; r < 24; ++r)
    {
        const ParallelCoordinates c = layout.CoordinatesOf(r);
        EXPECT_EQ(r, c.tp + 4 * (c.dp + 2 * c.pp));
        EXPECT_EQ(layout.RankOf(c), r);
    }
    EXPECT_EQ(layout.TpGroup(13), (std::vector<uint32_t>{12, 13, 14, 15}));
    EXPECT_EQ(layout.DpGroup(13), (std::vector<uint32_t>{9, 13}));
}

TEST(ParallelLayout, ExpertGroupsSplitTheDataParallelDimension)
{
    const ParallelLayout layout(2, 8, 1, 4); // tp 2, dp 8, ep 4
    // Rank 11 is tp 1, dp 5: EP replicas 4..7, expert-DP replicas 1 and 5.
    EXPECT_EQ(layout.EpGroup(11), (std::vector<uint32_t>{9, 11, 13, 15}));
    EXPECT_EQ(layout.ExpertDpGroup(11), (std::vector<uint32_t>{3, 11}));
    // Every rank is in exactly one EP group of each (tp, pp) position.
    std::set<std::vector<uint32_t>> groups;
    for (uint32_t r = 0; r < 16; ++r)
    {
        groups.insert(layout.EpGroup(r));
    }
    EXPECT_EQ(groups.size(), 4u); // 2 tp positions × 8/4 groups
}

TEST(ParallelLayout, RejectsZeroDegreesAndAnEpThatDoesNotDivideDp)
{
    ExpectInputError([] { ParallelLayout(0, 2, 2); }, {"--tp"});
    ExpectInputError([] { ParallelLayout(2, 2, 0); }, {"--pp"});
    ExpectInputError([] { ParallelLayout(2, 6, 1, 4); }, {"--ep", "--dp"});
}

TEST(OneFOneB, WarmupSteadyAndCooldownHaveTheirClosedFormLengths)
{
    const uint32_t stages = 4;
    const uint32_t microBatches = 6;
    for (uint32_t s = 0; s < stages; ++s)
    {
        const auto steps = OneFOneBSchedule(s, stages, microBatches);
        ASSERT_EQ(steps.size(), 2u * microBatches);
        // Warm-up: P - 1 - s forwards before the first backward.
        uint32_t leading = 0;
        while (steps[leading].forward)
        {
            ++leading;
        }
        EXPECT_EQ(leading, stages - s); // warm-up plus the first steady forward
        uint32_t forwards = 0;
        uint32_t backwards = 0;
        uint32_t peakInFlight = 0;
        for (const auto& step : steps)
        {
            // Each pass in micro-batch order, each micro-batch once per direction.
            EXPECT_EQ(step.microBatch, step.forward ? forwards : backwards);
            (step.forward ? forwards : backwards)++;
            EXPECT_LE(backwards, forwards);
            peakInFlight = std::max(peakInFlight, forwards - backwards);
        }
        EXPECT_EQ(peakInFlight, stages - s);
    }
    // The last stage alternates from the start.
    const auto last = OneFOneBSchedule(3, 4, 2);
    EXPECT_EQ(last, (std::vector<PipelineStep>{{true, 0}, {false, 0}, {true, 1}, {false, 1}}));
    // Fewer micro-batches than stages: all forwards, then all backwards.
    const auto first = OneFOneBSchedule(0, 8, 2);
    EXPECT_EQ(first, (std::vector<PipelineStep>{{true, 0}, {true, 1}, {false, 0}, {false, 1}}));
}

TEST(GradientBuckets, CloseOnReachingCapacityAndNeverSplitATensor)
{
    GradientBuckets buckets(100);
    EXPECT_FALSE(buckets.Add(40));
    EXPECT_FALSE(buckets.Add(59));
    EXPECT_EQ(buckets.Add(1), std::optional<uint64_t>(100));
    EXPECT_EQ(buckets.Add(250), std::optional<uint64_t>(250));
    EXPECT_FALSE(buckets.Add(30));
    EXPECT_EQ(buckets.Flush(), std::optional<uint64_t>(30));
    EXPECT_FALSE(buckets.Flush());
}

TEST(DeviceModel, DurationIsTheRooflineMaximumInMicroseconds)
{
    DeviceModel device;
    device.peakTflops = 100;
    device.efficiency = 0.5;
    device.memoryGBps = 1000;
    // 5e13 FLOP/s effective: 1e12 FLOPs take 20 ms.
    EXPECT_EQ(device.DurationMicros({1'000'000'000'000, 0}), 20'000u);
    // 1 TB/s: 3e9 bytes take 3 ms, more than the 1 µs of their 5e7 FLOPs.
    EXPECT_EQ(device.DurationMicros({50'000'000, 3'000'000'000}), 3'000u);
    EXPECT_EQ(device.DurationMicros({1, 1}), 1u);
    EXPECT_EQ(device.DurationMicros({0, 0}), 0u);
    device.efficiency = 0;
    ExpectInputError([&] { device.Validate(); }, {"--efficiency"});
    device.efficiency = 1;
    device.peakTflops = -1;
    ExpectInputError([&] { device.Validate(); }, {"--peak-tflops"});
}

TEST(GenCommGroups, SameRanksSameIdAndJsonAsAstraSimReadsIt)
{
    GenCommGroups groups;
    EXPECT_EQ(groups.Register({3, 1}), "1");
    EXPECT_EQ(groups.Register({0, 2}), "2");
    EXPECT_EQ(groups.Register({1, 3}), "1");
    for (uint32_t i = 0; i < 9; ++i)
    {
        groups.Register({10 + i});
    }
    const auto json = nlohmann::json::parse(groups.ToJson());
    ASSERT_EQ(json.size(), 11u);
    EXPECT_EQ(json["1"], nlohmann::json({1, 3}));
    EXPECT_EQ(json["11"], nlohmann::json({18}));
    // Ids in numeric order in the text, 2 before 10.
    const std::string text = groups.ToJson();
    EXPECT_LT(text.find("\"2\""), text.find("\"10\""));
}

TEST(GenNames, CollectivesPrecisionsAndListsParseOrNameTheOption)
{
    EXPECT_EQ(ParseCollectiveName("all_reduce", "--collective"), EtCollectiveType::ALL_REDUCE);
    EXPECT_EQ(ParseCollectiveName("REDUCE_SCATTER_BLOCK", "--collective"),
              EtCollectiveType::REDUCE_SCATTER_BLOCK);
    EXPECT_EQ(ParseCollectiveName("barrier", "--collective"), EtCollectiveType::BARRIER);
    ExpectInputError([] { ParseCollectiveName("allreduce", "--collective"); },
                     {"--collective", "allreduce", "all_to_all"});
    EXPECT_EQ(ParsePrecision("bf16", "--precision"), 2u);
    EXPECT_EQ(ParsePrecision("FP32", "--precision"), 4u);
    EXPECT_EQ(ParsePrecision("fp8", "--precision"), 1u);
    ExpectInputError([] { ParsePrecision("int4", "--precision"); }, {"--precision", "int4"});
    EXPECT_EQ(ParseUintList("512,256,64", "--x"), (std::vector<uint64_t>{512, 256, 64}));
    ExpectInputError([] { ParseUintList("512,,64", "--bottom-mlp"); }, {"--bottom-mlp"});
    ExpectInputError([] { ParseUintList("-1", "--bottom-mlp"); }, {"--bottom-mlp"});
}

TEST(ResNet50Layers, FiftyFourLayersWith25502912Weights)
{
    const auto& layers = ResNet50Layers();
    ASSERT_EQ(layers.size(), 54u);
    uint64_t weights = 0;
    uint64_t macs = 0;
    for (const auto& layer : layers)
    {
        weights += layer.Weights();
        macs += layer.ForwardFlops(1) / 2;
    }
    EXPECT_EQ(weights, 25'502'912u);
    EXPECT_EQ(weights * 4, 102'011'648u);
    // torchvision lists ResNet-50 at 4.09 G multiply-accumulates per 224×224 image.
    EXPECT_NEAR(macs / 1e9, 4.09, 0.02);
    EXPECT_EQ(layers.front().name, "conv1");
    EXPECT_EQ(layers.front().Weights(), 7u * 7 * 3 * 64);
    EXPECT_EQ(layers.back().name, "fc");
    EXPECT_EQ(layers.back().Weights(), 2048u * 1000);
    // The four projection shortcuts, one per stage.
    int shortcuts = 0;
    for (const auto& layer : layers)
    {
        shortcuts += layer.name.find("downsample") != std::string::npos;
    }
    EXPECT_EQ(shortcuts, 4);
    // Spatial sides: the last stage works on 7×7 maps.
    EXPECT_EQ(layers[layers.size() - 2].outSide, 7u);
}
