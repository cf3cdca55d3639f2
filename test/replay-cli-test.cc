/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The chakra-replay example end to end: its table, CSV and JSON summary, and one line
// "error: ..." with exit status 2 for every kind of bad input.

#include "program-run.h"
#include "replay-test-support.h"
#include "text-lines.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

const std::string kMicro = kAstra + "workload/microbenchmarks/";
const std::string kRing4 = kAstra + "network/analytical/Ring_4npus.yml";
const std::string kChunks4 = kAstra + "system/native_collectives/Ring_4chunks.json";

ProgramRun
Replay(const std::string& args)
{
    return RunProgram(std::string(MLFABRIC_EXAMPLES_DIR) + "/chakra-replay --progress=0 " + args);
}

/** Expect exit status 2 and a single "error: ..." line containing \p parts. */
void
ExpectError(const ProgramRun& run, std::initializer_list<std::string> parts)
{
    EXPECT_EQ(run.status, 2) << run.output;
    EXPECT_EQ(run.output.rfind("error: ", 0), 0u) << run.output;
    EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << run.output;
    for (const auto& part : parts)
    {
        EXPECT_NE(run.output.find(part), std::string::npos)
            << "output lacks \"" << part << "\": " << run.output;
    }
}

/** A valid 4-rank all-reduce workload in \p dir; \return its prefix. */
std::string
GoodWorkload(const ettest::ScratchDir& dir)
{
    const std::string prefix = dir.File("w");
    for (uint32_t r = 0; r < 4; ++r)
    {
        WriteRank(
            prefix, r, {Compute(1, 2), Collective(2, EtCollectiveType::ALL_REDUCE, 1 << 16, {1})});
    }
    return prefix;
}

} // namespace

TEST(ReplayCli, TablesCsvAndSummary)
{
    ettest::ScratchDir dir;
    const std::string summary = dir.File("summary.json");
    const std::string csv = dir.File("out.csv");
    const ProgramRun run =
        Replay("--workload=" + kMicro + "all_reduce/4npus_1MB/all_reduce" + " --fabric=" + kRing4 +
               " --system=" + kChunks4 + " --summary=" + summary + " --csv=" + csv);
    ASSERT_EQ(run.status, 0) << run.output;
    for (const char* text :
         {"finish(us)", "exposed(us)", "ALL_REDUCE", "ring", "events per second", "completed"})
    {
        EXPECT_NE(run.output.find(text), std::string::npos) << text;
    }

    std::ifstream in(summary);
    const auto json = nlohmann::json::parse(in);
    for (const char* key : {"ranks", "collectives", "events", "wall_seconds", "simulated_ns"})
    {
        EXPECT_TRUE(json.contains(key)) << key;
    }
    ASSERT_EQ(json["ranks"].size(), 4u);
    for (const auto& rank : json["ranks"])
    {
        EXPECT_TRUE(rank.contains("finish_ns"));
        EXPECT_TRUE(rank.contains("exposed_comm_ns"));
        EXPECT_GT(rank["finish_ns"].get<double>(), 0);
        // No compute in the trace: all of the communication is exposed.
        EXPECT_EQ(rank["exposed_comm_ns"], rank["finish_ns"]);
        EXPECT_EQ(rank["bytes_sent"].get<uint64_t>(), 4u * 6 * 65536);
    }
    ASSERT_EQ(json["collectives"].size(), 1u);
    const auto& c = json["collectives"][0];
    EXPECT_EQ(c["type"], "ALL_REDUCE");
    EXPECT_EQ(c["bytes"].get<uint64_t>(), 1048576u);
    EXPECT_EQ(c["group"], "all");
    EXPECT_EQ(c["algorithm"], "ring");
    EXPECT_EQ(c["chunks"].get<uint32_t>(), 4u);
    EXPECT_EQ(c["start_ns"].get<double>(), 0.0);
    EXPECT_EQ(c["end_ns"], json["ranks"][0]["finish_ns"]);
    EXPECT_GT(json["events"].get<uint64_t>(), 0u);

    const auto ranks = Lines(csv);
    ASSERT_EQ(ranks.size(), 5u);
    EXPECT_EQ(ranks[0].rfind("rank,finished,finish_ns,", 0), 0u) << ranks[0];
    const auto collectives = Lines(dir.File("out.collectives.csv"));
    ASSERT_EQ(collectives.size(), 2u);
    EXPECT_EQ(collectives[1].rfind("0,ALL_REDUCE,1048576,all,0,4,4,ring,4,0.000,", 0), 0u)
        << collectives[1];
}

TEST(ReplayCli, SameInputsSameOutputs)
{
    ettest::ScratchDir dir;
    std::string outputs[2];
    for (auto& out : outputs)
    {
        const std::string csv = dir.File("run.csv");
        const ProgramRun run =
            Replay("--workload=" + kMicro + "all_to_all/8npus_1MB/all_to_all" +
                   " --fabric=" + kAstra + "network/analytical/Ring_8npus.yml" + " --csv=" + csv);
        ASSERT_EQ(run.status, 0) << run.output;
        std::ifstream in(csv);
        std::stringstream text;
        text << in.rdbuf();
        out = text.str();
    }
    EXPECT_EQ(outputs[0], outputs[1]);
}

TEST(ReplayCli, MalformedTracesExitWithStatusTwo)
{
    ettest::ScratchDir dir;
    const std::string prefix = GoodWorkload(dir);
    const std::string args = "--workload=" + prefix + " --fabric=" + kRing4;
    ASSERT_EQ(Replay(args).status, 0);
    const std::string rank1 = EtRankFilePath(prefix, 1);
    const std::string good = ettest::ReadBytes(rank1);

    ettest::WriteBytes(rank1, good.substr(0, good.size() - 3));
    ExpectError(Replay(args), {rank1, "truncated"});

    ettest::WriteBytes(rank1, good + std::string(6, '\xff'));
    ExpectError(Replay(args), {rank1, "varint"});

    WriteRank(prefix, 1, {Compute(1, 2, {2}), Compute(2, 2, {1})});
    ExpectError(Replay(args), {rank1, "cycle"});

    WriteRank(prefix, 1, {Compute(1, 2), Compute(1, 3)});
    ExpectError(Replay(args), {rank1, "duplicate", "1"});

    WriteRank(prefix, 1, {Compute(1, 2, {99})});
    ExpectError(Replay(args), {rank1, "99"});

    ettest::WriteBytes(rank1, good);
    std::remove(EtRankFilePath(prefix, 2).c_str());
    ExpectError(Replay(args), {EtRankFilePath(prefix, 2)});
}

TEST(ReplayCli, BadRunsExitWithStatusTwo)
{
    ettest::ScratchDir dir;
    const std::string prefix = GoodWorkload(dir);
    const std::string workload = "--workload=" + prefix;

    ExpectError(Replay("--fabric=" + kRing4), {"--workload"});
    ExpectError(Replay(workload), {"--fabric"});
    ExpectError(Replay(workload + " --fabric=" + kRing4 + " --backend=fluid"), {"--backend"});
    ExpectError(Replay(workload + " --fabric=" + dir.File("none.yml")), {"none.yml"});
    ExpectError(Replay(workload + " --fabric=" + kAstra + "network/analytical/Ring_8npus.yml"),
                {"Ring_8npus.yml", "8 NPUs", "4 ranks"});
    ExpectError(Replay(workload + " --fabric=" + kRing4 + " --cc=warp"), {"--cc"});
    // Options of one backend are refused by the others rather than ignored.
    ExpectError(Replay(workload + " --fabric=" + kRing4 + " --backend=analytical --cc=dcqcn"),
                {"--cc", "--backend=packet"});
    ExpectError(Replay(workload + " --fabric=" + kRing4 + " --backend=analytical-aware " +
                       "--qp-per-message"),
                {"--qp-per-message"});
    ExpectError(Replay(workload + " --fabric=" + kRing4 + " --analytical-goodput=roce"),
                {"--analytical-goodput"});
    ExpectError(Replay(workload + " --fabric=" + kRing4 + " --backend=flow --qp-upfront=1"),
                {"--qp-upfront", "--backend=packet"});
    ExpectError(Replay(workload + " --fabric=" + kAstra +
                       "network/analytical/HGX-H100-validated.yml --backend=analytical"),
                {"8 NPUs", "4 ranks"});
    // A Clos scale-out has no analytical form.
    const std::string root = MLFABRIC_SOURCE_DIR;
    ExpectError(Replay("--workload=" + root + "/traces/gpt-16npu/gpt --fabric=" + root +
                       "/fabrics/two-dim-4x4.yaml --backend=analytical"),
                {"two-dim-4x4.yaml", "dimension 1", "Clos"});
    const std::string groups = dir.File("groups.json");
    WriteText(groups, "{\"1\": [0, 9]}");
    ExpectError(Replay(workload + " --fabric=" + kRing4 + " --comm-group=" + groups),
                {"groups.json", "9"});

    // A collective on an unknown group, and one without comm_size.
    WriteRank(prefix, 3, {Collective(5, EtCollectiveType::ALL_REDUCE, 64, {}, "42")});
    ExpectError(Replay(workload + " --fabric=" + kRing4), {"w.3.et", "node 5", "42"});
    EtNode sizeless = Collective(6, EtCollectiveType::ALL_REDUCE, 0);
    sizeless.present &= ~ET_COMM_SIZE;
    WriteRank(prefix, 3, {sizeless});
    ExpectError(Replay(workload + " --fabric=" + kRing4), {"w.3.et", "node 6", "comm_size"});

    // Traces that wait for each other forever.
    WriteRank(prefix, 3, {Receive(7, 0, 64, 1)});
    const ProgramRun stuck = Replay(workload + " --fabric=" + kRing4 + " --backend=analytical");
    EXPECT_EQ(stuck.status, 2) << stuck.output;
    EXPECT_NE(stuck.output.find("error: the workload cannot finish: rank 0"), std::string::npos)
        << stuck.output;
    EXPECT_NE(stuck.output.find("stuck: 1 receive(s) of rank 0 -> rank 3 tag 1 wait for a send"),
              std::string::npos)
        << stuck.output;

    // At packet level the network's periodic checks never run out of events: the run ends
    // one stall timeout after the ranks were left only waiting, with the same report.
    const std::string summary = dir.File("stuck.json");
    const ProgramRun packet =
        Replay(workload + " --fabric=" + kRing4 + " --stall-timeout=5ms --summary=" + summary);
    EXPECT_EQ(packet.status, 2) << packet.output;
    EXPECT_NE(packet.output.find("stuck: 1 receive(s) of rank 0 -> rank 3 tag 1 wait for a send"),
              std::string::npos)
        << packet.output;
    std::ifstream in(summary);
    const auto json = nlohmann::json::parse(in);
    EXPECT_FALSE(json["completed"].get<bool>());
    EXPECT_GE(json["simulated_ns"].get<double>(), 5e6);
    EXPECT_LT(json["simulated_ns"].get<double>(), 8e6);
}

TEST(ReplayCli, AStalledNetworkEndsTheRunWithItsReport)
{
    ettest::ScratchDir dir;
    const std::string prefix = dir.File("w");
    for (uint32_t r = 0; r < 2; ++r)
    {
        WriteRank(prefix, r, {Collective(1, EtCollectiveType::ALL_REDUCE, 1 << 20)});
    }
    // Every frame is lost: the queue pairs retry and never deliver a byte.
    const std::string fabric = dir.File("lossy.yaml");
    WriteText(fabric,
              "name: lossy\ndimensions:\n  - {topology: Ring, npus: 2, rate: 100Gbps, "
              "latency: 1us, loss: 1}\n");
    const std::string summary = dir.File("summary.json");
    const ProgramRun run = Replay("--workload=" + prefix + " --fabric=" + fabric +
                                  " --stall-timeout=5ms --summary=" + summary);
    EXPECT_EQ(run.status, 1) << run.output;
    EXPECT_NE(run.output.find("error: the network stopped the replay: stalled"), std::string::npos)
        << run.output;
    EXPECT_NE(run.output.find("network failure"), std::string::npos) << run.output;
    std::ifstream in(summary);
    const auto json = nlohmann::json::parse(in);
    EXPECT_EQ(json["outcome"], "network failure");
    EXPECT_FALSE(json["ranks"][0]["finished"].get<bool>());
    // The guard stops the run about one stall timeout after the last progress.
    EXPECT_LT(json["simulated_ns"].get<double>(), 20e6);
}

// --check-invariants on a packet-level replay with ECN marks and CNPs: the books balance
// every 10 us while collectives run, and the checks end with the workload.
TEST(ReplayCli, CheckInvariantsHoldThroughTheBundledWorkload)
{
    ettest::ScratchDir dir;
    const std::string summary = dir.File("summary.json");
    const std::string root = MLFABRIC_SOURCE_DIR;
    const ProgramRun run = Replay("--workload=" + root + "/traces/gpt-16npu/gpt --fabric=" + root +
                                  "/fabrics/two-dim-4x4.yaml --cc=dcqcn --check-invariants "
                                  "--summary=" +
                                  summary);
    ASSERT_EQ(run.status, 0) << run.output;
    EXPECT_NE(run.output.find("invariants: held in "), std::string::npos) << run.output;
    std::ifstream in(summary);
    const auto json = nlohmann::json::parse(in);
    EXPECT_TRUE(json["invariants"]["violations"].empty()) << json["invariants"];
    EXPECT_GT(json["network_stats"]["ecn_marks"].get<uint64_t>(), 0u);
    const double simulatedUs = json["simulated_ns"].get<double>() / 1e3;
    EXPECT_NEAR(json["invariants"]["checks"].get<double>(), simulatedUs / 10, 2);
}

// A workload that ends on a receive leaves its last acknowledgements on the wire when the
// ranks finish; the end-of-run checks wait for them instead of counting them missing.
TEST(ReplayCli, FinalInvariantChecksWaitForAcknowledgementsInFlight)
{
    const std::string root = MLFABRIC_SOURCE_DIR;
    const ProgramRun run =
        Replay("--workload=" + root + "/traces/allreduce-8npu/allreduce --fabric=" + root +
               "/fabrics/two-dim-4x2.yaml --check-invariants");
    ASSERT_EQ(run.status, 0) << run.output;
    EXPECT_NE(run.output.find("invariants: held in "), std::string::npos) << run.output;
}

// An nvls all-reduce on the scale-up switch runs on the analytical backends, the flow
// level and at packet level and is said in the header; a dimension without a switch
// refuses it with exit status 2. An nvls reduce-scatter runs at flow and packet level.
TEST(ReplayCli, InSwitchAllReduceRunsWhereItIsModelled)
{
    ettest::ScratchDir dir;
    const std::string prefix = dir.File("ar");
    for (uint32_t r = 0; r < 8; ++r)
    {
        WriteRank(prefix, r, {Collective(1, EtCollectiveType::ALL_REDUCE, 1 << 20, {})});
    }
    const std::string root = MLFABRIC_SOURCE_DIR;
    const std::string args = "--workload=" + prefix + " --fabric=" + root +
                             "/fabrics/two-dim-4x2.yaml --system=" + root +
                             "/examples/systems/in-switch.json";
    const ProgramRun aware = Replay(args + " --backend=analytical-aware");
    ASSERT_EQ(aware.status, 0) << aware.output;
    EXPECT_NE(aware.output.find("all-reduce [nvls, ring]"), std::string::npos) << aware.output;
    EXPECT_NE(aware.output.find("reduced in the switch of its dimension"), std::string::npos)
        << aware.output;

    const ProgramRun packet = Replay(args);
    ASSERT_EQ(packet.status, 0) << packet.output;
    EXPECT_NE(packet.output.find("reduced in the switch of its dimension"), std::string::npos)
        << packet.output;
    EXPECT_NE(packet.output.find("reduction buffer 8388608 B"), std::string::npos) << packet.output;

    const ProgramRun flow = Replay(args + " --backend=flow");
    ASSERT_EQ(flow.status, 0) << flow.output;
    EXPECT_NE(flow.output.find("(analytical, flow and packet backends"), std::string::npos)
        << flow.output;
    EXPECT_NE(flow.output.find("in-switch reductions as a flow up and a flow down per member"),
              std::string::npos)
        << flow.output;

    const std::string ringSystem = dir.File("ring-nvls.json");
    WriteText(ringSystem,
              "{\"all-reduce-implementation\": [\"nvls\"], \"all-gather-implementation\": "
              "[\"ring\"], \"reduce-scatter-implementation\": [\"ring\"], "
              "\"all-to-all-implementation\": [\"ring\"]}");
    const ProgramRun ring =
        Replay("--workload=" + prefix + " --fabric=" + root +
               "/fabrics/ring-8.yaml --backend=analytical --system=" + ringSystem);
    EXPECT_EQ(ring.status, 2) << ring.output;
    EXPECT_NE(ring.output.find("dimension 0 is a Ring and has no switch"), std::string::npos)
        << ring.output;
    const ProgramRun ringFlow =
        Replay("--workload=" + prefix + " --fabric=" + root +
               "/fabrics/ring-8.yaml --backend=flow --system=" + ringSystem);
    EXPECT_EQ(ringFlow.status, 2) << ringFlow.output;
    EXPECT_NE(ringFlow.output.find("no switch is linked to every one of them"), std::string::npos)
        << ringFlow.output;

    // An nvls reduce-scatter runs at flow and packet level and is said in the header.
    const std::string rsPrefix = dir.File("rs");
    for (uint32_t r = 0; r < 8; ++r)
    {
        WriteRank(rsPrefix, r, {Collective(1, EtCollectiveType::REDUCE_SCATTER, 1 << 20, {})});
    }
    const std::string rsSystem = dir.File("rs-nvls.json");
    WriteText(rsSystem,
              "{\"all-reduce-implementation\": [\"ring\", \"ring\"], "
              "\"all-gather-implementation\": [\"ring\", \"ring\"], "
              "\"reduce-scatter-implementation\": [\"nvls\", \"ring\"], "
              "\"all-to-all-implementation\": [\"ring\", \"ring\"]}");
    const std::string rsArgs = "--workload=" + rsPrefix + " --fabric=" + root +
                               "/fabrics/two-dim-4x2.yaml --system=" + rsSystem;
    const ProgramRun rsFlow = Replay(rsArgs + " --backend=flow");
    ASSERT_EQ(rsFlow.status, 0) << rsFlow.output;
    EXPECT_NE(rsFlow.output.find("reduce-scatter through the scale-up switch of its dimension"),
              std::string::npos)
        << rsFlow.output;
    const ProgramRun rsPacket = Replay(rsArgs);
    ASSERT_EQ(rsPacket.status, 0) << rsPacket.output;
    EXPECT_NE(rsPacket.output.find("reduce-scatter through the scale-up switch of its dimension"),
              std::string::npos)
        << rsPacket.output;
}
