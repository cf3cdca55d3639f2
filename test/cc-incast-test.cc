/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Congestion control in a 16-to-1 incast of 4 MiB each: every scheme acts, pauses less
// and queues less than PFC alone, HPCC keeps the queue short, and every byte arrives;
// the incast example compares the schemes and rejects bad congestion-control input.

#include "program-run.h"

#include "ns3/cc-registry.h"
#include "ns3/config.h"
#include "ns3/incast-scenario.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <string>

using namespace ns3;

namespace
{

/** The acceptance incast: 16 senders, 4 MiB each, 100 Gb/s and 1 us links, PFC on. */
IncastResult
RunAcceptanceIncast(const std::string& scheme)
{
    IncastConfig config;
    config.senders = 16;
    config.messageBytes = 4ULL << 20;
    config.cc.scheme = scheme;
    const IncastResult r = RunIncast(config);
    Config::Reset();
    return r;
}

ProgramRun
Execute(const std::string& args)
{
    return RunProgram(std::string(MLFABRIC_EXAMPLES_DIR) + "/incast " + args);
}

class CcIncastTest : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

TEST_F(CcIncastTest, EverySchemeBeatsPfcAlone)
{
    const IncastResult none = RunAcceptanceIncast("none");
    ASSERT_EQ(none.scheme, "none");
    EXPECT_EQ(none.bytesDelivered, none.bytesExpected);
    EXPECT_GT(none.pfcPauseFrames, 100u);
    EXPECT_EQ(none.rateChanges + none.windowChanges, 0u) << "none must not change rate";
    // PFC alone holds the queue at the buffer's pause threshold: about 2/3 of 32 MiB.
    EXPECT_GT(none.peakQueueBytes, 20'000'000u);

    std::map<std::string, IncastResult> results;
    for (const auto& scheme : CcSchemeNames())
    {
        if (scheme == "none")
        {
            continue;
        }
        const IncastResult r = RunAcceptanceIncast(scheme);
        results[scheme] = r;
        EXPECT_EQ(r.scheme, scheme) << "the queue pairs ran another scheme";
        EXPECT_EQ(r.bytesDelivered, r.bytesExpected) << scheme;
        EXPECT_EQ(r.drops, 0u) << scheme;
        for (const auto& f : r.flows)
        {
            EXPECT_EQ(f.timesReceived, 1u) << scheme << " sender " << f.sender;
        }
        // The scheme acts: it changes its rate or window under congestion.
        EXPECT_GT(r.rateChanges + r.windowChanges, 100u) << scheme << " never acted";
        EXPECT_LT(r.pfcPauseFrames, none.pfcPauseFrames) << scheme;
        if (scheme == "timely")
        {
            // TIMELY sees congestion only as a rising RTT, so the queue has to build
            // before its first cut (per 64 KiB segment): its peak stays below PFC's,
            // though not by half.
            EXPECT_LT(r.peakQueueBytes, none.peakQueueBytes) << scheme;
        }
        else
        {
            EXPECT_LT(r.peakQueueBytes, none.peakQueueBytes / 2) << scheme;
        }
    }

    // HPCC: after the first round trip (16 windows of one BDP each) the queue stays near
    // empty: a time-weighted mean below one BDP of the path. The base RTT: 4 us of
    // cables; a data frame (334.24 ns) and an ACK (6.88 ns) serialized into the NICs and
    // 64 bytes of each (5.12 ns) into the cut-through switch; 4 x 400 ns of NIC and
    // 2 x 300 ns of switch pipelines: 6.55136 us, a BDP of 100 Gb/s x that = 81.9 KB.
    const double bdp = 100e9 / 8 * 6.55136e-6;
    const IncastResult& hpcc = results.at("hpcc");
    EXPECT_LT(hpcc.peakQueueBytes, 16 * bdp);
    EXPECT_LT(hpcc.meanQueueBytes, bdp);
    EXPECT_EQ(hpcc.pfcPauseFrames, 0u);
}

TEST_F(CcIncastTest, ExampleComparesEveryScheme)
{
    const std::string path = testing::TempDir() + "incast-cc-all.json";
    const ProgramRun run = Execute("--cc=all --senders=4 --size=1MiB --summary=" + path);
    ASSERT_EQ(run.status, 0) << run.output;
    std::ifstream in(path);
    const auto summary = nlohmann::json::parse(in);
    ASSERT_TRUE(summary.contains("schemes"));
    for (const auto& scheme : CcSchemeNames())
    {
        ASSERT_TRUE(summary["schemes"].contains(scheme)) << scheme;
        const auto& s = summary["schemes"][scheme];
        EXPECT_EQ(s["scheme"], scheme);
        EXPECT_EQ(s["bytes_delivered"].get<uint64_t>(), 4u << 20) << scheme;
        for (const char* key : {"completion_time_ns",
                                "peak_queue_bytes",
                                "mean_queue_bytes",
                                "pfc_pause_frames",
                                "pfc_paused_ns",
                                "ecn_marks",
                                "cnps",
                                "drops",
                                "events_per_second"})
        {
            EXPECT_TRUE(s.contains(key)) << scheme << " " << key;
        }
        EXPECT_NE(run.output.find("\n" + scheme + " "), std::string::npos) << scheme;
    }
    // DCQCN's notification point sends CNPs; the others send none.
    EXPECT_GT(summary["schemes"]["dcqcn"]["cnps"].get<uint64_t>(), 0u);
    EXPECT_EQ(summary["schemes"]["hpcc"]["cnps"].get<uint64_t>(), 0u);
}

TEST_F(CcIncastTest, PresetPicksItsSchemeAndEcnMap)
{
    const std::string path = testing::TempDir() + "incast-cc-preset.json";
    const ProgramRun run =
        Execute("--cc-preset=hpcc-ns3 --senders=4 --size=256KiB --summary=" + path);
    ASSERT_EQ(run.status, 0) << run.output;
    std::ifstream in(path);
    const auto summary = nlohmann::json::parse(in);
    EXPECT_EQ(summary["scheme"], "hpcc");
    // run.py: Kmin/Kmax 100/400 KB per 25 Gb/s at the host rate and four times it.
    EXPECT_EQ(summary["ecn_map"], "100Gbps:400KB/1600KB/0.2,400Gbps:1600KB/6400KB/0.2");
    EXPECT_GT(summary["cc_window_changes"].get<uint64_t>(), 0u);
}

TEST_F(CcIncastTest, EcnOptionSetsTheThresholds)
{
    const std::string path = testing::TempDir() + "incast-cc-ecn.json";
    // Step marking at 20 KB makes DCTCP see marks from the first round trip.
    const ProgramRun run = Execute("--cc=dctcp --ecn=100Gbps:20KB/20KB/1 --senders=4 "
                                   "--size=1MiB --summary=" +
                                   path);
    ASSERT_EQ(run.status, 0) << run.output;
    std::ifstream in(path);
    const auto summary = nlohmann::json::parse(in);
    EXPECT_EQ(summary["ecn_map"], "100Gbps:20KB/20KB/1");
    EXPECT_GT(summary["ecn_marks"].get<uint64_t>(), 0u);
    EXPECT_GT(summary["cc_rate_changes"].get<uint64_t>(), 0u);
}

TEST_F(CcIncastTest, BadCongestionControlInputGivesOneLineAndStatusTwo)
{
    const std::pair<const char*, const char*> cases[] = {
        {"--cc=warp",
         "--cc: unknown congestion control 'warp' (known: none, dcqcn, "
         "dcqcn-hpccns3, dcqcn-window, hpcc, hpcc-pint, timely, dctcp, swift, nscc, all)"},
        {"--cc-preset=ns2", "--cc-preset: unknown congestion-control preset 'ns2'"},
        {"--ecn=100Gbps:400KB", "--ecn: ECN threshold map: entry 1 '100Gbps:400KB' is not"},
        {"--ecn=100Gbps:800KB/400KB/0.2", "Kmin 800KB is above Kmax 400KB"},
        {"--cc=hpcc --ns3::CcHpcc::TargetUtilization=1.5",
         "--ns3::CcHpcc::TargetUtilization: congestion control 'hpcc': TargetUtilization = "
         "'1.5' is invalid; it must be a number in (0, 1]"},
        {"--ns3::CcHpcc::TargetUtilization=0", "a number in (0, 1]"},
        {"--ns3::CcDcqcn::Gain=abc", "--ns3::CcDcqcn::Gain"},
        {"--ns3::CcTimely::Eta=1", "congestion control 'timely' has no parameter 'Eta'"},
        {"--ns3::CcSwift::BaseTarget", "--ns3::CcSwift::BaseTarget: needs a value"},
    };
    for (const auto& [args, message] : cases)
    {
        const ProgramRun run = Execute(args);
        EXPECT_EQ(run.status, 2) << args << ": " << run.output;
        EXPECT_EQ(run.output.rfind("error: ", 0), 0u) << args << ": " << run.output;
        EXPECT_NE(run.output.find(message), std::string::npos) << args << ": " << run.output;
        EXPECT_EQ(run.output.find('\n'), run.output.size() - 1) << args << ": " << run.output;
    }
}

TEST_F(CcIncastTest, CommandLineParameterOverridesThePreset)
{
    const std::string base = "--cc=hpcc --cc-preset=hpcc-ns3 --senders=8 --size=512KiB ";
    const std::string eta95 = testing::TempDir() + "incast-eta95.json";
    const std::string eta50 = testing::TempDir() + "incast-eta50.json";
    ASSERT_EQ(Execute(base + "--summary=" + eta95).status, 0);
    ASSERT_EQ(Execute(base + "--ns3::CcHpcc::TargetUtilization=0.5 --summary=" + eta50).status, 0);
    std::ifstream in95(eta95);
    std::ifstream in50(eta50);
    const auto at95 = nlohmann::json::parse(in95);
    const auto at50 = nlohmann::json::parse(in50);
    // Aiming at half the link takes longer than aiming at 95 % of it.
    EXPECT_GT(at50["completion_time_ns"].get<int64_t>(),
              at95["completion_time_ns"].get<int64_t>() * 3 / 2);
}

} // namespace
