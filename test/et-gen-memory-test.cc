/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The memory footprint of a training device against figures worked out by hand for
// GPT-3 175B and a 1T-parameter model, what memory expansion offloads, and the replay
// cost of the MEM_LOAD / MEM_STORE nodes it emits against the closed form.
#include "et-gen-test-support.h"
#include "replay-test-support.h"

#include "ns3/memory-footprint.h"
#include "ns3/transformer-generator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>

using namespace ns3;
using namespace ns3::ettest;
using namespace ns3::gentest;
using namespace ns3::replaytest;

namespace
{

/** GPT-3 175B (96 layers, h 12288, 96 heads, s 2048) on TP 8 × PP 16 × DP 8, M = 192. */
TransformerConfig
Gpt3()
{
    TransformerConfig c;
    c.tp = 8;
    c.pp = 16;
    c.dp = 8;
    c.npus = 8 * 16 * 8;
    c.layers = 96;
    c.hidden = 12288;
    c.heads = 96;
    c.seq = 2048;
    c.microBatch = 1;
    c.globalBatch = 1536;
    c.vocab = 51200;
    c.precision = 2;
    return c;
}

/** Transformer-1T (128 layers, h 25600, 160 heads, s 2048) on TP 8 × PP 64 × DP 4, M = 128. */
TransformerConfig
OneTrillion()
{
    TransformerConfig c = Gpt3();
    c.pp = 64;
    c.dp = 4;
    c.npus = 8 * 64 * 4;
    c.layers = 128;
    c.hidden = 25600;
    c.heads = 160;
    c.globalBatch = 512;
    return c;
}

/** The summed parameters of every device of one replica: TP × the stages' parameters. */
uint64_t
ModelParameters(const TransformerConfig& c)
{
    uint64_t sum = 0;
    for (uint32_t s = 0; s < c.pp; ++s)
    {
        sum += StageFootprint(c, s).parameters;
    }
    return c.tp * sum;
}

} // namespace

// Per layer and TP rank: attention (4h² + 3h)/8 + 3h = 75,538,944 and MLP (2h·4h + 4h)/8 +
// 3h = 151,037,952 parameters; stage 0 has 6 layers and the embedding V·h/8 + s·h =
// 103,809,024: 1,463,270,400 parameters. Activations per layer (Korthikanti's
// s·b·h·(10 + 24/t + 5as/(ht)) with 5as/h = 80): 25,165,824 × 23 = 578,813,952 B,
// 6 layers × 16 micro-batches in flight on stage 0.
TEST(MemoryFootprint, Gpt3OnTp8Pp16WithoutSharding)
{
    const TransformerConfig c = Gpt3();
    c.Validate();
    const MemoryFootprint f = DeviceFootprint(c);
    EXPECT_EQ(f.stage, 0u);
    EXPECT_EQ(f.parameters, 1463270400u);
    EXPECT_EQ(f.weightsBytes, 2926540800u);
    EXPECT_EQ(f.gradientsBytes, 2926540800u);
    EXPECT_EQ(f.optimizerBytes, 17559244800u);
    EXPECT_EQ(f.activationBytesPerLayer, 578813952u);
    EXPECT_EQ(f.inFlightMicroBatches, 16u);
    EXPECT_EQ(f.activationsBytes, uint64_t{16} * 6 * 578813952);
    EXPECT_EQ(f.TotalBytes(), 78978465792u);
    // 175 B parameters in all (the LayerNorms and biases counted once per TP rank).
    EXPECT_NEAR(static_cast<double>(ModelParameters(c)), 175e9, 0.01 * 175e9);
    // The last stage holds one micro-batch in flight and the LM head.
    const MemoryFootprint last = StageFootprint(c, 15);
    EXPECT_EQ(last.inFlightMicroBatches, 1u);
    EXPECT_EQ(last.parameters, uint64_t{6} * 226576896 + uint64_t{51200} * 12288 / 8 + 2 * 12288);

    // Fits in 80 GB, not in 40 GB; it names the stage and both sizes.
    EXPECT_TRUE(PlanOffload(f, 80000000000, false).fits);
    const OffloadPlan small = PlanOffload(f, 40000000000, false);
    EXPECT_FALSE(small.fits);
    EXPECT_FALSE(small.feasible);
    EXPECT_NE(small.reason.find("stage 0 needs 78.98 GB per device, HBM holds 40.00 GB"),
              std::string::npos)
        << small.reason;
}

// Selective recomputation drops the 5as/h term (80 of 23 × 8); sequence parallelism
// divides the 10 replicated by t as well.
TEST(MemoryFootprint, Gpt3RecomputationAndSequenceParallelism)
{
    TransformerConfig c = Gpt3();
    c.recompute = Recompute::SELECTIVE;
    EXPECT_EQ(DeviceFootprint(c).activationBytesPerLayer, 25165824u * 13);
    c.sequenceParallel = true;
    EXPECT_EQ(DeviceFootprint(c).activationBytesPerLayer, 25165824u * 34 / 8);
    c.recompute = Recompute::FULL;
    EXPECT_EQ(DeviceFootprint(c).activationBytesPerLayer, 2u * 25165824 / 8);
}

// Per layer and TP rank 327,766,400 + 655,449,600 = 983,216,000 parameters; stage 0 has
// 2 layers and the embedding 51200·25600/8 + 2048·25600 = 216,268,800: 2,182,700,800.
// ZeRO shards gradients (2 B) and the 12 B of Adam's state over DP 4; full recomputation
// keeps p·s·b·h = 104,857,600 B per layer, for 64 micro-batches in flight.
TEST(MemoryFootprint, OneTrillionUnderZeroWithFullRecomputation)
{
    TransformerConfig c = OneTrillion();
    c.sharding = DpSharding::ZERO;
    c.recompute = Recompute::FULL;
    c.Validate();
    EXPECT_NEAR(static_cast<double>(ModelParameters(c)), 1.0e12, 0.015e12);
    const MemoryFootprint f = DeviceFootprint(c);
    EXPECT_EQ(f.stage, 0u);
    EXPECT_EQ(f.parameters, 2182700800u);
    EXPECT_EQ(f.weightsBytes, 4365401600u);
    EXPECT_EQ(f.gradientsBytes, 1091350400u);
    EXPECT_EQ(f.optimizerBytes, 6548102400u);
    EXPECT_EQ(f.activationBytesPerLayer, 104857600u);
    EXPECT_EQ(f.inFlightMicroBatches, 64u);
    EXPECT_EQ(f.activationsBytes, 13421772800u);
    EXPECT_EQ(f.TotalBytes(), 25426627200u);

    // FSDP also shards the weights and keeps one gathered layer (2 B per parameter).
    c.sharding = DpSharding::FSDP;
    const MemoryFootprint fsdp = DeviceFootprint(c);
    EXPECT_EQ(fsdp.weightsBytes, 4365401600u / 4 + 2u * 983216000);
    EXPECT_EQ(fsdp.gradientsBytes, 1091350400u);
    EXPECT_EQ(fsdp.optimizerBytes, 6548102400u);

    // Without sharding nor recomputation it needs far more than 80 GB.
    c.sharding = DpSharding::NONE;
    c.recompute = Recompute::NONE;
    EXPECT_FALSE(PlanOffload(DeviceFootprint(c), 80000000000, false).feasible);
}

// Offload order: optimizer state first, then the least share of every micro-batch's
// activations, x = ceil(excess / (m − 1)), so that the resident peak fits.
TEST(MemoryFootprint, ExpansionOffloadsOptimizerThenActivations)
{
    const MemoryFootprint f = DeviceFootprint(Gpt3());
    // 78.98 GB − 17.56 GB of optimizer state = 61.42 GB ≤ 65 GB.
    OffloadPlan plan = PlanOffload(f, 65000000000, true);
    EXPECT_FALSE(plan.fits);
    EXPECT_TRUE(plan.feasible);
    EXPECT_EQ(plan.optimizerOffloadBytes, 17559244800u);
    EXPECT_EQ(plan.activationOffloadPerMicroBatch, 0u);
    EXPECT_EQ(plan.residentBytes, 78978465792u - 17559244800u);

    plan = PlanOffload(f, 40000000000, true);
    EXPECT_TRUE(plan.feasible);
    const uint64_t excess = 78978465792u - 17559244800u - 40000000000u;
    EXPECT_EQ(plan.activationOffloadPerMicroBatch, (excess + 14) / 15);
    EXPECT_LE(plan.residentBytes, 40000000000u);
    const uint64_t x = (excess + 14) / 15;
    EXPECT_EQ(plan.residentBytes,
              2 * uint64_t{2926540800} + 16 * (f.activationBytesPerMicroBatch - x) + x);

    // Weights, gradients and one micro-batch (9.33 GB) do not fit in 9 GB.
    plan = PlanOffload(f, 9000000000, true);
    EXPECT_FALSE(plan.feasible);
    EXPECT_NE(plan.reason.find("it needs 9.33 GB"), std::string::npos) << plan.reason;

    TransformerConfig c = Gpt3();
    c.hbmBytes = 40000000000;
    ExpectInputError([&] { GenerateTransformer(c); }, {"--hbm", "stage 0", "78.98 GB"});
    c.hbmBytes = 0;
    c.memoryExpansion = true;
    ExpectInputError([&] { c.Validate(); }, {"--memory-expansion", "--hbm"});
}

namespace
{

/** A small model: TP 1 × PP 2 × DP 1 or TP 1 × PP 1 × DP 2, 4 micro-batches. */
TransformerConfig
Small(uint32_t pp, uint32_t dp)
{
    TransformerConfig c;
    c.tp = 1;
    c.pp = pp;
    c.dp = dp;
    c.npus = pp * dp;
    c.layers = 2;
    c.hidden = 256;
    c.heads = 4;
    c.seq = 128;
    c.microBatch = 1;
    c.globalBatch = 4 * dp;
    c.vocab = 1024;
    c.precision = 2;
    return c;
}

/** Replay \p workload on a two-NPU ring with \p memory as remote memory JSON. */
ReplayResult
Replay(const GenWorkload& workload, const std::string& memory)
{
    ScratchDir dir;
    const std::string prefix = dir.File("w");
    workload.Write(prefix);
    ReplayRunConfig config = RunConfig(prefix,
                                       WriteNetwork(dir, "Ring", 2, 50, 500),
                                       WriteSystem(dir, "ring", 1),
                                       ReplayBackendKind::Analytical);
    config.commGroupPath = CommGroupFilePath(prefix);
    if (!memory.empty())
    {
        config.remoteMemoryPath = dir.File("memory.json");
        WriteText(config.remoteMemoryPath, memory);
    }
    ReplayResult result = RunReplay(config);
    EXPECT_TRUE(result.completed);
    return result;
}

/** \return the trace's memory nodes, in order: (store?, bytes) */
std::vector<std::pair<bool, uint64_t>>
MemoryNodes(const GenRankTrace& trace)
{
    std::vector<std::pair<bool, uint64_t>> out;
    for (const auto& n : trace.GetNodes())
    {
        if (n.type == EtNodeType::MEM_LOAD_NODE || n.type == EtNodeType::MEM_STORE_NODE)
        {
            out.emplace_back(n.type == EtNodeType::MEM_STORE_NODE, n.tensorSize);
        }
    }
    return out;
}

/** \return the duration of the trace's optimizer step, µs */
uint64_t
StepMicros(const GenRankTrace& trace)
{
    for (const auto& n : trace.GetNodes())
    {
        if (std::string(n.name).find("optimizer.step") != std::string::npos)
        {
            return n.durationMicros;
        }
    }
    ADD_FAILURE() << "no optimizer step";
    return 0;
}

} // namespace

// DP 2 with the optimizer state offloaded: each rank loads S bytes before its step and
// stores them after it. With per-NPU expansion memory that adds exactly 2·(latency +
// S / bandwidth) to each rank; with one pool the two ranks' accesses, issued together,
// queue: the later rank finishes 4 service times after the reductions instead of 2 plus
// its step.
TEST(MemoryExpansion, OptimizerOffloadCostsTheClosedForm)
{
    TransformerConfig c = Small(1, 2);
    const MemoryFootprint f = DeviceFootprint(c);
    const ReplayResult base = Replay(GenerateTransformer(c), "");

    c.hbmBytes = f.TotalBytes() - f.optimizerBytes / 2;
    c.memoryExpansion = true;
    const GenWorkload offloaded = GenerateTransformer(c);
    ExpectValidOnDisk(offloaded);
    const auto nodes = MemoryNodes(offloaded.ranks[0]);
    ASSERT_EQ(nodes.size(), 2u);
    EXPECT_EQ(nodes[0], std::make_pair(false, f.optimizerBytes));
    EXPECT_EQ(nodes[1], std::make_pair(true, f.optimizerBytes));

    // 1 µs + S / (2 B/ns): an access of several µs, longer than the step.
    const uint64_t serviceNs = 1000 + f.optimizerBytes / 2;
    ASSERT_GT(serviceNs, 1000 * StepMicros(offloaded.ranks[0]));
    const ReplayResult perNpu = Replay(offloaded,
                                       R"({"memory-type": "PER_NPU_MEMORY_EXPANSION",
                                           "remote-mem-latency": 1000, "remote-mem-bw": 2})");
    for (uint32_t r = 0; r < 2; ++r)
    {
        EXPECT_EQ(perNpu.ranks[r].finish - base.ranks[r].finish, NanoSeconds(2 * serviceNs));
        EXPECT_EQ(perNpu.ranks[r].memoryAccesses, 2u);
        EXPECT_EQ(perNpu.ranks[r].memory, NanoSeconds(2 * serviceNs));
    }

    const ReplayResult pool = Replay(offloaded,
                                     R"({"memory-type": "MEMORY_POOL",
                                         "remote-mem-latency": 1000, "remote-mem-bw": 2})");
    const Time step = MicroSeconds(StepMicros(offloaded.ranks[0]));
    const Time reduced = base.ranks[0].finish - step; // both ranks end their reductions together
    ASSERT_EQ(base.ranks[0].finish, base.ranks[1].finish);
    const Time last = std::max(pool.ranks[0].finish, pool.ranks[1].finish);
    const Time first = std::min(pool.ranks[0].finish, pool.ranks[1].finish);
    EXPECT_EQ(last, reduced + NanoSeconds(4 * serviceNs));
    EXPECT_EQ(first, reduced + NanoSeconds(3 * serviceNs));
}

// PP 2: stage 0 holds two micro-batches; with HBM short of one half micro-batch it
// stores x = ceil(excess / 1) bytes after each forward and loads them before each
// backward, in 1F1B order; stage 1 (one in flight) offloads at most its optimizer state.
TEST(MemoryExpansion, ActivationOffloadFollowsThePipeline)
{
    TransformerConfig c = Small(2, 1);
    const MemoryFootprint f0 = StageFootprint(c, 0);
    ASSERT_EQ(f0.inFlightMicroBatches, 2u);
    const uint64_t excess = f0.activationBytesPerMicroBatch / 2;
    c.hbmBytes = f0.TotalBytes() - f0.optimizerBytes - excess;
    const OffloadPlan stage1 = PlanOffload(StageFootprint(c, 1), c.hbmBytes, true);
    ASSERT_TRUE(stage1.feasible);
    EXPECT_EQ(stage1.activationOffloadPerMicroBatch, 0u);
    const uint32_t stage1Accesses = stage1.optimizerOffloadBytes > 0 ? 2 : 0;
    c.memoryExpansion = true;
    const GenWorkload w = GenerateTransformer(c);
    ExpectValidOnDisk(w);
    const auto nodes = MemoryNodes(w.ranks[0]);
    // Optimizer load and store plus one store and one load per micro-batch.
    ASSERT_EQ(nodes.size(), 2u + 2 * 4);
    uint32_t stores = 0;
    for (const auto& [store, bytes] : nodes)
    {
        if (bytes == excess)
        {
            stores += store ? 1 : 0;
        }
        else
        {
            EXPECT_EQ(bytes, f0.optimizerBytes);
        }
    }
    EXPECT_EQ(stores, 4u);
    EXPECT_EQ(MemoryNodes(w.ranks[1]).size(), stage1Accesses);

    const ReplayResult r = Replay(w,
                                  R"({"memory-type": "PER_NPU_MEMORY_EXPANSION",
                                      "remote-mem-latency": 100, "remote-mem-bw": 1000})");
    EXPECT_EQ(r.ranks[0].memoryAccesses, 10u);
    EXPECT_EQ(r.ranks[1].memoryAccesses, stage1Accesses);
    const ReplayResult base = Replay(GenerateTransformer(Small(2, 1)), "");
    EXPECT_GT(r.ranks[0].finish, base.ranks[0].finish);
}

namespace
{

/** A node's span in a replay, ns: from its issue to its end. */
struct Span
{
    int64_t start{0}; //!< issued
    int64_t end{0};   //!< finished
};

/** (rank, node name) → span */
using Spans = std::map<std::pair<uint32_t, std::string>, Span>;

/**
 * Replay \p workload on the analytical network with \p memory as remote memory and read
 * every node's span from the timeline.
 */
Spans
ReplaySpans(const GenWorkload& workload, const std::string& memory, Time* finish = nullptr)
{
    ScratchDir dir;
    const std::string prefix = dir.File("w");
    workload.Write(prefix);
    ReplayRunConfig config = RunConfig(prefix,
                                       WriteNetwork(dir, "Ring", 2, 50, 500),
                                       WriteSystem(dir, "ring", 1),
                                       ReplayBackendKind::Analytical);
    config.commGroupPath = CommGroupFilePath(prefix);
    config.remoteMemoryPath = dir.File("memory.json");
    WriteText(config.remoteMemoryPath, memory);
    config.timelinePath = dir.File("timeline.json");
    const ReplayResult result = RunReplay(config);
    EXPECT_TRUE(result.completed);
    if (finish)
    {
        *finish = std::max(result.ranks[0].finish, result.ranks[1].finish);
    }
    std::ifstream in(config.timelinePath);
    const auto doc = nlohmann::json::parse(in);
    const auto& events = doc.is_array() ? doc : doc.at("traceEvents");
    Spans spans;
    for (const auto& e : events)
    {
        if (e.value("ph", "") != "X" || e.value("pid", -1) != 0)
        {
            continue;
        }
        const int64_t start = std::llround(e.at("ts").get<double>() * 1000);
        const int64_t end = start + std::llround(e.at("dur").get<double>() * 1000);
        const auto rank = static_cast<uint32_t>(e.at("tid").get<int64_t>() >> 8);
        spans[{rank, e.at("name").get<std::string>()}] = {start, end};
    }
    return spans;
}

/** \return the span of \p name on \p rank (a failure if absent) */
Span
At(const Spans& spans, uint32_t rank, const std::string& name)
{
    const auto it = spans.find({rank, name});
    if (it == spans.end())
    {
        ADD_FAILURE() << "no node " << name << " on rank " << rank;
        return {};
    }
    return it->second;
}

/**
 * TP 1 × PP 2 × DP 1, 6 layers (3 per stage), 4 micro-batches: stage 0 holds two in
 * flight; HBM short of its optimizer state and half a micro-batch's activations, so it
 * offloads both.
 */
TransformerConfig
Offloading(OffloadOverlap overlap)
{
    TransformerConfig c = Small(2, 1);
    c.layers = 6;
    const MemoryFootprint f0 = StageFootprint(c, 0);
    c.hbmBytes = f0.TotalBytes() - f0.optimizerBytes - f0.activationBytesPerMicroBatch / 2;
    c.memoryExpansion = true;
    c.offloadOverlap = overlap;
    return c;
}

/** \return a remote-memory JSON of \p type with latency 1 µs and \p bw B/ns */
std::string
Memory(const std::string& type, double bw)
{
    return R"({"memory-type": ")" + type + R"(", "remote-mem-latency": 1000, "remote-mem-bw": )" +
           std::to_string(bw) + "}";
}

/** \return latency 1 µs + bytes / bw, truncated to whole ns as the model does */
int64_t
ServiceNs(uint64_t bytes, double bw)
{
    return 1000 + static_cast<int64_t>(static_cast<double>(bytes) / bw);
}

} // namespace

// Serial activation offload: after each forward, stage 0 stores x bytes off the stream;
// each backward issues the load of x when the stream reaches it (and the store is done)
// and waits for it. Per NPU every access takes latency + size / bandwidth from its issue;
// in one pool the accesses of both ranks are served one at a time in issue order, so an
// access ends at max(its issue, the previous end) + its service time.
TEST(MemoryExpansion, SerialActivationOffloadCostsTheClosedForm)
{
    const TransformerConfig c = Offloading(OffloadOverlap::SERIAL);
    const OffloadPlan plan = PlanOffload(StageFootprint(c, 0), c.hbmBytes, true);
    ASSERT_TRUE(plan.feasible);
    const uint64_t x = plan.activationOffloadPerMicroBatch;
    ASSERT_GT(x, 0u);
    const GenWorkload w = GenerateTransformer(c);
    ExpectValidOnDisk(w);
    const double bw = 1.0; // B/ns: loads of tens of µs, longer than any layer's compute
    for (const std::string type : {"PER_NPU_MEMORY_EXPANSION", "MEMORY_POOL"})
    {
        SCOPED_TRACE(type);
        const Spans spans = ReplaySpans(w, Memory(type, bw));
        std::vector<std::pair<Span, uint64_t>> accesses; // (span, bytes), both ranks
        for (uint32_t m = 0; m < 4; ++m)
        {
            const std::string mb = "i0.mb" + std::to_string(m) + ".";
            const Span store = At(spans, 0, mb + "act.offload.store");
            const Span load = At(spans, 0, mb + "act.offload.load");
            const Span forwardEnd = At(spans, 0, mb + "layer2.mlp.fwd");
            const Span backward = At(spans, 0, mb + "layer2.mlp.bwd");
            EXPECT_EQ(store.start, forwardEnd.end);
            EXPECT_GE(load.start, store.end);
            // The backward's first compute waits for the load, and for nothing longer.
            EXPECT_EQ(backward.start, load.end);
            accesses.push_back({store, x});
            accesses.push_back({load, x});
        }
        for (uint32_t r = 0; r < 2; ++r)
        {
            for (const std::string op : {"load", "store"})
            {
                const auto it = spans.find({r, "i0.optimizer." + op});
                if (it != spans.end())
                {
                    accesses.push_back({it->second,
                                        PlanOffload(StageFootprint(c, r), c.hbmBytes, true)
                                            .optimizerOffloadBytes});
                }
            }
        }
        ASSERT_GE(accesses.size(), 10u);
        // Issue order; of accesses issued at once, the one served first ends first.
        std::sort(accesses.begin(),
                  accesses.end(),
                  [](const auto& a, const auto& b)
                  {
                      return std::make_pair(a.first.start, a.first.end) <
                             std::make_pair(b.first.start, b.first.end);
                  });
        int64_t free = 0; // the pool's
        for (const auto& [span, bytes] : accesses)
        {
            const int64_t begin = type == "MEMORY_POOL" ? std::max(span.start, free) : span.start;
            EXPECT_EQ(span.end, begin + ServiceNs(bytes, bw)) << "access issued at " << span.start;
            free = span.end;
        }
    }
}

// Prefetch: per layer, the load of the layer below is issued when a layer's backward
// begins (after the previous load: one load at a time per NPU), so that layer l
// (below l + 1) begins max(B, s) after layer l + 1 did, with B the backward compute of
// layer l + 1 and s the service time of layer l's share. Two bandwidths: transfer
// shorter than compute (hidden, the backward as without offload) and longer (the
// transfer paces the backward).
TEST(MemoryExpansion, PrefetchOverlapsEachLayersLoadWithTheLayerAbove)
{
    const TransformerConfig c = Offloading(OffloadOverlap::PREFETCH);
    const uint64_t x =
        PlanOffload(StageFootprint(c, 0), c.hbmBytes, true).activationOffloadPerMicroBatch;
    const GenWorkload w = GenerateTransformer(c);
    ExpectValidOnDisk(w);
    // Per micro-batch: one store and one load per layer, their shares adding up to x.
    std::map<std::string, uint64_t> shares;
    uint64_t stored = 0;
    for (const auto& n : w.ranks[0].GetNodes())
    {
        const std::string name(n.name);
        if (name.rfind("i0.mb0.", 0) == 0 && name.find(".act.offload.") != std::string::npos)
        {
            shares[name] = n.tensorSize;
            stored += n.type == EtNodeType::MEM_STORE_NODE ? n.tensorSize : 0;
        }
    }
    EXPECT_EQ(shares.size(), 6u);
    EXPECT_EQ(stored, x);
    EXPECT_EQ(shares.at("i0.mb0.layer0.act.offload.load"), (x + 2) / 3);

    Time slow;
    Time fast;
    for (const double bw : {1.0, 1000.0})
    {
        SCOPED_TRACE(bw);
        const Spans spans =
            ReplaySpans(w, Memory("PER_NPU_MEMORY_EXPANSION", bw), bw < 10 ? &slow : &fast);
        uint32_t hidden = 0;
        uint32_t exposed = 0;
        for (uint32_t m = 0; m < 4; ++m)
        {
            const std::string mb = "i0.mb" + std::to_string(m) + ".";
            for (uint32_t l = 0; l < 2; ++l)
            {
                const std::string above = mb + "layer" + std::to_string(l + 1);
                const std::string below = mb + "layer" + std::to_string(l);
                const Span aboveStart = At(spans, 0, above + ".mlp.bwd");
                const Span aboveEnd = At(spans, 0, above + ".attn.bwd");
                const Span load = At(spans, 0, below + ".act.offload.load");
                const Span store = At(spans, 0, below + ".act.offload.store");
                ASSERT_LE(store.end, aboveStart.start);
                EXPECT_EQ(load.start, aboveStart.start);
                const int64_t compute = aboveEnd.end - aboveStart.start;
                const int64_t transfer =
                    ServiceNs(shares.at("i0.mb0." + std::string("layer") + std::to_string(l) +
                                        ".act.offload.load"),
                              bw);
                EXPECT_EQ(load.end - load.start, transfer);
                EXPECT_EQ(At(spans, 0, below + ".mlp.bwd").start - aboveStart.start,
                          std::max(compute, transfer))
                    << below;
                (transfer > compute ? exposed : hidden) += 1;
            }
        }
        // Each regime is the one it is meant to be, for every layer.
        EXPECT_EQ(bw < 10 ? exposed : hidden, 8u);
    }
    EXPECT_GT(slow, fast);

    // With the transfer hidden, prefetch beats the serial form, whose backward waits for
    // the whole micro-batch's load.
    Time serial;
    ReplaySpans(GenerateTransformer(Offloading(OffloadOverlap::SERIAL)),
                Memory("PER_NPU_MEMORY_EXPANSION", 1000.0),
                &serial);
    EXPECT_LT(fast, serial);
}

TEST(MemoryExpansion, OffloadOverlapInputErrors)
{
    ExpectInputError([] { ParseOffloadOverlap("eager"); }, {"--offload-overlap", "'eager'"});
    TransformerConfig c = Small(2, 1);
    c.offloadOverlap = OffloadOverlap::PREFETCH;
    ExpectInputError([&] { c.Validate(); }, {"--offload-overlap", "--memory-expansion"});
}
