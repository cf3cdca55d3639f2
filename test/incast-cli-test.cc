/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The incast example end to end: its JSON summary, and one-line errors on bad input.

#include "program-run.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

namespace
{

ProgramRun
Execute(const std::string& args)
{
    return RunProgram(std::string(MLFABRIC_EXAMPLES_DIR) + "/incast " + args);
}

} // namespace

TEST(IncastCli, SummaryHasTheDocumentedKeys)
{
    const std::string path = testing::TempDir() + "incast-summary.json";
    const ProgramRun run = Execute("--senders=4 --size=256KiB --summary=" + path);
    ASSERT_EQ(run.status, 0) << run.output;
    std::ifstream in(path);
    const auto summary = nlohmann::json::parse(in);
    for (const char* key : {"bytes_expected",
                            "bytes_delivered",
                            "drops",
                            "pfc_pause_frames",
                            "max_buffer_bytes",
                            "completion_time_ns",
                            "events",
                            "wall_seconds"})
    {
        EXPECT_TRUE(summary.contains(key)) << key;
    }
    EXPECT_EQ(summary["bytes_expected"].get<uint64_t>(), 4u * 256 * 1024);
    EXPECT_EQ(summary["bytes_delivered"], summary["bytes_expected"]);
    EXPECT_GT(summary["completion_time_ns"].get<int64_t>(), 0);
    EXPECT_NE(run.output.find("events per second"), std::string::npos);
}

// --check-invariants through a lossy incast (no PFC, a small buffer): the books balance
// through drops and retransmissions, once every 10 us until the last message completes.
TEST(IncastCli, CheckInvariantsHoldThroughDrops)
{
    const std::string path = testing::TempDir() + "incast-invariants.json";
    const ProgramRun run = Execute("--senders=8 --size=512KiB --pfc=0 --buffer=1MiB "
                                   "--check-invariants --summary=" +
                                   path);
    ASSERT_EQ(run.status, 0) << run.output;
    EXPECT_NE(run.output.find("none invariants: held in "), std::string::npos) << run.output;
    std::ifstream in(path);
    const auto summary = nlohmann::json::parse(in);
    EXPECT_GT(summary["drops"].get<uint64_t>(), 0u);
    EXPECT_TRUE(summary["invariants"]["violations"].empty()) << summary["invariants"];
    const double completionUs = summary["completion_time_ns"].get<double>() / 1e3;
    EXPECT_NEAR(summary["invariants"]["checks"].get<double>(), completionUs / 10, 2);

    const ProgramRun off = Execute("--senders=2 --size=64KiB --summary=" + path);
    ASSERT_EQ(off.status, 0) << off.output;
    EXPECT_EQ(off.output.find("invariants"), std::string::npos) << off.output;
}

TEST(IncastCli, BadArgumentsGiveOneLineAndStatusTwo)
{
    const std::pair<const char*, const char*> cases[] = {
        {"--rate=0Gbps", "--rate"},
        {"--rate=-100Gbps", "--rate"},
        {"--delay=-1us", "--delay"},
        {"--mtu=20B", "--mtu"},
        {"--priority=8", "--priority"},
        {"--senders=0", "--senders"},
        {"--size=12parsecs", "--size"},
        {"--loss=1.5", "--loss"},
        {"--pfc=maybe", "--pfc"},
        {"--buffer=1KiB", "--buffer"},
        {"--buffer=0B", "--buffer: must be in [1, "},
        {"--cc=warp", "--cc"},
        {"--check-invariants --invariant-period=0s", "--invariant-period"},
        {"--check-invariants=perhaps", "--check-invariants"},
        {"--no-such-option=1", "--no-such-option"},
        {"--fabric=/nonexistent/fabric.yaml", "fabric.yaml"},
        {"--fabric=" MLFABRIC_SOURCE_DIR "/fabrics/ring-8.yaml --senders=8", "8 senders"},
    };
    for (const auto& [args, name] : cases)
    {
        const ProgramRun run = Execute(args);
        EXPECT_EQ(run.status, 2) << args << ": " << run.output;
        EXPECT_EQ(run.output.rfind("error: ", 0), 0u) << args << ": " << run.output;
        EXPECT_NE(run.output.find(name), std::string::npos) << args << ": " << run.output;
        EXPECT_EQ(run.output.find('\n'), run.output.size() - 1) << args << ": " << run.output;
    }
}

// The unit grammar end to end (doc/units.md). A bare --rate=100 once built 100 bit/s
// links, printed "0 Gb/s links" and failed 10 simulated seconds later.
TEST(IncastCli, UnitsAreOneGrammarWithOneLineErrors)
{
    const std::string fabric = testing::TempDir() + "incast-bare-rate.yaml";
    {
        std::ofstream out(fabric);
        out << "name: bare\n"
               "scale_out:\n"
               "  topology: clos\n"
               "  servers: 3\n"
               "  hosts_per_leaf: 3\n"
               "  spines: 0\n"
               "  host_link: {rate: 100, latency: 1us}\n";
    }
    const std::pair<std::string, std::string> cases[] = {
        {"--rate=100", "error: --rate: '100' has no unit; write e.g. 100Gbps\n"},
        {"--rate=100gbps",
         "error: --rate: 'gbps' in '100gbps' is not a rate unit (bps, Kbps, Mbps, Gbps, Tbps "
         "for bits; Bps, KBps, MBps, GBps, TBps for bytes per second; Kib/s, KiB/s, ... for "
         "binary prefixes)\n"},
        {"--size=4096", "error: --size: '4096' has no unit; write e.g. 4096B\n"},
        {"--size=4k",
         "error: --size: 'k' in '4k' is not a size unit (B, kB or KB (1000), MB, GB, TB, KiB "
         "(1024), MiB, GiB, TiB)\n"},
        {"--delay=1", "error: --delay: '1' has no unit; write e.g. 1us\n"},
        {"--mtu=4096", "error: --mtu: '4096' has no unit; write e.g. 4096B\n"},
        {"--mtu=10KB",
         "error: --mtu: must be in [64, 9000], the range of ns3::RdmaNic::Mtu (got '10KB')\n"},
        {"--priority=6",
         "error: --priority: 6 is the priority of CNPs (ns3::RdmaNic::CnpPriority); data "
         "needs another\n"},
        {"--priority=8",
         "error: --priority: must be in [0, 7], the range of ns3::RdmaNic::CnpPriority "
         "(got '8')\n"},
        {"--ecn=100G:400KB/1600KB/0.2",
         "error: --ecn: ECN threshold map: entry 1 '100G:400KB/1600KB/0.2': rate: 'G' in "
         "'100G' is not a rate unit (bps, Kbps, Mbps, Gbps, Tbps for bits; Bps, KBps, MBps, "
         "GBps, TBps for bytes per second; Kib/s, KiB/s, ... for binary prefixes)\n"},
        {"--ns3::RdmaNic::RxProcessingRate=100",
         "error: --ns3::RdmaNic::RxProcessingRate: '100' has no unit; write e.g. 100Gbps\n"},
        {"--fabric=" + fabric,
         "error: --fabric: " + fabric +
             ":7: scale_out.host_link.rate: '100' has no unit; write e.g. 100Gbps\n"},
    };
    for (const auto& [args, message] : cases)
    {
        const ProgramRun run = Execute(args);
        EXPECT_EQ(run.status, 2) << args << ": " << run.output;
        EXPECT_EQ(run.output, message) << args;
    }
}

// GBps is gigabytes per second, as in ns-3's DataRate: 100GBps links run at 800 Gb/s
// (the old parser ignored case and ran them at 100 Gb/s).
TEST(IncastCli, BytesPerSecondAreBytes)
{
    const std::string path = testing::TempDir() + "incast-gbytes.json";
    const ProgramRun run =
        Execute("--senders=2 --size=64KiB --rate=100GBps --mtu=4KiB --summary=" + path);
    ASSERT_EQ(run.status, 0) << run.output;
    EXPECT_NE(run.output.find("800 Gb/s links"), std::string::npos) << run.output;
}

TEST(IncastCli, RunsOnAFabricFile)
{
    const std::string path = testing::TempDir() + "incast-fabric.json";
    const ProgramRun run = Execute(
        "--fabric=" MLFABRIC_SOURCE_DIR "/fabrics/incast-16.yaml --size=256KiB --summary=" + path);
    ASSERT_EQ(run.status, 0) << run.output;
    std::ifstream in(path);
    const auto summary = nlohmann::json::parse(in);
    EXPECT_EQ(summary["bytes_expected"].get<uint64_t>(), 16u * 256 * 1024);
    EXPECT_EQ(summary["bytes_delivered"], summary["bytes_expected"]);
    EXPECT_EQ(summary["drops"].get<uint64_t>(), 0u);
}
