/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The nccl implementation choice end to end: a small and a large all-reduce of the same
// world get different algorithms, as NCCL's tuner model picks them, and the run header and
// the summary say which ran; on one scale-up switch the choice is nvls; a ring across
// nodes runs a channel per NIC.

#include "program-run.h"
#include "replay-test-support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

/** A microbenchmark all-reduce of \p size on \p npus NPUs. \return its prefix */
std::string
Generate(const ettest::ScratchDir& dir, const std::string& size, uint32_t npus = 4)
{
    const std::string prefix = dir.File("ar" + std::to_string(npus) + "-" + size);
    const ProgramRun run = RunProgram(
        std::string(MLFABRIC_TOOLS_DIR) + "/et-gen microbench --npus=" + std::to_string(npus) +
        " --collective=all_reduce --size=" + size + " --out=" + prefix);
    EXPECT_EQ(run.status, 0) << run.output;
    return prefix;
}

/** One switch of 4 NPUs at 400 Gb/s (50 GB/s per NPU); scale-up or not. */
std::string
FourNpuSwitch(const ettest::ScratchDir& dir, bool scaleUp)
{
    const std::string path = dir.File(scaleUp ? "su4.yml" : "sw4.yml");
    WriteText(path,
              std::string("name: four\ndimensions:\n  - {topology: Switch, npus: 4, rate: 400Gbps, "
                          "latency: 500ns") +
                  (scaleUp ? ", scale_up: true" : "") + "}\n");
    return path;
}

std::string
System(const ettest::ScratchDir& dir)
{
    const std::string path = dir.File("nccl.json");
    WriteText(path,
              R"({"endpoint-delay": 10, "preferred-dataset-splits": 1,
                  "collective-optimization": "baseline",
                  "all-reduce-implementation": ["nccl"],
                  "reduce-scatter-implementation": ["nccl"],
                  "all-gather-implementation": ["nccl"],
                  "all-to-all-implementation": ["direct"]})");
    return path;
}

/** Replay and return the algorithm of its one all-reduce from the summary. */
std::string
AllReduceAlgorithm(const ettest::ScratchDir& dir,
                   const std::string& workload,
                   const std::string& fabric,
                   std::string& output)
{
    const std::string summary = dir.File("s.json");
    const ProgramRun run = RunProgram(std::string(MLFABRIC_EXAMPLES_DIR) +
                                      "/chakra-replay --progress=0 --backend=analytical "
                                      "--workload=" +
                                      workload + " --fabric=" + fabric +
                                      " --system=" + System(dir) + " --summary=" + summary);
    EXPECT_EQ(run.status, 0) << run.output;
    output = run.output;
    std::ifstream in(summary);
    const auto json = nlohmann::json::parse(in);
    EXPECT_EQ(json["collectives"].size(), 1U);
    return json["collectives"].at(0)["algorithm"];
}

/** The algorithm and time of a replay's one all-reduce. */
struct AllReduceRun
{
    std::string algorithm; //!< as the summary names it
    double us{0};          //!< its time, from the first issue to the last finish
};

/**
 * Replay \p workload (8 NPUs) on two servers of four GPUs on rails, by \p routing, with
 * the given all-reduce implementation, \p options added to the command and \p systemKeys
 * to the system JSON.
 */
AllReduceRun
RunOnRails(const ettest::ScratchDir& dir,
           const std::string& workload,
           const std::string& implementation,
           const std::string& backend,
           const std::string& routing,
           const std::string& options = "",
           const std::string& systemKeys = "")
{
    const std::string fabric = dir.File(routing + ".yml");
    WriteText(fabric,
              "name: rail-2x4\ndimensions:\n  - {name: scale-up, topology: Switch, npus: 4, "
              "rate: 3600Gbps, latency: 25ns, scale_up: true}\nrouting: " +
                  routing +
                  "\nscale_out:\n  topology: rail\n  servers: 2\n  spines: 2\n  nic_link: "
                  "{rate: 400Gbps, latency: 500ns}\n  spine_link: {rate: 400Gbps, latency: "
                  "500ns}\n");
    const std::string system = dir.File(implementation + ".json");
    WriteText(system,
              R"({"endpoint-delay": 10, "preferred-dataset-splits": 1,
                  "collective-optimization": "baseline", "all-to-all-implementation": ["direct"],
                  "all-reduce-implementation": [")" +
                  implementation + R"("])" + systemKeys + "}");
    const std::string summary = dir.File("rails.json");
    const ProgramRun run = RunProgram(
        std::string(MLFABRIC_EXAMPLES_DIR) + "/chakra-replay --progress=0 --backend=" + backend +
        " --workload=" + workload + " --fabric=" + fabric + " --system=" + system +
        " --summary=" + summary + " " + options);
    EXPECT_EQ(run.status, 0) << run.output;
    std::ifstream in(summary);
    const auto json = nlohmann::json::parse(in);
    const auto& c = json["collectives"].at(0);
    return {c["algorithm"], (c["end_ns"].get<double>() - c["start_ns"].get<double>()) / 1e3};
}

} // namespace

TEST(ReplayNcclChoice, SmallAllReduceRunsTreeLargeRunsRing)
{
    // Four ranks, one per node, 50 GB/s: NCCL's model puts the tree (64.4 us, 23 GB/s
    // times its size correction) ahead below about 1.14 MB and the ring (92.4 x 1.4 us,
    // 50 x 4/6 GB/s) ahead above (test/collective-nccl-tuner-test.cc has the closed form).
    ettest::ScratchDir dir;
    const std::string fabric = FourNpuSwitch(dir, false);
    std::string output;
    EXPECT_EQ(AllReduceAlgorithm(dir, Generate(dir, "64KiB"), fabric, output), "doubleBinaryTree");
    EXPECT_NE(output.find("world: nccl for ALL_REDUCE on 4 ranks in 4 node(s): tree below 2 MiB, "
                          "ring from 2 MiB"),
              std::string::npos)
        << output;
    EXPECT_NE(output.find("system:  "), std::string::npos);
    EXPECT_NE(output.find("all-reduce [nccl]"), std::string::npos) << output;
    EXPECT_EQ(AllReduceAlgorithm(dir, Generate(dir, "64MiB"), fabric, output), "oneRing");
}

TEST(ReplayNcclChoice, OneScaleUpSwitchRunsNvls)
{
    ettest::ScratchDir dir;
    std::string output;
    EXPECT_EQ(AllReduceAlgorithm(dir, Generate(dir, "1MiB"), FourNpuSwitch(dir, true), output),
              "nvls");
    EXPECT_NE(output.find("world: nccl for ALL_REDUCE on 4 ranks in 1 node(s): nvls"),
              std::string::npos)
        << output;
}

TEST(ReplayNcclChoice, NcclAllToAllIsAnInputError)
{
    ettest::ScratchDir dir;
    const std::string system = dir.File("bad.json");
    WriteText(system,
              R"({"all-reduce-implementation": ["nccl"], "all-to-all-implementation": ["nccl"],
                  "reduce-scatter-implementation": ["ring"], "all-gather-implementation": ["ring"]})");
    const std::string prefix = dir.File("a2a");
    ASSERT_EQ(RunProgram(
                  std::string(MLFABRIC_TOOLS_DIR) +
                  "/et-gen microbench --npus=4 --collective=all_to_all --size=1MiB --out=" + prefix)
                  .status,
              0);
    const ProgramRun run =
        RunProgram(std::string(MLFABRIC_EXAMPLES_DIR) +
                   "/chakra-replay --progress=0 --backend=analytical "
                   "--workload=" +
                   prefix + " --fabric=" + FourNpuSwitch(dir, false) + " --system=" + system);
    EXPECT_EQ(run.status, 2) << run.output;
    EXPECT_NE(run.output.find("all-to-all-implementation: nccl chooses among"), std::string::npos)
        << run.output;
}

TEST(ReplayNcclChoice, RingAcrossNodesRunsAChannelOverEachNic)
{
    // Two servers of four GPUs, a 400 Gb/s NIC per GPU on its own rail: NCCL's ring of a
    // 4 MiB all-reduce runs in four channels of 1 MiB, each crossing between the servers
    // on another rail, so it takes a 1 MiB ring's time, not a 4 MiB one's. The channels
    // share the scale-up links, which costs them a little (40.6 against 39.9 us).
    ettest::ScratchDir dir;
    const std::string large = Generate(dir, "4MiB", 8);
    const AllReduceRun channels = RunOnRails(dir, large, "nccl", "flow", "dimension-order");
    EXPECT_EQ(channels.algorithm, "oneRing x4 channels");
    const AllReduceRun quarter =
        RunOnRails(dir, Generate(dir, "1MiB", 8), "oneRing", "flow", "dimension-order");
    const AllReduceRun whole = RunOnRails(dir, large, "oneRing", "flow", "dimension-order");
    EXPECT_EQ(whole.algorithm, "oneRing");
    EXPECT_NEAR(channels.us, quarter.us, 0.03 * quarter.us);
    EXPECT_LT(channels.us, 0.3 * whole.us);
    // By shortest paths the channels leave from their own NICs and meet on the spines by
    // ECMP; the packet level carries the same channels to within 0.5 %.
    const AllReduceRun flow = RunOnRails(dir, large, "nccl", "flow", "shortest");
    const AllReduceRun packet = RunOnRails(dir, large, "nccl", "packet", "shortest");
    EXPECT_EQ(packet.algorithm, "oneRing x4 channels");
    EXPECT_NEAR(packet.us, flow.us, 0.005 * flow.us);
}

TEST(ReplayNcclChoice, RelayedChannelsKeepPaceWhenRelaysStage)
{
    // By dimension order a channel crosses to the other server through the NIC of
    // another GPU of its own server (PXN): that GPU relays from its scale-up link to its
    // NIC. Staged, relayed frames give their scale-up credits back on arrival, and the
    // packet level carries the four channels as the flow level does (40.36 against
    // 40.63 us). Holding the credits until the frame leaves at 400 Gb/s stalls the
    // relaying GPU's own scale-up frames behind it: 97.7 us.
    ettest::ScratchDir dir;
    const std::string large = Generate(dir, "4MiB", 8);
    const AllReduceRun flow = RunOnRails(dir, large, "nccl", "flow", "dimension-order");
    const AllReduceRun staged = RunOnRails(dir, large, "nccl", "packet", "dimension-order");
    EXPECT_EQ(staged.algorithm, "oneRing x4 channels");
    EXPECT_NEAR(staged.us, flow.us, 0.01 * flow.us);
    const AllReduceRun held = RunOnRails(
        dir, large, "nccl", "packet", "dimension-order", "--ns3::NpuRelay::StageHandOvers=false");
    EXPECT_GT(held.us, 2 * flow.us);
}

TEST(ReplayNcclChoice, CollNetSendsEachRanksShareThroughItsOwnNic)
{
    // Two servers of four GPUs with CollNet on: an all-reduce below 8 MiB runs as CollNet
    // Direct. Each GPU reduce-scatters inside its server, its quarter is reduced in its
    // rail's switch, and it all-gathers inside. Between two sizes the time grows by the
    // bytes over 2 x 3/4 at the scale-up goodput (3.6 Tb/s x 256/272) plus 1/4 at the
    // NIC's (400 Gb/s x 4096/4178, cut through the switch): 35.68 us from 64 KiB to 4 MiB.
    ettest::ScratchDir dir;
    const std::string small = Generate(dir, "64KiB", 8);
    const std::string large = Generate(dir, "4MiB", 8);
    const double upBps = 3600e9 / 8 * 256 / 272;
    const double nicBps = 400e9 / 8 * 4096 / 4178;
    const double slope = 1.5 / upBps + 0.25 / nicBps;
    const double expectedUs = (4194304.0 - 65536.0) * slope * 1e6;
    const std::string collNet = R"(, "nccl-collnet-enable": true)";
    for (const std::string backend : {"flow", "packet"})
    {
        const AllReduceRun a =
            RunOnRails(dir, small, "nccl", backend, "dimension-order", "", collNet);
        const AllReduceRun b =
            RunOnRails(dir, large, "nccl", backend, "dimension-order", "", collNet);
        EXPECT_EQ(b.algorithm, "RS:ring@0 AR:inNetwork@1 AG:ring@0") << backend;
        EXPECT_NEAR(b.us - a.us, expectedUs, 0.01 * expectedUs) << backend;
    }
}
