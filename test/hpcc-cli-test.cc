/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The hpcc-compat example end to end: one-line errors with exit status 2 on bad input,
// the loud warning for a CC_MODE without a scheme, and the JSON summary.

#include "program-run.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace
{

const std::string kData = std::string(MLFABRIC_SHARED_DIR) + "/data/hpcc/";

ProgramRun
Execute(const std::string& args)
{
    return RunProgram(std::string(MLFABRIC_EXAMPLES_DIR) + "/hpcc-compat --progress=0 " + args);
}

std::string
Write(const std::string& name, const std::string& text)
{
    const std::string path = testing::TempDir() + name;
    std::ofstream(path) << text;
    return path;
}

/**
 * A small DCQCN configuration on the example topology, with \p ccMode and the flow file
 * \p flows of the test's folder (each test its own: ctest runs tests side by side).
 */
std::string
Config(const std::string& name, const std::string& ccMode, const std::string& flows)
{
    return Write(name,
                 "TOPOLOGY_FILE " + kData +
                     "topology.txt\n"
                     "FLOW_FILE " +
                     flows +
                     "\n"
                     "CC_MODE " +
                     ccMode +
                     "\n"
                     "RP_TIMER 300\nEWMA_GAIN 0.00390625\nRATE_AI 20Mb/s\nRATE_HAI 200Mb/s\n"
                     "HAS_WIN 0\nMULTI_RATE 0\nSIMULATOR_STOP_TIME 3\n"
                     "QLEN_MON_START 2000000000\nQLEN_MON_END 2000000000\n"
                     "KMAX_MAP 1 100000000000 1600\nKMIN_MAP 1 100000000000 400\n"
                     "PMAX_MAP 1 100000000000 0.2\n");
}

/** \return the lines of \p text that start with \p prefix */
std::vector<std::string>
LinesStartingWith(const std::string& text, const std::string& prefix)
{
    std::vector<std::string> found;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
    {
        if (line.rfind(prefix, 0) == 0)
        {
            found.push_back(line);
        }
    }
    return found;
}

} // namespace

TEST(HpccCli, BadInputGivesOneErrorLineAndStatusTwo)
{
    Write("hpcc-cli-good-flows.txt", "1\n2 1 3 100 10000 2.0\n");
    const std::string good = Config("hpcc-cli-good.txt", "1", "hpcc-cli-good-flows.txt");
    const std::string badKey = Write("hpcc-cli-badkey.txt", "ENABLE_QCN 1\n\nCC_MODE three\n");
    const std::string badFlows = Write("hpcc-cli-badflows.txt", "1\n2 1 8 100 10000 2.0\n");
    const std::string noTopology = Write("hpcc-cli-notopo.txt", "TOPOLOGY_FILE mix/nowhere.txt\n");
    // Host 0 reaches switch 2 only through host 1, and hosts carry no traffic.
    const std::string apart = Write("hpcc-cli-apart.txt",
                                    "4 1 3\n2\n0 1 100Gbps 1000ns 0\n1 2 100Gbps 1000ns 0\n"
                                    "2 3 100Gbps 1000ns 0\n");
    const std::string across = Write("hpcc-cli-across.txt", "1\n0 3 3 100 1000 2.0\n");
    const std::pair<std::string, std::string> cases[] = {
        {"", "error: --config: required"},
        {"--config=/nonexistent/config.txt",
         "error: --config: /nonexistent/config.txt: no such file"},
        {"--config=" + badKey, "error: " + badKey + ":3: CC_MODE: not a whole number"},
        {"--config=" + good + " --fidelity=exact", "error: --fidelity: must be faithful or peer"},
        {"--config=" + good + " --flows=" + badFlows,
         "error: " + badFlows + ":2: pg: must be at most 7"},
        {"--config=" + noTopology,
         "error: " + noTopology + ":1: TOPOLOGY_FILE mix/nowhere.txt: no such file"},
        {"--config=" + good + " --topology=" + apart + " --flows=" + across,
         "error: " + across + ":2: no route from node 0 to node 3 through switches"},
        {"--config=" + good + " --buckets=0", "error: --buckets"},
        {"--config=" + good + " --speed=fast", "error: "},
    };
    for (const auto& [args, message] : cases)
    {
        const ProgramRun run = Execute(args);
        EXPECT_EQ(run.status, 2) << args << "\n" << run.output;
        const auto errors = LinesStartingWith(run.output, "error: ");
        ASSERT_EQ(errors.size(), 1u) << args << "\n" << run.output;
        EXPECT_EQ(errors[0].rfind(message, 0), 0u) << args << " -> " << errors[0];
    }
}

TEST(HpccCli, ModeWithoutSchemeWarnsAndTheSummaryTellsIt)
{
    Write("hpcc-cli-cc12-flows.txt", "1\n2 1 3 100 10000 2.0\n");
    const std::string config = Config("hpcc-cli-cc12.txt", "12", "hpcc-cli-cc12-flows.txt");
    const std::string summary = testing::TempDir() + "hpcc-cli-summary.json";
    const ProgramRun run = Execute("--config=" + config + " --out-dir=" + testing::TempDir() +
                                   " --fidelity=peer --summary=" + summary);
    ASSERT_EQ(run.status, 0) << run.output;
    const auto warnings = LinesStartingWith(run.output, "warning: ");
    ASSERT_FALSE(warnings.empty());
    EXPECT_NE(warnings[0].find(config + ":3: CC_MODE 12 names no congestion control"),
              std::string::npos)
        << warnings[0];
    EXPECT_NE(run.output.find("CC_MODE 12 -> none"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("events per second"), std::string::npos);

    std::ifstream in(summary);
    const auto j = nlohmann::json::parse(in);
    EXPECT_EQ(j["cc_mode"], 12);
    EXPECT_EQ(j["cc_scheme"], "none");
    EXPECT_EQ(j["cc_exact"], false);
    EXPECT_EQ(j["fidelity"], "peer");
    EXPECT_EQ(j["flows"], 1);
    EXPECT_EQ(j["flows_completed"], 1);
    EXPECT_EQ(j["bytes"], 10000);
    for (const char* key : {"slowdown",
                            "slowdown_by_size",
                            "pfc_pauses",
                            "events",
                            "wall_seconds",
                            "peak_rss_mib",
                            "fct_file",
                            "max_rtt_ns"})
    {
        EXPECT_TRUE(j.contains(key)) << key;
    }
    EXPECT_EQ(j["slowdown"]["flows"], 1);
    EXPECT_EQ(j["max_rtt_ns"], 4160);
}

// --lb, --transport and --fail as on the other packet-level examples: without them the
// run prints and writes what it always did; with defaults given explicitly the flow
// completion times are the same bit for bit; otherwise the header says what was
// installed and the failure is reported.
TEST(HpccCli, PathAndFailureOptionsLeaveTheSimulatorsRunAloneWhenAbsent)
{
    if (!std::filesystem::exists(kData + "topology.txt"))
    {
        GTEST_SKIP() << "no " << kData;
    }
    Write("hpcc-cli-paths-flows.txt", "2\n2 1 3 100 1000000 2.0\n4 1 3 100 1000000 2.0\n");
    const std::string config = Config("hpcc-cli-paths.txt", "1", "hpcc-cli-paths-flows.txt");
    auto run = [&config](const std::string& name, const std::string& extra)
    {
        const std::string dir = testing::TempDir() + name;
        std::filesystem::create_directories(dir);
        const ProgramRun r =
            Execute("--config=" + config + " --out-dir=" + dir +
                    " --fidelity=peer --summary=" + dir + "/summary.json " + extra);
        EXPECT_EQ(r.status, 0) << r.output;
        std::ifstream in(dir + "/summary.json");
        const auto j = nlohmann::json::parse(in);
        std::ifstream fct(j["fct_file"].get<std::string>());
        std::ostringstream text;
        text << fct.rdbuf();
        return std::make_tuple(r, j, text.str());
    };
    const auto [plain, plainJson, plainFct] = run("hpcc-paths-none", "");
    EXPECT_EQ(plain.output.find("load balancing:"), std::string::npos) << plain.output;
    EXPECT_EQ(plain.output.find("failure host"), std::string::npos) << plain.output;
    EXPECT_FALSE(plainJson.contains("paths"));
    EXPECT_FALSE(plainJson.contains("failures"));
    ASSERT_FALSE(plainFct.empty());

    const auto [given, givenJson, givenFct] = run("hpcc-paths-gbn", "--lb=ecmp --transport=gbn");
    EXPECT_EQ(givenFct, plainFct);
    EXPECT_NE(given.output.find("load balancing: ecmp"), std::string::npos) << given.output;
    EXPECT_NE(given.output.find("transport: go-back-N"), std::string::npos) << given.output;
    EXPECT_EQ(givenJson["paths"]["transport"], "gbn");

    // Host 10's link carries no flow: the failure costs nothing and
    // is reported.
    const auto [changed, changedJson, changedFct] =
        run("hpcc-paths-rud", "--lb=spray --transport=rud --fail=host10--switch0@1s");
    EXPECT_NE(changed.output.find("transport: unordered (RUD)"), std::string::npos)
        << changed.output;
    EXPECT_NE(changed.output.find("failure host10--switch0@1s: 0 frames lost"), std::string::npos)
        << changed.output;
    EXPECT_EQ(changedJson["paths"]["transport"], "rud");
    ASSERT_EQ(changedJson["failures"].size(), 1u);
    EXPECT_EQ(changedJson["failures"][0]["lost_frames"], 0);
    EXPECT_EQ(changedJson["flows_completed"], 2);

    const ProgramRun bad = Execute("--config=" + config + " --out-dir=" + testing::TempDir() +
                                   " --fail=host10--host11@1s");
    EXPECT_EQ(bad.status, 2) << bad.output;
    EXPECT_NE(bad.output.find("error: --fail=host10--host11@1s: "), std::string::npos)
        << bad.output;
}

// An incast of three DCQCN flows into one host under --check-invariants: the checks run
// every 10 us from the first flow to the last completion and all hold.
TEST(HpccCli, CheckInvariantsHoldThroughAnIncast)
{
    const std::string flows =
        Write("hpcc-cli-incast.txt",
              "3\n2 1 3 100 2000000 2.0\n3 1 3 100 2000000 2.0\n4 1 3 100 2000000 2.0\n");
    const std::string config = Config("hpcc-cli-dcqcn.txt", "1", "hpcc-cli-incast.txt");
    const std::string summary = testing::TempDir() + "hpcc-cli-invariants.json";
    const ProgramRun run =
        Execute("--config=" + config + " --flows=" + flows + " --out-dir=" + testing::TempDir() +
                " --check-invariants --summary=" + summary);
    ASSERT_EQ(run.status, 0) << run.output;
    EXPECT_NE(run.output.find("invariants: held in "), std::string::npos) << run.output;
    std::ifstream in(summary);
    const auto j = nlohmann::json::parse(in);
    ASSERT_EQ(j["flows_completed"], 3);
    EXPECT_TRUE(j["invariants"]["violations"].empty()) << j["invariants"];
    // Three 2 MB flows share the receiver's 100 Gb/s link: at least 480 us of traffic.
    const auto checks = j["invariants"]["checks"].get<uint64_t>();
    const double busyUs = (j["last_completion_ns"].get<double>() - 2e9) / 1e3;
    EXPECT_GE(busyUs, 480);
    EXPECT_NEAR(static_cast<double>(checks), busyUs / 10, 3) << "checks end with the flows";
}
