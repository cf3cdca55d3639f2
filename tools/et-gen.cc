/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Write a synthetic Chakra workload: per-rank <prefix>.<rank>.et files and the
// communicator groups, <prefix>.comm-groups.json.
//
//   ./mlfabric gen microbench --npus=8 --collective=all_reduce --size=1MiB --out=ar
//   ./mlfabric gen transformer --npus=8 --tp=2 --pp=2 --dp=2 --layers=4 --hidden=1024 \
//       --seq=512 --micro-batch=1 --global-batch=8 --out=gpt
//   ./mlfabric gen dlrm --npus=8 --out=dlrm
//   ./mlfabric gen resnet50 --npus=16 --out=resnet
//
// `./mlfabric gen <kind> --help` lists a kind's parameters; doc/workloads.md explains them.

#include "ns3/dlrm-generator.h"
#include "ns3/example-cli.h"
#include "ns3/gen-names.h"
#include "ns3/input-error.h"
#include "ns3/memory-footprint.h"
#include "ns3/microbench-generator.h"
#include "ns3/resnet50-generator.h"
#include "ns3/summary.h"
#include "ns3/transformer-generator.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>

using namespace ns3;

namespace
{

constexpr uint64_t kMaxU32 = std::numeric_limits<uint32_t>::max();
constexpr uint64_t kMaxU64 = std::numeric_limits<uint64_t>::max();
const char* const kKinds = "microbench, transformer, dlrm, resnet50";

/** Declare the accelerator options every model kind shares. */
void
AddDeviceOptions(ExampleCli& cli)
{
    cli.Add("peak-tflops", "dense peak of one accelerator, TFLOP/s", "312");
    cli.Add("efficiency", "fraction of the peak that kernels reach, (0, 1]", "0.5");
    cli.Add("mem-bw", "memory bandwidth of one accelerator (e.g. 2039GBps)", "2039GBps");
}

/** \return the accelerator from the shared options */
DeviceModel
DeviceFrom(const ExampleCli& cli)
{
    DeviceModel device;
    device.peakTflops = cli.GetDouble("peak-tflops", 0, 1e9);
    device.efficiency = cli.GetDouble("efficiency", 0, 1);
    device.memoryGBps = static_cast<double>(cli.GetRateBps("mem-bw")) / 8e9;
    return device;
}

void
AddMicrobenchOptions(ExampleCli& cli)
{
    cli.Add("npus", "ranks", "8");
    cli.Add("collective",
            "all_reduce, reduce, all_gather, gather, scatter, broadcast, all_to_all, "
            "reduce_scatter, reduce_scatter_block or barrier",
            "all_reduce");
    cli.Add("size", "comm_size of each collective (a barrier has none)", "1MiB");
    cli.Add("group-size", "ranks per communicator group; 0 = all ranks", "0");
    cli.Add("group-stride", "rank distance between the members of a group", "1");
    cli.Add("involved-dims", "involved_dim list, e.g. 1,0 (empty: not written)", "");
    cli.Add("repeat", "collectives per rank, one after another", "1");
    cli.Add("compute-us", "compute between two collectives, microseconds; 0 = none", "0");
}

GenWorkload
GenerateMicrobenchFrom(const ExampleCli& cli)
{
    MicrobenchConfig config;
    config.npus = cli.GetUint("npus", 0, kMaxU32);
    config.collective = ParseCollectiveName(cli.Get("collective"), "--collective");
    const bool barrier = config.collective == EtCollectiveType::BARRIER;
    config.bytes = barrier && !cli.IsSet("size") ? 0 : cli.GetBytes("size");
    config.groupSize = cli.GetUint("group-size", 0, kMaxU32);
    config.groupStride = cli.GetUint("group-stride", 0, kMaxU32);
    if (!cli.Get("involved-dims").empty())
    {
        for (uint64_t flag : ParseUintList(cli.Get("involved-dims"), "--involved-dims"))
        {
            if (flag > 1)
            {
                throw InputError("--involved-dims: each entry must be 0 or 1 (got '" +
                                 cli.Get("involved-dims") + "')");
            }
            config.involvedDims.push_back(flag == 1);
        }
    }
    config.repeat = cli.GetUint("repeat", 0, kMaxU32);
    config.computeMicros = cli.GetUint("compute-us", 0, kMaxU64);
    return GenerateMicrobench(config);
}

void
AddTransformerOptions(ExampleCli& cli)
{
    cli.Add("npus", "ranks, = tp × pp × dp", "8");
    cli.Add("tp", "tensor-parallel degree (innermost ranks)", "2");
    cli.Add("pp", "pipeline stages", "2");
    cli.Add("dp", "data-parallel degree", "2");
    cli.Add("ep", "expert-parallel degree, divides dp (needs --experts)", "1");
    cli.Add("layers", "transformer layers, divisible by pp", "4");
    cli.Add("hidden", "hidden size", "1024");
    cli.Add("ffn", "feed-forward size; 0 = 4 × hidden", "0");
    cli.Add("heads", "attention heads", "16");
    cli.Add("seq", "sequence length", "512");
    cli.Add("micro-batch", "sequences per micro-batch", "1");
    cli.Add("global-batch", "sequences per iteration over all replicas", "8");
    cli.Add("vocab", "vocabulary size, divisible by tp", "51200");
    cli.Add("precision", "fp32, tf32, bf16, fp16 or fp8", "bf16");
    cli.Add("experts", "experts per MoE layer; 0 = dense model", "0");
    cli.Add("top-k", "experts each token is routed to", "2");
    cli.Add("sequence-parallel", "TP reduce-scatter / all-gather instead of all-reduce", "0");
    cli.Add("sharding", "data-parallel scheme: none, zero or fsdp", "none");
    cli.Add("bucket-size", "gradient bucket capacity", "25MiB");
    cli.Add("iterations", "training iterations", "1");
    cli.Add("recompute", "activation recomputation: none, selective or full", "none");
    cli.Add("hbm", "device memory capacity (e.g. 80GB); empty: the fit is not checked", "");
    cli.Add("memory-expansion",
            "offload what does not fit in --hbm to remote memory (MEM_LOAD/MEM_STORE nodes; "
            "replay with --remote-memory)",
            "0");
    cli.Add("offload-overlap",
            "how offloaded activations move: serial (one store per micro-batch, its backward "
            "waits for the load) or prefetch (per layer, loaded during the backward of the "
            "layer above)",
            "serial");
    AddDeviceOptions(cli);
}

TransformerConfig
TransformerConfigFrom(const ExampleCli& cli)
{
    TransformerConfig config;
    config.npus = cli.GetUint("npus", 0, kMaxU32);
    config.tp = cli.GetUint("tp", 0, kMaxU32);
    config.pp = cli.GetUint("pp", 0, kMaxU32);
    config.dp = cli.GetUint("dp", 0, kMaxU32);
    config.ep = cli.GetUint("ep", 0, kMaxU32);
    config.layers = cli.GetUint("layers", 0, kMaxU32);
    config.hidden = cli.GetUint("hidden", 0, kMaxU64);
    config.ffn = cli.GetUint("ffn", 0, kMaxU64);
    config.heads = cli.GetUint("heads", 0, kMaxU64);
    config.seq = cli.GetUint("seq", 0, kMaxU64);
    config.microBatch = cli.GetUint("micro-batch", 0, kMaxU64);
    config.globalBatch = cli.GetUint("global-batch", 0, kMaxU64);
    config.vocab = cli.GetUint("vocab", 0, kMaxU64);
    config.precision = ParsePrecision(cli.Get("precision"), "--precision");
    config.experts = cli.GetUint("experts", 0, kMaxU32);
    config.topK = cli.GetUint("top-k", 0, kMaxU32);
    config.sequenceParallel = cli.GetBool("sequence-parallel");
    config.sharding = ParseDpSharding(cli.Get("sharding"));
    config.bucketBytes = cli.GetBytes("bucket-size");
    config.iterations = cli.GetUint("iterations", 0, kMaxU32);
    config.recompute = ParseRecompute(cli.Get("recompute"));
    if (!cli.Get("hbm").empty())
    {
        config.hbmBytes = cli.GetBytes("hbm");
        if (config.hbmBytes == 0)
        {
            throw InputError("--hbm: must be above 0 B (leave it out not to check the fit)");
        }
    }
    config.memoryExpansion = cli.GetBool("memory-expansion");
    config.offloadOverlap = ParseOffloadOverlap(cli.Get("offload-overlap"));
    config.device = DeviceFrom(cli);
    config.Validate();
    return config;
}

/**
 * Print the memory a device needs and what it offloads.
 * \return the same figures, the summary's `footprint`
 */
nlohmann::json
ReportFootprint(const TransformerConfig& config)
{
    const MemoryFootprint f = DeviceFootprint(config);
    const OffloadPlan plan = PlanOffload(f, config.hbmBytes, config.memoryExpansion);
    std::printf("memory per device (stage %u, %u micro-batch%s in flight, recompute %s, "
                "sharding %s)\n",
                f.stage,
                f.inFlightMicroBatches,
                f.inFlightMicroBatches == 1 ? "" : "es",
                ToString(config.recompute).c_str(),
                ToString(config.sharding).c_str());
    for (const auto& [name, bytes] : std::initializer_list<std::pair<const char*, uint64_t>>{
             {"weights", f.weightsBytes},
             {"gradients", f.gradientsBytes},
             {"optimizer state", f.optimizerBytes},
             {"activations", f.activationsBytes},
             {"total", f.TotalBytes()}})
    {
        std::printf("  %-22s %12s\n", name, FormatGigabytes(bytes).c_str());
    }
    if (config.hbmBytes == 0)
    {
        std::printf("  %-22s %12s\n", "hbm", "not given: fit not checked");
    }
    else
    {
        std::printf("  %-22s %12s  %s\n",
                    "hbm",
                    FormatGigabytes(config.hbmBytes).c_str(),
                    plan.fits ? "fits"
                              : (plan.feasible ? "fits with memory expansion" : "does not fit"));
    }
    if (!plan.fits && plan.feasible)
    {
        std::printf("  offloaded: optimizer state %s (loaded before the step, stored after "
                    "it), activations %s per micro-batch (%s); resident %s\n",
                    FormatGigabytes(plan.optimizerOffloadBytes).c_str(),
                    FormatGigabytes(plan.activationOffloadPerMicroBatch).c_str(),
                    config.offloadOverlap == OffloadOverlap::PREFETCH
                        ? "per layer, prefetched during the backward of the layer above"
                        : "serial: each backward waits for its load",
                    FormatGigabytes(plan.residentBytes).c_str());
    }
    nlohmann::json j = {{"stage", f.stage},
                        {"parameters", f.parameters},
                        {"weights_bytes", f.weightsBytes},
                        {"gradients_bytes", f.gradientsBytes},
                        {"optimizer_bytes", f.optimizerBytes},
                        {"activations_bytes", f.activationsBytes},
                        {"activation_bytes_per_micro_batch", f.activationBytesPerMicroBatch},
                        {"in_flight_micro_batches", f.inFlightMicroBatches},
                        {"total_bytes", f.TotalBytes()},
                        {"hbm_bytes", config.hbmBytes},
                        {"recompute", ToString(config.recompute)},
                        {"sharding", ToString(config.sharding)},
                        {"fits", plan.fits},
                        {"feasible", plan.feasible},
                        {"memory_expansion", config.memoryExpansion},
                        {"offload_overlap", ToString(config.offloadOverlap)},
                        {"resident_bytes", plan.residentBytes}};
    j["offloaded"] = {{"optimizer_bytes", plan.optimizerOffloadBytes},
                      {"activation_bytes_per_micro_batch", plan.activationOffloadPerMicroBatch}};
    if (!plan.feasible)
    {
        j["reason"] = plan.reason;
    }
    return j;
}

void
AddDlrmOptions(ExampleCli& cli)
{
    cli.Add("npus", "ranks", "8");
    cli.Add("batch", "samples per rank per iteration", "128");
    cli.Add("dense-features", "dense inputs of the bottom MLP", "13");
    cli.Add("tables", "embedding tables, a multiple of npus", "64");
    cli.Add("embedding-dim", "embedding dimension", "64");
    cli.Add("pooling", "lookups per table per sample", "1");
    cli.Add("bottom-mlp", "bottom MLP widths, the last = embedding-dim", "512,256,64");
    cli.Add("top-mlp", "top MLP widths", "512,256,1");
    cli.Add("precision", "fp32, tf32, bf16, fp16 or fp8", "fp32");
    cli.Add("iterations", "training iterations", "1");
    AddDeviceOptions(cli);
}

GenWorkload
GenerateDlrmFrom(const ExampleCli& cli)
{
    DlrmConfig config;
    config.npus = cli.GetUint("npus", 0, kMaxU32);
    config.batch = cli.GetUint("batch", 0, kMaxU64);
    config.denseFeatures = cli.GetUint("dense-features", 0, kMaxU64);
    config.tables = cli.GetUint("tables", 0, kMaxU32);
    config.embeddingDim = cli.GetUint("embedding-dim", 0, kMaxU64);
    config.pooling = cli.GetUint("pooling", 0, kMaxU32);
    config.bottomMlp = ParseUintList(cli.Get("bottom-mlp"), "--bottom-mlp");
    config.topMlp = ParseUintList(cli.Get("top-mlp"), "--top-mlp");
    config.precision = ParsePrecision(cli.Get("precision"), "--precision");
    config.iterations = cli.GetUint("iterations", 0, kMaxU32);
    config.device = DeviceFrom(cli);
    return GenerateDlrm(config);
}

void
AddResNet50Options(ExampleCli& cli)
{
    cli.Add("npus", "data-parallel ranks", "8");
    cli.Add("batch", "images per rank per iteration", "32");
    cli.Add("precision", "fp32, tf32, bf16, fp16 or fp8", "fp32");
    cli.Add("iterations", "training iterations", "1");
    AddDeviceOptions(cli);
}

GenWorkload
GenerateResNet50From(const ExampleCli& cli)
{
    ResNet50Config config;
    config.npus = cli.GetUint("npus", 0, kMaxU32);
    config.batch = cli.GetUint("batch", 0, kMaxU64);
    config.precision = ParsePrecision(cli.Get("precision"), "--precision");
    config.iterations = cli.GetUint("iterations", 0, kMaxU32);
    config.device = DeviceFrom(cli);
    return GenerateResNet50(config);
}

/** Totals over every rank, for the report. */
struct Totals
{
    uint64_t nodes{0};           //!< nodes
    uint64_t compute{0};         //!< COMP nodes
    uint64_t collectives{0};     //!< COMM_COLL nodes
    uint64_t collectiveBytes{0}; //!< their comm_size
    uint64_t sends{0};           //!< COMM_SEND nodes
    uint64_t sendBytes{0};       //!< their comm_size
    uint64_t memory{0};          //!< MEM_LOAD and MEM_STORE nodes
    uint64_t memoryBytes{0};     //!< their tensor_size
};

Totals
Count(const GenWorkload& workload)
{
    Totals t;
    for (const auto& rank : workload.ranks)
    {
        for (const auto& node : rank.GetNodes())
        {
            ++t.nodes;
            if (node.type == EtNodeType::COMP_NODE)
            {
                ++t.compute;
            }
            else if (node.type == EtNodeType::COMM_COLL_NODE)
            {
                ++t.collectives;
                t.collectiveBytes += node.commSize;
            }
            else if (node.type == EtNodeType::MEM_LOAD_NODE ||
                     node.type == EtNodeType::MEM_STORE_NODE)
            {
                ++t.memory;
                t.memoryBytes += node.tensorSize;
            }
            else if (node.type == EtNodeType::COMM_SEND_NODE)
            {
                ++t.sends;
                t.sendBytes += node.commSize;
            }
        }
    }
    return t;
}

int
Run(int argc, char** argv)
{
    const std::string kind = argc > 1 ? argv[1] : "";
    if (kind.empty() || kind == "--help" || kind == "-h")
    {
        std::printf("usage: et-gen <kind> --out=PREFIX [--name=value ...]\n"
                    "kinds: %s; et-gen <kind> --help lists its parameters\n",
                    kKinds);
        if (kind.empty())
        {
            throw InputError(std::string("missing the workload kind (") + kKinds + ")");
        }
        return 0;
    }
    ExampleCli cli("Write a synthetic " + kind + " Chakra workload");
    GenWorkload (*generate)(const ExampleCli&) = nullptr;
    if (kind == "microbench")
    {
        AddMicrobenchOptions(cli);
        generate = GenerateMicrobenchFrom;
    }
    else if (kind == "transformer")
    {
        AddTransformerOptions(cli);
    }
    else if (kind == "dlrm")
    {
        AddDlrmOptions(cli);
        generate = GenerateDlrmFrom;
    }
    else if (kind == "resnet50")
    {
        AddResNet50Options(cli);
        generate = GenerateResNet50From;
    }
    else
    {
        throw InputError("unknown workload kind '" + kind + "' (use " + kKinds + ")");
    }
    cli.Add("out", "workload prefix: writes <out>.<rank>.et and <out>.comm-groups.json", "");
    cli.Add("summary", "also write the figures below as JSON to this file", "");
    cli.Parse(argc - 1, argv + 1);

    const std::string prefix = cli.Get("out");
    if (prefix.empty())
    {
        throw InputError("--out: required, the workload prefix (e.g. --out=traces/gpt/gpt)");
    }
    const auto folder = std::filesystem::path(prefix).parent_path();
    if (!folder.empty() && !std::filesystem::is_directory(folder))
    {
        throw InputError("--out: folder '" + folder.string() + "' does not exist");
    }
    nlohmann::json footprint;
    std::optional<GenWorkload> generated;
    if (kind == "transformer")
    {
        const TransformerConfig config = TransformerConfigFrom(cli);
        footprint = ReportFootprint(config);
        if (!footprint["feasible"].get<bool>())
        {
            // The figures say why; no trace is written.
            WriteSummary(cli.Get("summary"),
                         {{"kind", kind}, {"prefix", prefix}, {"footprint", footprint}});
        }
        generated.emplace(GenerateTransformer(config));
    }
    else
    {
        generated.emplace(generate(cli));
    }
    const GenWorkload& workload = *generated;
    const uint32_t deleted = workload.Write(prefix);

    const Totals t = Count(workload);
    const size_t groupCount = workload.groups.GetGroups().size();
    std::printf("%s: %zu ranks, %zu communicator group%s\n",
                kind.c_str(),
                workload.ranks.size(),
                groupCount,
                groupCount == 1 ? "" : "s");
    std::printf("  %s\n", workload.DescribeParameters().c_str());
    std::printf("wrote %s.{0..%zu}.et and %s\n",
                prefix.c_str(),
                workload.ranks.size() - 1,
                CommGroupFilePath(prefix).c_str());
    if (deleted > 0)
    {
        std::printf("deleted %u rank file%s of an earlier, larger workload with this prefix\n",
                    deleted,
                    deleted == 1 ? "" : "s");
    }
    std::printf("%-24s %16s %20s\n", "all ranks", "nodes", "bytes");
    std::printf("%-24s %16llu\n", "compute", static_cast<unsigned long long>(t.compute));
    std::printf("%-24s %16llu %20llu\n",
                "collectives",
                static_cast<unsigned long long>(t.collectives),
                static_cast<unsigned long long>(t.collectiveBytes));
    std::printf("%-24s %16llu %20llu\n",
                "sends",
                static_cast<unsigned long long>(t.sends),
                static_cast<unsigned long long>(t.sendBytes));
    if (t.memory > 0)
    {
        std::printf("%-24s %16llu %20llu\n",
                    "remote memory accesses",
                    static_cast<unsigned long long>(t.memory),
                    static_cast<unsigned long long>(t.memoryBytes));
    }
    std::printf("%-24s %16llu\n", "total", static_cast<unsigned long long>(t.nodes));
    std::printf("inspect with: ./mlfabric et-info %s\n", prefix.c_str());

    nlohmann::json summary = {{"kind", kind},
                              {"prefix", prefix},
                              {"parameters", workload.DescribeParameters()},
                              {"ranks", workload.ranks.size()},
                              {"groups", workload.groups.GetGroups().size()},
                              {"nodes", t.nodes},
                              {"compute_nodes", t.compute},
                              {"collectives", t.collectives},
                              {"collective_bytes", t.collectiveBytes},
                              {"sends", t.sends},
                              {"send_bytes", t.sendBytes},
                              {"memory_accesses", t.memory},
                              {"memory_bytes", t.memoryBytes}};
    if (!footprint.is_null())
    {
        summary["footprint"] = footprint;
    }
    WriteSummary(cli.Get("summary"), summary);
    return 0;
}

} // namespace

int
main(int argc, char** argv)
{
    return RunMain([&] { return Run(argc, argv); });
}
