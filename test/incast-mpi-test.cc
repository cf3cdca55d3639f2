/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// One incast across two MPI processes gives the figures of the same incast in one
// process: every counter, completion, PFC port and queue figure of the summary, under
// each of ns-3's two engines, with the fabric split automatically or by a file.

#include "program-run.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace
{

const std::string kIncast = std::string(MLFABRIC_EXAMPLES_DIR) + "/incast";
const std::string kSource = MLFABRIC_SOURCE_DIR;
// Open MPI refuses root unless told; CI runs as root.
const std::string kMpiexec = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " +
                             std::string(MLFABRIC_MPIEXEC) + " -n 2 --oversubscribe ";

/** \return a path for \p name in the test's temporary folder */
std::string
TempPath(const std::string& name)
{
    const auto dir = std::filesystem::temp_directory_path() / "mlfabric-incast-mpi-test";
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

/** \return the summary \p path holds */
nlohmann::json
ReadSummary(const std::string& path)
{
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

/** \return \p summary without what measures the host or the engine rather than the run */
nlohmann::json
Figures(nlohmann::json summary)
{
    for (const char* key :
         {"wall_seconds", "events_per_second", "events", "partition", "processes"})
    {
        summary.erase(key);
    }
    return summary;
}

/** \return the entries of \p list without their \p name field, sorted */
std::multiset<std::string>
Unnamed(const nlohmann::json& list, const char* name)
{
    std::multiset<std::string> entries;
    for (nlohmann::json entry : list)
    {
        entry.erase(name);
        entries.insert(entry.dump());
    }
    return entries;
}

/** A sequential run and a run on two processes of the same incast. */
struct RunPair
{
    nlohmann::json one; //!< the summary of the sequential run
    nlohmann::json two; //!< the summary of the distributed run
};

/** Run incast with \p options in one process, then across two with \p mpi added. */
RunPair
RunBoth(const std::string& name, const std::string& options, const std::string& mpi)
{
    const std::string one = TempPath(name + "-one.json");
    const std::string two = TempPath(name + "-two.json");
    const ProgramRun sequential = RunProgram(kIncast + " " + options + " --summary=" + one);
    EXPECT_EQ(sequential.status, 0) << sequential.output;
    const ProgramRun distributed =
        RunProgram(kMpiexec + kIncast + " " + options + " " + mpi + " --summary=" + two);
    EXPECT_EQ(distributed.status, 0) << distributed.output;
    EXPECT_NE(distributed.output.find("partition: 2 processes"), std::string::npos)
        << distributed.output;
    EXPECT_EQ(distributed.output.find("warning"), std::string::npos) << distributed.output;
    RunPair runs{ReadSummary(one), ReadSummary(two)};
    EXPECT_EQ(runs.one["bytes_delivered"], runs.one["bytes_expected"]);
    EXPECT_EQ(runs.two["processes"].size(), 2u);
    for (const auto& process : runs.two["processes"])
    {
        EXPECT_GT(process["events"].get<uint64_t>(), 0u) << runs.two["processes"];
    }
    return runs;
}

const std::string kClos = "--fabric=" + kSource + "/fabrics/clos-2tier-32.yaml --stop=20ms";
/** Nodes and ports of clos-2tier-32: each process also initialises the other's. */
constexpr uint64_t kClosNodes = 38;
constexpr uint64_t kClosPorts = 80;

} // namespace

TEST(IncastMpi, ClosHalvesGiveTheSequentialFiguresUnderTheGrantedTimeWindow)
{
    // The receiver is the last rank and the senders the first sixteen: every byte crosses
    // the cut between the leaves and half of the spines.
    for (const std::string cc : {"none", "dcqcn"})
    {
        const RunPair runs = RunBoth(
            "clos-" + cc, kClos + " --size=1MiB --cc=" + cc, "--mpi-engine=granted-time-window");
        EXPECT_EQ(Figures(runs.one), Figures(runs.two)) << cc;
        // The same events, and the second process's initialisation of every node and port
        // and its stop event.
        EXPECT_EQ(runs.two["events"].get<uint64_t>(),
                  runs.one["events"].get<uint64_t>() + kClosNodes + kClosPorts + 1);
        EXPECT_GT(runs.one["pfc_pause_frames"].get<uint64_t>(), 0u) << cc;
    }
}

TEST(IncastMpi, NullMessagesDeliverEveryByteInTheSameTimeToAPercent)
{
    // Null messages order frames that arrive at the same picosecond differently.
    const RunPair runs = RunBoth("clos-null", kClos + " --size=1MiB", "--mpi-engine=null-message");
    EXPECT_EQ(runs.two["bytes_delivered"], runs.one["bytes_delivered"]);
    const double one = runs.one["completion_time_ns"].get<double>();
    EXPECT_NEAR(runs.two["completion_time_ns"].get<double>(), one, one * 0.01);
}

TEST(IncastMpi, NullMessagesCarryFramesSentBeforeTheRun)
{
    // Without --fabric the cut is at the switch: each sender's first frame crosses
    // processes as its message is posted, before the run has set up null messages.
    const RunPair runs =
        RunBoth("star-null", "--senders=4 --size=64KiB --stop=1ms", "--mpi-engine=null-message");
    EXPECT_EQ(runs.two["bytes_delivered"], runs.one["bytes_delivered"]);
    EXPECT_EQ(runs.two["completion_time_ns"], runs.one["completion_time_ns"]);
}

TEST(IncastMpi, ACutAtTheSwitchPermutesOnlyTiesBetweenSenders)
{
    // The switch on one process, half the senders on the other, a small buffer: the
    // switch pauses senders across the cut. Senders' frames reach it at the same
    // picoseconds, and the two processes order such ties differently from one: the
    // per-sender figures swap between senders, every total stays.
    const RunPair runs = RunBoth("star-pfc", "--senders=8 --size=512KiB --buffer=1MiB", "");
    nlohmann::json one = Figures(runs.one);
    nlohmann::json two = Figures(runs.two);
    EXPECT_GT(one["pfc_pause_frames"].get<uint64_t>(), 0u);
    EXPECT_EQ(Unnamed(one["flows"], "sender"), Unnamed(two["flows"], "sender"));
    EXPECT_EQ(Unnamed(one["ports"], "port"), Unnamed(two["ports"], "port"));
    const double mean = one["mean_queue_bytes"].get<double>();
    EXPECT_NEAR(two["mean_queue_bytes"].get<double>(), mean, mean * 0.002);
    for (const char* key : {"flows", "ports", "mean_queue_bytes"})
    {
        one.erase(key);
        two.erase(key);
    }
    EXPECT_EQ(one, two);
}

TEST(IncastMpi, APartitionFileSplitsTheFabric)
{
    std::string text = "# the switch and the receiver on process 0\nswitch 0\nreceiver 0\n";
    for (int i = 1; i <= 4; ++i)
    {
        text += "sender" + std::to_string(i) + " " + std::to_string(i % 2) + "\n";
    }
    const std::string path = TempPath("star.partition");
    std::ofstream(path) << text;
    const RunPair runs = RunBoth("star-file", "--senders=4 --size=128KiB", "--partition=" + path);
    EXPECT_NE(runs.two["partition"].get<std::string>().find(
                  "from " + path + "); nodes/NPUs 4/3, 2/2; 2 of 5 links cut, lookahead 1us"),
              std::string::npos)
        << runs.two["partition"];
    EXPECT_EQ(Unnamed(runs.one["flows"], "sender"), Unnamed(runs.two["flows"], "sender"));
    EXPECT_EQ(runs.one["completion_time_ns"], runs.two["completion_time_ns"]);
}

TEST(IncastMpi, OptionsOneProcessCannotHonourAreRefused)
{
    const ProgramRun alone = RunProgram(kIncast + " --senders=2 --partition=/dev/null");
    EXPECT_EQ(alone.status, 2) << alone.output;
    EXPECT_EQ(alone.output,
              "error: --partition=/dev/null: only under mpirun, with two processes or more\n");
    const auto refused = [](const std::string& options, const std::string& error)
    {
        const ProgramRun run = RunProgram(kMpiexec + kIncast + " --senders=2 " + options);
        EXPECT_NE(run.status, 0) << run.output;
        // Each process that met the error says so, in the same line.
        std::istringstream lines(run.output);
        std::string line;
        size_t errors = 0;
        while (std::getline(lines, line))
        {
            if (line.rfind("error: ", 0) == 0)
            {
                EXPECT_EQ(line.find("error: " + error), 0u) << line;
                ++errors;
            }
        }
        EXPECT_GE(errors, 1u) << run.output;
    };
    refused("--fail=switch--receiver@1us", "--fail: link failures run in one process");
    refused("--mpi-engine=yawns", "--mpi-engine: 'yawns' is not an engine");
    refused("--cc=all", "--cc: ns-3's distributed simulator runs one simulation");
    refused("--partition=" + kSource + "/fabrics",
            "--partition: " + kSource + "/fabrics: is a directory");
}
