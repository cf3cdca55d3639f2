/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Collectives on communicator groups end to end: a generated mixture-of-experts
// transformer replayed on a two-dimensional fabric, its groups' kinds, the algorithms
// the system JSON asks for on the dimensions each group spans, the run header's line
// per group, and the totals per parallelism kind in the table, CSV and JSON.

#include "program-run.h"
#include "replay-test-support.h"
#include "text-lines.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

const std::string kFabric = std::string(MLFABRIC_SOURCE_DIR) + "/fabrics/two-dim-4x4.yaml";

/**
 * A 16-rank MoE transformer on four 4-GPU servers: TP 2 inside a server, DP 16 / 2 / pp
 * over the servers, EP half of DP. With one stage the EP groups ({0,2,4,6}, ...) span
 * two GPUs of each of two servers.
 * \return its prefix
 */
std::string
Generate(const ettest::ScratchDir& dir, uint32_t pp)
{
    const std::string prefix = dir.File("moe");
    const uint32_t dp = 16 / 2 / pp;
    const ProgramRun run =
        RunProgram(std::string(MLFABRIC_TOOLS_DIR) +
                   "/et-gen transformer --npus=16 --tp=2 --dp=" + std::to_string(dp) +
                   " --pp=" + std::to_string(pp) + " --ep=" + std::to_string(dp / 2) +
                   " --experts=4 --top-k=1 --layers=2 --hidden=256 --seq=64 --micro-batch=1 " +
                   "--global-batch=" + std::to_string(2 * dp) + " --out=" + prefix);
    EXPECT_EQ(run.status, 0) << run.output;
    return prefix;
}

std::string
System(const ettest::ScratchDir& dir,
       const std::string& extra,
       const std::string& allToAll = R"(["direct", "direct"])")
{
    const std::string path = dir.File("system.json");
    WriteText(path,
              R"({"scheduling-policy": "LIFO", "endpoint-delay": 10,
                  "active-chunks-per-dimension": 1, "preferred-dataset-splits": 2,
                  "collective-optimization": "localBWAware",
                  "all-reduce-implementation": ["ring", "halvingDoubling"],
                  "reduce-scatter-implementation": ["ring", "ring"],
                  "all-gather-implementation": ["ring", "ring"],
                  "all-to-all-implementation": )" +
                  allToAll + extra + "}");
    return path;
}

ProgramRun
Replay(const std::string& args)
{
    return RunProgram(std::string(MLFABRIC_EXAMPLES_DIR) +
                      "/chakra-replay --progress=0 --backend=analytical-aware --fabric=" + kFabric +
                      " " + args);
}

} // namespace

TEST(ReplayGroups, MoeCollectivesRunOnTheDimensionsTheirGroupsSpan)
{
    ettest::ScratchDir dir;
    const std::string prefix = Generate(dir, 1);
    const std::string summary = dir.File("s.json");
    const std::string csv = dir.File("out.csv");
    const ProgramRun run = Replay("--workload=" + prefix + " --system=" + System(dir, "") +
                                  " --summary=" + summary + " --csv=" + csv);
    ASSERT_EQ(run.status, 0) << run.output;
    // The header: one line per group shape, naming the dimensions and algorithms.
    // TP groups 1-8 inside a server, DP across all four servers (hierarchical), expert
    // DP on two servers, EP on two GPUs of two servers.
    EXPECT_NE(run.output.find("groups 1,2,3,4,5,6,7,8: 2 ranks on dimension 0 (2 of 4), "
                              "all-reduce ring@0"),
              std::string::npos)
        << run.output;
    EXPECT_NE(run.output.find("8 ranks on dimensions 0 (2 of 4) x 1 (4 of 4), all-reduce "
                              "RS:ring@0 AR:halvingDoubling@1 AG:ring@0"),
              std::string::npos)
        << run.output;
    EXPECT_NE(run.output.find("2 ranks on dimension 1 (2 of 4), all-reduce halvingDoubling@1"),
              std::string::npos)
        << run.output;
    EXPECT_NE(run.output.find("4 ranks on dimensions 0 (2 of 4) x 1 (2 of 4)"), std::string::npos)
        << run.output;
    EXPECT_NE(run.output.find("all-to-all A2A:direct@0 A2A:direct@1"), std::string::npos);

    std::ifstream in(summary);
    const auto json = nlohmann::json::parse(in);
    std::map<std::string, uint64_t> byKind;
    for (const auto& c : json["collectives"])
    {
        const std::string kind = c["kind"];
        ++byKind[kind];
        EXPECT_EQ(c["finished_ranks"], c["ranks"]);
        EXPECT_LE(c["rank_max_ns"].get<double>(),
                  c["end_ns"].get<double>() - c["start_ns"].get<double>() + 1e-3);
        EXPECT_GE(c["rank_max_ns"].get<double>(), c["rank_mean_ns"].get<double>() - 1e-3);
        if (kind == "ep")
        {
            EXPECT_EQ(c["type"], "ALL_TO_ALL");
            EXPECT_EQ(c["algorithm"], "A2A:direct@0 A2A:direct@1");
        }
        if (kind == "tp" && c["type"] == "ALL_REDUCE")
        {
            EXPECT_EQ(c["algorithm"], "ring@0");
        }
    }
    EXPECT_GT(byKind["tp"], 0U);
    EXPECT_GT(byKind["dp"], 0U);
    EXPECT_GT(byKind["ep"], 0U);
    // Totals per kind add up to the collectives' own figures.
    uint64_t counted = 0;
    for (const auto& k : json["kinds"])
    {
        counted += k["count"].get<uint64_t>();
        if (k["kind"] != "pp")
        {
            EXPECT_EQ(k["count"].get<uint64_t>(), byKind[k["kind"]]);
        }
    }
    EXPECT_EQ(counted, json["collectives"].size() + json["sends"].size());
    const auto kinds = Lines(dir.File("out.kinds.csv"));
    ASSERT_GE(kinds.size(), 4U);
    EXPECT_EQ(kinds[0], "kind,count,bytes,slowest_rank_ns,mean_rank_ns,issue_skew_ns,unfinished");
    EXPECT_EQ(kinds[1].rfind("tp,", 0), 0U) << kinds[1];
    EXPECT_NE(run.output.find("slowest(us)"), std::string::npos);

    // ASTRA-sim 2.0's rule: every group one ring over its members.
    const ProgramRun flat =
        Replay("--workload=" + prefix + " --system=" +
               System(dir, R"(, "group-decomposition": "member-ring")") + " --summary=" + summary);
    ASSERT_EQ(flat.status, 0) << flat.output;
    std::ifstream in2(summary);
    const auto json2 = nlohmann::json::parse(in2);
    for (const auto& c : json2["collectives"])
    {
        EXPECT_EQ(c["algorithm"], "ring") << c.dump();
    }
    EXPECT_NE(flat.output.find("group-decomposition member-ring"), std::string::npos);
}

TEST(ReplayGroups, MoeAllToAllRunsHierarchicalOrFlatAsConfigured)
{
    // The EP groups span two GPUs of each of two servers. ["direct", "direct"] runs their
    // token all-to-alls hierarchically (inside the server, then across); ["oneDirect"]
    // runs one direct all-to-all over the four members. The report says which ran.
    ettest::ScratchDir dir;
    const std::string prefix = Generate(dir, 1);
    std::map<std::string, nlohmann::json> epTotals;
    for (const std::string& allToAll : {R"(["direct", "direct"])", R"(["oneDirect"])"})
    {
        SCOPED_TRACE(allToAll);
        const std::string summary = dir.File("s.json");
        const ProgramRun run =
            Replay("--workload=" + prefix + " --system=" + System(dir, "", allToAll) +
                   " --summary=" + summary);
        ASSERT_EQ(run.status, 0) << run.output;
        const bool flat = allToAll.find("one") != std::string::npos;
        const std::string expected = flat ? "oneDirect" : "A2A:direct@0 A2A:direct@1";
        EXPECT_NE(run.output.find("groups 19,20,21,22: 4 ranks on dimensions 0 (2 of 4) x 1 "
                                  "(2 of 4), all-reduce RS:ring@0 AR:halvingDoubling@1 "
                                  "AG:ring@0, reduce-scatter RS:ring@0 RS:ring@1, all-gather "
                                  "AG:ring@1 AG:ring@0, all-to-all " +
                                  expected),
                  std::string::npos)
            << run.output;
        std::ifstream in(summary);
        const auto json = nlohmann::json::parse(in);
        uint32_t allToAlls = 0;
        for (const auto& c : json["collectives"])
        {
            if (c["type"] == "ALL_TO_ALL")
            {
                ++allToAlls;
                EXPECT_EQ(c["kind"], "ep");
                EXPECT_EQ(c["algorithm"], expected);
                EXPECT_EQ(c["finished_ranks"], c["ranks"]);
            }
        }
        EXPECT_GT(allToAlls, 0U);
        for (const auto& k : json["kinds"])
        {
            if (k["kind"] == "ep")
            {
                epTotals[expected] = k;
            }
        }
    }
    ASSERT_EQ(epTotals.size(), 2U);
    const auto& hierarchical = epTotals["A2A:direct@0 A2A:direct@1"];
    const auto& flat = epTotals["oneDirect"];
    // The same token exchanges, run two ways.
    EXPECT_EQ(hierarchical["count"], flat["count"]);
    EXPECT_EQ(hierarchical["bytes"], flat["bytes"]);
    EXPECT_NE(hierarchical["slowest_rank_ns"], flat["slowest_rank_ns"]);
}

TEST(ReplayGroups, PipelineSendsAreListedAndCountedAsPp)
{
    ettest::ScratchDir dir;
    const std::string prefix = Generate(dir, 2);
    const std::string summary = dir.File("s.json");
    const std::string csv = dir.File("out.csv");
    const ProgramRun run = Replay("--workload=" + prefix + " --system=" + System(dir, "") +
                                  " --summary=" + summary + " --csv=" + csv);
    ASSERT_EQ(run.status, 0) << run.output;
    std::ifstream in(summary);
    const auto json = nlohmann::json::parse(in);
    ASSERT_GT(json["sends"].size(), 0U);
    uint64_t bytes = 0;
    for (const auto& s : json["sends"])
    {
        bytes += s["bytes"].get<uint64_t>();
        EXPECT_GE(s["arrival_ns"].get<double>(), s["issue_ns"].get<double>());
    }
    bool found = false;
    for (const auto& k : json["kinds"])
    {
        if (k["kind"] == "pp")
        {
            found = true;
            EXPECT_EQ(k["count"].get<uint64_t>(), json["sends"].size());
            EXPECT_EQ(k["bytes"].get<uint64_t>(), bytes);
            EXPECT_EQ(k["unfinished"].get<uint64_t>(), 0U);
        }
    }
    EXPECT_TRUE(found);
    const auto sends = Lines(dir.File("out.sends.csv"));
    EXPECT_EQ(sends.size(), json["sends"].size() + 1);
    EXPECT_NE(run.output.find("arrival(us)"), std::string::npos);
}

namespace
{

constexpr double kGbps = 50; // ASTRA-sim's GB/s, GB = 2^30 B
constexpr double kLatencyNs = 500;
constexpr double kEndpointNs = 10;
constexpr uint32_t kMtu = 4096;

/** Goodput of a link: line rate less 82 wire bytes per packet, and the ACKs coming back. */
double
GoodputBytesPerNs(bool bothDirections)
{
    const double line = kGbps * static_cast<double>(1U << 30) / 1e9;
    return line * kMtu / (kMtu + 82.0 + (bothDirections ? 86.0 : 0));
}

/** A message through a switch: two link latencies and one packet stored and forwarded. */
double
SwitchHopNs()
{
    const double line = kGbps * static_cast<double>(1U << 30) / 1e9;
    return 2 * kLatencyNs + (kMtu + 82.0) / line;
}

/** Replay one collective of \p bytes on group "1" = \p members at packet level. */
ReplayResult
RunGroupCollective(const ettest::ScratchDir& dir,
                   const std::string& network,
                   const std::string& algorithms,
                   EtCollectiveType type,
                   uint64_t bytes,
                   const std::vector<uint32_t>& members,
                   uint32_t npus)
{
    const std::string prefix = dir.File("g");
    std::string list;
    for (uint32_t r : members)
    {
        list += (list.empty() ? "" : ", ") + std::to_string(r);
    }
    WriteText(dir.File("groups.json"), "{\"1\": [" + list + "]}");
    for (uint32_t r = 0; r < npus; ++r)
    {
        const bool member = std::find(members.begin(), members.end(), r) != members.end();
        WriteRank(prefix,
                  r,
                  member ? std::vector<EtNode>{Collective(1, type, bytes, {}, "1")}
                         : std::vector<EtNode>{Compute(1, 1)});
    }
    const std::string system = dir.File("system.json");
    WriteText(system,
              "{\"endpoint-delay\": 10, \"preferred-dataset-splits\": 1, "
              "\"collective-optimization\": \"baseline\", \"all-reduce-implementation\": " +
                  algorithms + ", \"all-gather-implementation\": " + algorithms +
                  ", \"reduce-scatter-implementation\": " + algorithms +
                  ", \"all-to-all-implementation\": " + algorithms + "}");
    ReplayRunConfig config = RunConfig(prefix, network, system);
    config.commGroupPath = dir.File("groups.json");
    config.network.mtu = kMtu;
    WithoutSwitchAndNicLatency(); // the closed forms charge link latency only
    return RunReplay(config);
}

void
ExpectWithin(double measured, double expected, double bound)
{
    const double deviation = (measured - expected) / expected;
    EXPECT_LT(std::abs(deviation), bound)
        << "measured " << measured << " ns, closed form " << expected << " ns";
}

} // namespace

TEST(ReplayGroups, PacketLevelGroupCollectivesMatchTheirClosedForms)
{
    const uint64_t s = 8 << 20;
    {
        // Four of the eight NPUs of a switch: a ring all-reduce of the group, 2(n-1)
        // steps of S/n through the switch; the others send nothing.
        ettest::ScratchDir dir;
        const auto r = RunGroupCollective(dir,
                                          WriteNetwork(dir, "Switch", 8, kGbps, kLatencyNs),
                                          "[\"ring\"]",
                                          EtCollectiveType::ALL_REDUCE,
                                          s,
                                          {1, 3, 5, 7},
                                          8);
        ASSERT_TRUE(r.completed);
        const double m = s / 4.0;
        ExpectWithin(LastFinishNs(r),
                     kEndpointNs + 6 * (m / GoodputBytesPerNs(false) + SwitchHopNs() + kEndpointNs),
                     0.03);
        for (const auto& rank : r.ranks)
        {
            const bool member = rank.rank % 2 == 1;
            EXPECT_EQ(rank.bytesSent, member ? 6 * s / 4 : 0U) << rank.rank;
        }
        EXPECT_EQ(r.networkDeliveredBytes, 4 * 6 * s / 4);
    }
    {
        // Direct all-to-all of the same group: every member sends S/n to each other one
        // at once, both directions of each member's link busy.
        ettest::ScratchDir dir;
        const auto r = RunGroupCollective(dir,
                                          WriteNetwork(dir, "Switch", 8, kGbps, kLatencyNs),
                                          "[\"direct\"]",
                                          EtCollectiveType::ALL_TO_ALL,
                                          s,
                                          {1, 3, 5, 7},
                                          8);
        ASSERT_TRUE(r.completed);
        ExpectWithin(LastFinishNs(r),
                     2 * kEndpointNs + 3.0 * s / 4 / GoodputBytesPerNs(true) + SwitchHopNs(),
                     0.03);
        EXPECT_EQ(r.networkDeliveredBytes, 4 * 3 * s / 4);
    }
    {
        // Hierarchical: {0,1} x {0,1} of a 4 x 2 network of switches; baseline runs a
        // two-rank ring all-reduce inside (dimension 0), then one across (dimension 1).
        ettest::ScratchDir dir;
        const std::string network = dir.File("two.yml");
        WriteText(network,
                  "topology: [ Switch, Switch ]\nnpus_count: [ 4, 2 ]\nbandwidth: [ 50, 50 ]\n"
                  "latency: [ 500, 500 ]\n");
        const auto r = RunGroupCollective(
            dir, network, "[\"ring\", \"ring\"]", EtCollectiveType::ALL_REDUCE, s, {0, 1, 4, 5}, 8);
        ASSERT_TRUE(r.completed);
        const double phase =
            kEndpointNs + 2 * (s / 2.0 / GoodputBytesPerNs(false) + SwitchHopNs() + kEndpointNs);
        ExpectWithin(LastFinishNs(r), 2 * phase, 0.03);
        for (uint32_t member : {0U, 1U, 4U, 5U})
        {
            EXPECT_EQ(r.ranks[member].bytesSent, 2 * s);
        }
    }
}

TEST(ReplayGroups, PacketLevelPatMatchesItsClosedForm)
{
    // PAT over four of the eight NPUs of a switch: log2 4 = 2 steps, every member sending
    // one message and receiving one per step (a shift by 2, then by 1), through the switch.
    const std::vector<uint32_t> members = {1, 3, 5, 7};
    {
        // All-gather of S per rank: messages of S (distance 2), then 2S (distance 1).
        const uint64_t s = 2 << 20;
        ettest::ScratchDir dir;
        const auto r = RunGroupCollective(dir,
                                          WriteNetwork(dir, "Switch", 8, kGbps, kLatencyNs),
                                          "[\"pat\"]",
                                          EtCollectiveType::ALL_GATHER,
                                          s,
                                          members,
                                          8);
        ASSERT_TRUE(r.completed);
        const double step = SwitchHopNs() + kEndpointNs;
        ExpectWithin(
            LastFinishNs(r), kEndpointNs + (3.0 * s) / GoodputBytesPerNs(false) + 2 * step, 0.03);
        for (uint32_t member : members)
        {
            EXPECT_EQ(r.ranks[member].bytesSent, 3 * s);
        }
        EXPECT_EQ(r.networkDeliveredBytes, 4 * 3 * s);
    }
    {
        // Reduce-scatter of S: blocks of S/4, messages of 2 blocks (distance 1), then 1
        // (distance 2); local reductions cost nothing without local-mem-bw.
        const uint64_t s = 8 << 20;
        ettest::ScratchDir dir;
        const auto r = RunGroupCollective(dir,
                                          WriteNetwork(dir, "Switch", 8, kGbps, kLatencyNs),
                                          "[\"pat\"]",
                                          EtCollectiveType::REDUCE_SCATTER,
                                          s,
                                          members,
                                          8);
        ASSERT_TRUE(r.completed);
        const double step = SwitchHopNs() + kEndpointNs;
        ExpectWithin(LastFinishNs(r),
                     kEndpointNs + (3.0 * s / 4) / GoodputBytesPerNs(false) + 2 * step,
                     0.03);
        for (uint32_t member : members)
        {
            EXPECT_EQ(r.ranks[member].bytesSent, 3 * s / 4);
        }
        EXPECT_EQ(r.networkDeliveredBytes, 4 * 3 * s / 4);
    }
}
