/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The GPT-like training generator: counts and sizes of every kind of collective and
// message against closed forms of the parameters, FLOPs against Megatron-LM's formula,
// the 1F1B order, rank placement, and traces that load, match and run to completion.
#include "et-gen-test-support.h"

#include "ns3/one-f-one-b.h"
#include "ns3/transformer-generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace ns3;
using namespace ns3::ettest;
using namespace ns3::gentest;

namespace
{

/** The example of doc/workloads.md: 8 NPUs, TP 2 × PP 2 × DP 2, 4 layers, M = 4. */
TransformerConfig
DocumentedExample()
{
    TransformerConfig c;
    c.npus = 8;
    c.tp = 2;
    c.pp = 2;
    c.dp = 2;
    c.layers = 4;
    c.hidden = 1024;
    c.heads = 16;
    c.seq = 512;
    c.microBatch = 1;
    c.globalBatch = 8;
    c.vocab = 51200;
    c.precision = 2;
    return c;
}

/** Stage figures: first / last stage flags of a rank. */
struct Stage
{
    uint64_t first; //!< 1 on the first stage
    uint64_t last;  //!< 1 on the last stage
};

Stage
StageOf(const TransformerConfig& c, uint32_t rank)
{
    const uint32_t stage = rank / (c.tp * c.dp);
    return {stage == 0 ? 1u : 0u, stage + 1 == c.pp ? 1u : 0u};
}

/** \return parameters one rank of `stage` holds (dense model) */
uint64_t
StageParams(const TransformerConfig& c, const Stage& s)
{
    const uint64_t h = c.hidden;
    const uint64_t f = c.FfnSize();
    const uint64_t t = c.tp;
    const uint64_t layer = (4 * h * h + 2 * h * f + 3 * h + f) / t + 6 * h;
    return c.LayersPerStage() * layer + s.first * (c.vocab * h / t + c.seq * h) +
           s.last * (c.vocab * h / t + 2 * h);
}

} // namespace

TEST(TransformerGenerator, TensorPipelineAndDataCollectivesMatchClosedForms)
{
    const TransformerConfig c = DocumentedExample();
    const GenWorkload w = GenerateTransformer(c);
    ASSERT_EQ(w.ranks.size(), 8u);
    const uint64_t m = c.MicroBatches();
    const uint64_t ls = c.LayersPerStage();
    ASSERT_EQ(m, 4u);
    const uint64_t activation = c.microBatch * c.seq * c.hidden * c.precision; // 1 MiB
    for (const auto& rank : w.ranks)
    {
        SCOPED_TRACE("rank " + std::to_string(rank.GetRank()));
        const Stage s = StageOf(c, rank.GetRank());
        // TP: 4 all-reduces per layer per micro-batch, + embedding and LM head.
        const Calls tp = CollectivesOf(rank, EtCollectiveType::ALL_REDUCE, ".tp.");
        EXPECT_EQ(tp.count, m * (4 * ls + s.first + s.last));
        EXPECT_EQ(tp.sizes, std::set<uint64_t>{activation});
        ASSERT_EQ(tp.groups.size(), 1u);
        const auto& tpMembers = w.groups.GetGroups().at(*tp.groups.begin());
        const uint32_t base = rank.GetRank() / c.tp * c.tp;
        EXPECT_EQ(tpMembers, (std::vector<uint32_t>{base, base + 1})); // TP innermost
        // PP: one activation forward and one gradient back per micro-batch and boundary.
        EXPECT_EQ(CountOf(rank, EtNodeType::COMM_SEND_NODE), m * ((1 - s.last) + (1 - s.first)));
        EXPECT_EQ(CountOf(rank, EtNodeType::COMM_RECV_NODE), m * ((1 - s.last) + (1 - s.first)));
        // DP: the stage's gradients, bucketed, over the two replicas.
        const Calls dp = CollectivesOf(rank, EtCollectiveType::ALL_REDUCE, ".dp.");
        EXPECT_EQ(dp.bytes, StageParams(c, s) * c.precision);
        ASSERT_EQ(dp.groups.size(), 1u);
        const auto& dpMembers = w.groups.GetGroups().at(*dp.groups.begin());
        EXPECT_EQ(dpMembers.size(), c.dp);
        EXPECT_EQ(dpMembers[1] - dpMembers[0], c.tp);
        // Compute: attention + MLP per layer, embedding / head, each way, and one step.
        EXPECT_EQ(CountOf(rank, EtNodeType::COMP_NODE), 2 * m * (2 * ls + s.first + s.last) + 1);
        EXPECT_EQ(CountOf(rank, EtNodeType::COMM_COLL_NODE), tp.count + dp.count);
    }
    ExpectSendsMatchReceives(w);
    ExpectValidOnDisk(w);
}

TEST(TransformerGenerator, BucketCapacityDecidesTheNumberOfGradientReductions)
{
    TransformerConfig c = DocumentedExample();
    c.bucketBytes = uint64_t{1} << 40; // one bucket per stage
    const GenWorkload one = GenerateTransformer(c);
    c.bucketBytes = 1; // one reduction per gradient unit: attention, MLP, embedding, head
    const GenWorkload each = GenerateTransformer(c);
    for (uint32_t r = 0; r < c.npus; ++r)
    {
        const Stage s = StageOf(c, r);
        const Calls single = CollectivesOf(one.ranks[r], EtCollectiveType::ALL_REDUCE, ".dp.");
        const Calls many = CollectivesOf(each.ranks[r], EtCollectiveType::ALL_REDUCE, ".dp.");
        EXPECT_EQ(single.count, 1u);
        EXPECT_EQ(many.count, 2 * c.LayersPerStage() + s.first + s.last);
        EXPECT_EQ(single.bytes, many.bytes);
        EXPECT_EQ(many.bytes, StageParams(c, s) * c.precision);
    }
}

TEST(TransformerGenerator, SequenceParallelismSplitsEachAllReduceInTwo)
{
    TransformerConfig c = DocumentedExample();
    c.sequenceParallel = true;
    const GenWorkload w = GenerateTransformer(c);
    const uint64_t m = c.MicroBatches();
    const uint64_t ls = c.LayersPerStage();
    const uint64_t activation = c.microBatch * c.seq * c.hidden * c.precision;
    for (const auto& rank : w.ranks)
    {
        const Stage s = StageOf(c, rank.GetRank());
        EXPECT_EQ(CollectivesOf(rank, EtCollectiveType::ALL_REDUCE, ".tp.").count, 0u);
        const Calls gather = CollectivesOf(rank, EtCollectiveType::ALL_GATHER, ".tp.");
        const Calls scatter = CollectivesOf(rank, EtCollectiveType::REDUCE_SCATTER, ".tp.");
        EXPECT_EQ(gather.count, m * (4 * ls + s.first + s.last));
        EXPECT_EQ(scatter.count, gather.count);
        // ASTRA-sim's comm_size: all-gather = each rank's input, reduce-scatter = whole input.
        EXPECT_EQ(gather.sizes, std::set<uint64_t>{activation / c.tp});
        EXPECT_EQ(scatter.sizes, std::set<uint64_t>{activation});
        for (const auto& node : rank.GetNodes())
        {
            if (node.type == EtNodeType::COMM_SEND_NODE)
            {
                EXPECT_EQ(node.commSize, activation / c.tp); // pipeline sends stay sharded
            }
        }
    }
    ExpectSendsMatchReceives(w);
    ExpectValidOnDisk(w);
}

TEST(TransformerGenerator, ShardedOptimizerReduceScattersThenGathersEachBucket)
{
    TransformerConfig c = DocumentedExample();
    c.dp = 4;
    c.npus = 16;
    c.globalBatch = 16;
    c.sharding = DpSharding::ZERO;
    c.bucketBytes = 8 << 20;
    const GenWorkload w = GenerateTransformer(c);
    for (const auto& rank : w.ranks)
    {
        const Stage s = StageOf(c, rank.GetRank());
        EXPECT_EQ(CollectivesOf(rank, EtCollectiveType::ALL_REDUCE, ".dp.").count, 0u);
        const Calls scatter = CollectivesOf(rank, EtCollectiveType::REDUCE_SCATTER, ".dp.");
        const Calls gather = CollectivesOf(rank, EtCollectiveType::ALL_GATHER, ".dp.");
        EXPECT_GT(scatter.count, 1u);
        EXPECT_EQ(gather.count, scatter.count);
        // Buckets are padded to a multiple of DP: each gather moves a quarter of its bucket.
        EXPECT_EQ(scatter.bytes, 4 * gather.bytes);
        const uint64_t gradients = StageParams(c, s) * c.precision;
        EXPECT_GE(scatter.bytes, gradients);
        EXPECT_LT(scatter.bytes, gradients + scatter.count * c.dp);
    }
    ExpectValidOnDisk(w);
}

TEST(TransformerGenerator, FsdpGathersEachLayerTwiceAndScattersItOncePerMicroBatch)
{
    TransformerConfig c = DocumentedExample();
    c.pp = 1;
    c.dp = 4;
    c.globalBatch = 8;
    c.sharding = DpSharding::FSDP;
    c.iterations = 2;
    const GenWorkload w = GenerateTransformer(c);
    const uint64_t m = c.MicroBatches();
    const uint64_t units = c.layers + 2; // layers, embedding, head
    for (const auto& rank : w.ranks)
    {
        const Calls gather = CollectivesOf(rank, EtCollectiveType::ALL_GATHER, ".fsdp.");
        const Calls scatter = CollectivesOf(rank, EtCollectiveType::REDUCE_SCATTER, ".fsdp.");
        EXPECT_EQ(gather.count, c.iterations * m * 2 * units);
        EXPECT_EQ(scatter.count, c.iterations * m * units);
        const Stage s{1, 1};
        const uint64_t shards = StageParams(c, s) * c.precision;
        // Per iteration and micro-batch, the gathered shards hold the rank's quarter of
        // all parameters (rounded up per unit), twice.
        EXPECT_GE(gather.bytes, c.iterations * m * 2 * shards / c.dp);
        EXPECT_LE(gather.bytes, c.iterations * m * 2 * (shards / c.dp + units));
        EXPECT_EQ(scatter.bytes * 2, gather.bytes * c.dp);
        EXPECT_EQ(CollectivesOf(rank, EtCollectiveType::ALL_REDUCE, ".dp.").count, 0u);
    }
    ExpectValidOnDisk(w);
}

TEST(TransformerGenerator, MixtureOfExpertsExchangesTokensOverTheExpertGroup)
{
    TransformerConfig c = DocumentedExample();
    c.dp = 4;
    c.npus = 16;
    c.globalBatch = 8;
    c.experts = 8;
    c.ep = 2;
    c.topK = 2;
    const GenWorkload w = GenerateTransformer(c);
    const uint64_t m = c.MicroBatches();
    const uint64_t ls = c.LayersPerStage();
    const uint64_t h = c.hidden;
    const uint64_t f = c.FfnSize();
    const uint64_t tokens = c.microBatch * c.seq;
    for (const auto& rank : w.ranks)
    {
        const Calls a2a = CollectivesOf(rank, EtCollectiveType::ALL_TO_ALL);
        // Dispatch and combine, forward and backward.
        EXPECT_EQ(a2a.count, 4 * ls * m);
        EXPECT_EQ(a2a.sizes, std::set<uint64_t>{c.topK * tokens * h * c.precision / c.tp});
        ASSERT_EQ(a2a.groups.size(), 1u);
        const auto& ep = w.groups.GetGroups().at(*a2a.groups.begin());
        EXPECT_EQ(ep.size(), c.ep);
        EXPECT_EQ(ep[1] - ep[0], c.tp); // neighbouring replicas
        // Expert gradients: E/EP experts per layer, over DP/EP replicas.
        const Calls expert = CollectivesOf(rank, EtCollectiveType::ALL_REDUCE, ".expert_dp.");
        EXPECT_EQ(expert.bytes, ls * c.experts / c.ep * ((2 * h * f + f) / c.tp + h) * c.precision);
        ASSERT_EQ(expert.groups.size(), 1u);
        EXPECT_EQ(w.groups.GetGroups().at(*expert.groups.begin()).size(), c.dp / c.ep);
    }
    ExpectSendsMatchReceives(w);
    ExpectValidOnDisk(w);
}

TEST(TransformerGenerator, FlopsFollowMegatronsClosedForm)
{
    // Narayanan et al. (SC'21): one iteration costs 72·B·s·L·h²·(1 + s/6h + V/12hL)
    // FLOPs for B sequences, counting forward and both halves of backward.
    TransformerConfig c = DocumentedExample();
    c.npus = 2;
    c.tp = 2;
    c.pp = 1;
    c.dp = 1;
    c.globalBatch = 3;
    const GenWorkload w = GenerateTransformer(c);
    const uint64_t b = c.globalBatch;
    const uint64_t s = c.seq;
    const uint64_t l = c.layers;
    const uint64_t h = c.hidden;
    const uint64_t v = c.vocab;
    const uint64_t expected = 72 * b * s * l * h * h + 12 * b * s * s * l * h + 6 * b * s * h * v;
    uint64_t total = 0;
    for (const auto& rank : w.ranks)
    {
        for (const auto& node : rank.GetNodes())
        {
            const std::string name(node.name);
            if (node.type == EtNodeType::COMP_NODE && (name.find(".attn.") != std::string::npos ||
                                                       name.find(".mlp.") != std::string::npos ||
                                                       name.find(".head.") != std::string::npos))
            {
                total += node.numOps;
                // Durations come from the FLOPs at 312 TFLOP/s × 0.5 (or from memory traffic).
                const double micros = node.numOps / (312e12 * 0.5) * 1e6;
                EXPECT_GE(node.durationMicros, static_cast<uint64_t>(micros));
            }
        }
    }
    EXPECT_EQ(total, expected);
    // One attention block of one micro-batch, forward: (8bsh² + 4bs²h)/t.
    const EtNode& attention = w.ranks[0].GetNodes()[2];
    ASSERT_EQ(std::string(attention.name), "i0.mb0.layer0.attn.fwd");
    EXPECT_EQ(attention.numOps, (8 * s * h * h + 4 * s * s * h) / 2);
    EXPECT_EQ(attention.durationMicros, 17u); // 2.68e9 / 1.56e14 s
}

TEST(TransformerGenerator, StagesRunTheOneFOneBOrder)
{
    TransformerConfig c = DocumentedExample();
    c.pp = 4;
    c.dp = 1;
    c.globalBatch = 6;
    const GenWorkload w = GenerateTransformer(c);
    for (const auto& rank : w.ranks)
    {
        const uint32_t stage = rank.GetRank() / c.tp;
        // The order of the first layer's attention blocks, forward and backward.
        const std::string layer = "layer" + std::to_string(stage * c.LayersPerStage()) + ".attn.";
        std::vector<PipelineStep> order;
        for (const auto& node : rank.GetNodes())
        {
            const std::string name(node.name);
            if (node.type == EtNodeType::COMP_NODE && name.find(layer) != std::string::npos)
            {
                const uint32_t mb = std::stoul(name.substr(name.find(".mb") + 3));
                order.push_back({name.find(".fwd") != std::string::npos, mb});
            }
        }
        EXPECT_EQ(order, OneFOneBSchedule(stage, c.pp, c.MicroBatches()));
    }
    ExpectSendsMatchReceives(w);
    ExpectValidOnDisk(w);
}

TEST(TransformerGenerator, IterationsRepeatWithUniqueTags)
{
    TransformerConfig c = DocumentedExample();
    c.iterations = 3;
    const GenWorkload three = GenerateTransformer(c);
    c.iterations = 1;
    const GenWorkload one = GenerateTransformer(c);
    for (uint32_t r = 0; r < c.npus; ++r)
    {
        EXPECT_EQ(three.ranks[r].GetNodes().size(), 3 * one.ranks[r].GetNodes().size());
    }
    ExpectSendsMatchReceives(three);
    ExpectValidOnDisk(three);
}

TEST(TransformerGenerator, BadParametersNameTheOption)
{
    auto expectError = [](auto change, std::initializer_list<std::string> parts)
    {
        TransformerConfig c = DocumentedExample();
        change(c);
        ExpectInputError([&] { GenerateTransformer(c); }, parts);
    };
    expectError([](auto& c) { c.dp = 1; }, {"--tp", "--npus", "4", "8"});
    expectError([](auto& c) { c.layers = 5; }, {"--layers", "--pp"});
    expectError([](auto& c) { c.hidden = 0; }, {"--hidden"});
    expectError([](auto& c) { c.seq = 0; }, {"--seq"});
    expectError([](auto& c) { c.heads = 12; }, {"--heads", "--hidden"});
    expectError([](auto& c) { c.vocab = 50257; }, {"--vocab", "--tp"});
    expectError([](auto& c) { c.globalBatch = 7; }, {"--global-batch", "--micro-batch"});
    expectError([](auto& c) { c.ep = 2; }, {"--ep", "--experts"});
    expectError(
        [](auto& c)
        {
            c.experts = 4;
            c.topK = 5;
        },
        {"--top-k"});
    expectError(
        [](auto& c)
        {
            c.experts = 4;
            c.sharding = DpSharding::FSDP;
        },
        {"--sharding"});
    expectError([](auto& c) { c.hidden = 1 << 20; }, {"--hidden", "at most"});
    expectError([](auto& c) { c.device.efficiency = 1.5; }, {"--efficiency"});
    ExpectInputError([] { ParseDpSharding("zero3"); }, {"--sharding", "zero3"});
}
