/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// A Chakra replay across MPI processes gives the figures of the same replay in one
// process: a GPT with tensor, pipeline and data parallelism on a two-dimensional fabric
// (servers on a scale-up switch, a 2:1 leaf-spine between them) under DCQCN. On two
// processes under the granted time window every figure of the summary is the same; under
// null messages and on four processes frames that reach a node at the same picosecond
// from two processes are ordered otherwise, and figures move by nanoseconds.

#include "program-run.h"
#include "replay-test-support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>

namespace
{

using namespace ns3;
using namespace ns3::replaytest;

const std::string kReplay = std::string(MLFABRIC_EXAMPLES_DIR) + "/chakra-replay";
const std::string kSource = MLFABRIC_SOURCE_DIR;
const std::string kGpt = "--workload=" + kSource + "/traces/gpt-16npu/gpt --fabric=" + kSource +
                         "/fabrics/two-dim-4x4-roce.yaml --progress=0";
const std::string kDcqcn = kGpt + " --cc=dcqcn";

/** \return the command that starts \p processes MPI processes */
std::string
Mpiexec(uint32_t processes)
{
    // Open MPI refuses root unless told; CI runs as root.
    return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " +
           std::string(MLFABRIC_MPIEXEC) + " -n " + std::to_string(processes) + " --oversubscribe ";
}

/**
 * \return a path for \p name in the running test's own temporary folder: ctest runs the
 *         cases side by side
 */
std::string
TempPath(const std::string& name)
{
    const auto dir = std::filesystem::temp_directory_path() / "mlfabric-replay-mpi-test" /
                     ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

/** \return the summary of running \p command with --summary, which must succeed */
nlohmann::json
Summary(const std::string& command, const std::string& name)
{
    const std::string path = TempPath(name + ".json");
    std::filesystem::remove(path);
    const ProgramRun run = RunProgram(command + " --summary=" + path);
    EXPECT_EQ(run.status, 0) << run.output;
    std::ifstream in(path);
    return in ? nlohmann::json::parse(in) : nlohmann::json::object();
}

/** \return the sequential replay of the GPT, its queue pairs opened as across processes */
nlohmann::json
Sequential()
{
    return Summary(kReplay + " " + kDcqcn + " --qp-upfront=1", "one");
}

/** \return the replay of the GPT across \p processes, with \p options */
nlohmann::json
Distributed(uint32_t processes, const std::string& options)
{
    nlohmann::json summary = Summary(Mpiexec(processes) + kReplay + " " + kDcqcn + " " + options,
                                     "mpi-" + std::to_string(processes));
    EXPECT_EQ(summary["processes"].size(), processes);
    for (const auto& process : summary["processes"])
    {
        EXPECT_GT(process["events"].get<uint64_t>(), 0u) << summary["processes"];
    }
    EXPECT_NE(
        summary["partition"].get<std::string>().find(std::to_string(processes) + " processes"),
        std::string::npos)
        << summary["partition"];
    return summary;
}

/** \return \p summary without what measures the host or the engine rather than the run */
nlohmann::json
Figures(nlohmann::json summary)
{
    for (const char* key : {"wall_seconds", "events", "network", "partition", "processes"})
    {
        summary.erase(key);
    }
    return summary;
}

/** Expect \p b's figure \p key to be \p a's to \p share of it. */
void
ExpectClose(const nlohmann::json& a, const nlohmann::json& b, const char* key, double share)
{
    const double x = a[key].get<double>();
    EXPECT_NEAR(b[key].get<double>(), x, x * share) << key;
}

/**
 * Expect \p b to be the run \p a but for the order of same-picosecond ties: every rank
 * finishes within \p share, every collective is the same one with the same algorithm
 * and ends within \p share, every send arrives within \p share.
 */
void
ExpectSameRunToTies(const nlohmann::json& a, const nlohmann::json& b, double share)
{
    ExpectClose(a, b, "simulated_ns", share);
    ASSERT_EQ(a["ranks"].size(), b["ranks"].size());
    for (size_t r = 0; r < a["ranks"].size(); ++r)
    {
        ExpectClose(a["ranks"][r], b["ranks"][r], "finish_ns", share);
        EXPECT_EQ(a["ranks"][r]["bytes_received"], b["ranks"][r]["bytes_received"]) << r;
    }
    std::map<std::pair<std::string, uint64_t>, nlohmann::json> collectives;
    for (const auto& c : b["collectives"])
    {
        collectives[{c["group"], c["sequence"]}] = c;
    }
    ASSERT_EQ(collectives.size(), a["collectives"].size());
    for (const auto& c : a["collectives"])
    {
        const nlohmann::json& other = collectives[{c["group"], c["sequence"]}];
        for (const char* key : {"type", "bytes", "algorithm", "ranks", "finished_ranks"})
        {
            EXPECT_EQ(other[key], c[key]) << key;
        }
        ExpectClose(c, other, "end_ns", share);
    }
    ASSERT_EQ(a["sends"].size(), b["sends"].size());
    for (size_t i = 0; i < a["sends"].size(); ++i)
    {
        ExpectClose(a["sends"][i], b["sends"][i], "arrival_ns", share);
    }
    EXPECT_EQ(a["network_delivered_bytes"], b["network_delivered_bytes"]);
    ExpectClose(a["network_stats"], b["network_stats"], "ecn_marks", 0.01);
}

} // namespace

TEST(ReplayMpi, TwoProcessesGiveEverySequentialFigureUnderTheGrantedTimeWindow)
{
    const nlohmann::json one = Sequential();
    const nlohmann::json two = Distributed(2, "--mpi-engine=granted-time-window");
    ASSERT_TRUE(one["completed"].get<bool>());
    // Every kind of traffic crosses the cut, and congestion control acts.
    EXPECT_GT(one["sends"].size(), 0u);
    EXPECT_GT(one["network_stats"]["ecn_marks"].get<uint64_t>(), 0u);
    std::map<std::string, uint64_t> kinds;
    for (const auto& k : one["kinds"])
    {
        kinds[k["kind"]] = k["count"];
    }
    EXPECT_GT(kinds["tp"], 0u);
    EXPECT_GT(kinds["dp"], 0u);
    EXPECT_GT(kinds["pp"], 0u);
    EXPECT_EQ(two["network_stats"]["busiest_links"].size(), 5u);
    EXPECT_EQ(Figures(one), Figures(two));
}

TEST(ReplayMpi, NullMessagesReorderOnlySamePicosecondTies)
{
    const nlohmann::json two = Distributed(2, "--mpi-engine=null-message --stop=1s");
    ExpectSameRunToTies(Sequential(), two, 1e-3);
    // Its processes cannot agree when the ranks have finished, which ends the windows.
    EXPECT_NE(two["network"].get<std::string>().find("link utilization is not sampled"),
              std::string::npos);
    EXPECT_EQ(two["network_stats"].count("busiest_links"), 0u);
}

TEST(ReplayMpi, FourProcessesReorderOnlySamePicosecondTies)
{
    ExpectSameRunToTies(Sequential(), Distributed(4, ""), 1e-3);
}

TEST(ReplayMpi, RefusesWhatRunsInOneProcessNamingTheOption)
{
    const std::pair<const char*, const char*> cases[] = {
        {"--backend=flow", "--backend=flow: under mpirun the replay runs at packet level only"},
        {"--timeline=/dev/null", "--timeline: not under mpirun"},
        {"--qp-per-message=1", "--qp-per-message: not under mpirun"},
        {"--fail=leaf0-spine0@1us", "--fail: link failures run in one process"},
        {"--mpi-engine=null-message", "--mpi-engine=null-message: give --stop too"},
        {"--mpi-engine=null-message --stop=1s --link-utilization=/dev/null",
         "--link-utilization: not under --mpi-engine=null-message"},
    };
    for (const auto& [option, message] : cases)
    {
        const ProgramRun run = RunProgram(Mpiexec(2) + kReplay + " " + kGpt + " " + option);
        EXPECT_EQ(run.status, 2) << option << "\n" << run.output;
        EXPECT_NE(run.output.find(message), std::string::npos) << option << "\n" << run.output;
    }
}

TEST(ReplayMpi, AWorkloadThatCannotFinishEndsOnEveryProcessWithItsReport)
{
    // Rank 0 waits for a send rank 3 never makes: every process runs out of work, and the
    // processes find together that nothing moves anywhere.
    ettest::ScratchDir dir;
    const std::string prefix = dir.File("w");
    WriteRank(prefix, 0, {Receive(1, 3, 64, 1)});
    for (uint32_t r = 1; r < 4; ++r)
    {
        WriteRank(prefix, r, {Compute(1, 5)});
    }
    const std::string fabric = WriteNetwork(dir, "Ring", 4, 100, 500);
    const ProgramRun run = RunProgram(Mpiexec(2) + kReplay + " --progress=0 --workload=" + prefix +
                                      " --fabric=" + fabric + " --stall-timeout=5ms");
    EXPECT_EQ(run.status, 2) << run.output;
    EXPECT_NE(run.output.find("error: the workload cannot finish: rank 0"), std::string::npos)
        << run.output;
    EXPECT_NE(run.output.find("stuck: 1 receive(s) of rank 3 -> rank 0 tag 1 wait for a send"),
              std::string::npos)
        << run.output;

    // A collective three of the four ranks issue, on both processes: named once, with
    // the issuers of both.
    for (uint32_t r = 0; r < 3; ++r)
    {
        WriteRank(prefix, r, {Collective(1, EtCollectiveType::ALL_REDUCE, 4096)});
    }
    const ProgramRun partial =
        RunProgram(Mpiexec(2) + kReplay + " --progress=0 --workload=" + prefix +
                   " --fabric=" + fabric + " --stall-timeout=5ms");
    EXPECT_EQ(partial.status, 2) << partial.output;
    const std::string line = "stuck: ALL_REDUCE #0 of the default group was issued by 3 of its "
                             "4 ranks (0,1,2); the others never reached it";
    const size_t at = partial.output.find(line);
    EXPECT_NE(at, std::string::npos) << partial.output;
    EXPECT_EQ(partial.output.find(line, at + 1), std::string::npos) << partial.output;
}
