/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// A run of the HPCC simulator's inputs across two MPI processes writes the fct.txt,
// pfc.txt and qlen.txt of the same run in one process, byte for byte, and the same
// summary figures: on its 320-host fat tree, under DCQCN and HPCC, on two processes and
// on four.

#include "program-run.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace
{

const std::string kCompat = std::string(MLFABRIC_EXAMPLES_DIR) + "/hpcc-compat";
const std::string kInputs = std::string(MLFABRIC_SOURCE_DIR) + "/examples/inputs/hpcc/";
/** \return the command that starts \p processes MPI processes */
std::string
Mpiexec(uint32_t processes)
{
    // Open MPI refuses root unless told; CI runs as root.
    return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " +
           std::string(MLFABRIC_MPIEXEC) + " -n " + std::to_string(processes) + " --oversubscribe ";
}

const std::string kMpiexec = Mpiexec(2);

/** \return the test's temporary folder \p name, created */
std::string
TempDir(const std::string& name)
{
    const auto dir = std::filesystem::temp_directory_path() / "mlfabric-hpcc-mpi-test" / name;
    std::filesystem::create_directories(dir);
    return dir.string();
}

/** \return what \p path holds */
std::string
ReadText(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/**
 * Write a copy of the configuration \p name with 3 MB switch buffers (so that PFC
 * pauses) and the queue-length window [start, end] ns, and the first \p flows flows of
 * the shipped flow file, into \p dir.
 * \return the options that run them
 */
std::string
Inputs(const std::string& dir,
       const std::string& name,
       uint64_t qlenStartNs,
       uint64_t qlenEndNs,
       size_t flows)
{
    const std::map<std::string, std::string> changed = {
        {"BUFFER_SIZE", "3"},
        {"QLEN_MON_START", std::to_string(qlenStartNs)},
        {"QLEN_MON_END", std::to_string(qlenEndNs)}};
    std::istringstream config(ReadText(kInputs + name));
    std::ofstream copy(dir + "/config.txt");
    std::string line;
    while (std::getline(config, line))
    {
        const auto it = changed.find(line.substr(0, line.find(' ')));
        copy << (it == changed.end() ? line : it->first + " " + it->second) << '\n';
    }
    std::istringstream all(ReadText(kInputs + "flows_websearch_320h_30pct_2ms.txt"));
    std::getline(all, line);
    std::ofstream first(dir + "/flows.txt");
    first << flows << '\n';
    for (size_t i = 0; i < flows && std::getline(all, line); ++i)
    {
        first << line << '\n';
    }
    return "--config=" + dir + "/config.txt --topology=" + kInputs + "fat.txt --flows=" + dir +
           "/flows.txt --progress=0";
}

/** \return \p summary without what measures the host, the engine or the paths */
nlohmann::json
Figures(nlohmann::json summary)
{
    for (const char* key : {"wall_seconds",
                            "setup_wall_seconds",
                            "events_per_second",
                            "events",
                            "peak_rss_mib",
                            "partition",
                            "processes",
                            "config",
                            "flow_file",
                            "fct_file",
                            "pfc_file",
                            "qlen_file"})
    {
        summary.erase(key);
    }
    return summary;
}

/** A run in one process and across two, of the same inputs, and what each wrote. */
struct RunPair
{
    nlohmann::json one;             //!< the sequential run's summary
    nlohmann::json two;             //!< the distributed run's summary
    std::string oneDir;             //!< the sequential run's outputs
    std::string twoDir;             //!< the distributed run's outputs
    std::vector<std::string> files; //!< the output file names
};

/** Run \p options in one process, then across \p processes with \p mpi added. */
RunPair
RunBoth(const std::string& name,
        const std::string& options,
        const std::string& mpi,
        uint32_t processes = 2)
{
    RunPair runs;
    runs.oneDir = TempDir(name + "/one");
    runs.twoDir = TempDir(name + "/two");
    const ProgramRun one = RunProgram(kCompat + " " + options + " --out-dir=" + runs.oneDir +
                                      " --summary=" + runs.oneDir + "/summary.json");
    EXPECT_EQ(one.status, 0) << one.output;
    const ProgramRun two =
        RunProgram(Mpiexec(processes) + kCompat + " " + options + " " + mpi +
                   " --out-dir=" + runs.twoDir + " --summary=" + runs.twoDir + "/summary.json");
    EXPECT_EQ(two.status, 0) << two.output;
    EXPECT_NE(two.output.find("partition: " + std::to_string(processes) + " processes"),
              std::string::npos)
        << two.output;
    runs.one = nlohmann::json::parse(ReadText(runs.oneDir + "/summary.json"));
    runs.two = nlohmann::json::parse(ReadText(runs.twoDir + "/summary.json"));
    EXPECT_EQ(runs.two["processes"].size(), processes);
    for (const char* key : {"fct_file", "pfc_file", "qlen_file"})
    {
        runs.files.push_back(
            std::filesystem::path(runs.one[key].get<std::string>()).filename().string());
    }
    return runs;
}

/** Expect every figure and every output file of \p runs to be equal. */
void
ExpectEqual(const RunPair& runs)
{
    EXPECT_EQ(Figures(runs.one), Figures(runs.two));
    for (const std::string& file : runs.files)
    {
        const std::string one = ReadText(runs.oneDir + "/" + file);
        EXPECT_FALSE(one.empty()) << file;
        EXPECT_EQ(one, ReadText(runs.twoDir + "/" + file)) << file;
    }
    EXPECT_GT(runs.one["pfc_pauses"].get<uint64_t>(), 0u);
}

/** The first flows of the shipped flow file: they start within 0.2 ms. */
constexpr size_t kFlows = 150;

/**
 * Run the DCQCN configuration (its queue window at 3.9 s: the network drains long
 * before) on the first flows in one process and across \p processes with \p mpi, and
 * expect the same figures and files.
 */
RunPair
ExpectDcqcnEqual(const std::string& name, const std::string& mpi, uint32_t processes = 2)
{
    const std::string dir = TempDir(name);
    const RunPair runs = RunBoth(
        name,
        Inputs(dir, "config_fat_websearch_2ms_dcqcn.txt", 3'900'000'000, 3'900'000'000, kFlows),
        mpi,
        processes);
    ExpectEqual(runs);
    return runs;
}

} // namespace

TEST(HpccMpi, DcqcnOnTheFatTreeWritesTheSequentialFiles)
{
    const RunPair runs = ExpectDcqcnEqual("dcqcn", "");
    EXPECT_EQ(runs.one["flows_completed"].get<uint64_t>(), kFlows);
    EXPECT_EQ(runs.one["simulated_ns"].get<int64_t>(), 3'900'000'000);
}

TEST(HpccMpi, HpccWithAQueueWindowInTheTrafficWritesTheSequentialFiles)
{
    // The window closes while flows still run: both runs end at the last completion,
    // with the queues sampled every 100 ns on every switch of both processes before.
    const std::string dir = TempDir("hpcc");
    const RunPair runs = RunBoth(
        "hpcc",
        Inputs(dir, "config_fat_websearch_2ms_hpcc.txt", 2'000'000'000, 2'000'050'000, kFlows),
        "--mpi-engine=granted-time-window");
    ExpectEqual(runs);
    EXPECT_EQ(runs.one["flows_completed"].get<uint64_t>(), kFlows);
    EXPECT_EQ(runs.one["qlen_samples"].get<uint64_t>(), 501u);
    EXPECT_GT(runs.one["simulated_ns"].get<int64_t>(), 2'000'050'000);
    EXPECT_EQ(runs.one["simulated_ns"], runs.one["last_completion_ns"]);
}

TEST(HpccMpi, NullMessagesWriteTheSameFiles)
{
    // Frames that reach a switch at the same picosecond from both processes could be
    // served in another order under null messages; on these flows none do.
    const RunPair runs = ExpectDcqcnEqual("null", "--mpi-engine=null-message");
    EXPECT_NE(runs.two["partition"].get<std::string>().find("engine null-message"),
              std::string::npos);
}

TEST(HpccMpi, FourProcessesThatKeepEveryTorWholeWriteTheSequentialFiles)
{
    // 80 hosts a process: five ToRs each, the cut above them.
    const RunPair runs = ExpectDcqcnEqual("four", "", 4);
    EXPECT_NE(runs.two["partition"].get<std::string>().find("nodes/NPUs 89/80, 89/80, 109/80, "
                                                            "89/80; 64 of 480 links cut"),
              std::string::npos)
        << runs.two["partition"];
}

TEST(HpccMpi, OptionsOneProcessCannotHonourAreRefused)
{
    const std::string dir = TempDir("refused");
    const std::string options =
        Inputs(dir, "config_fat_websearch_2ms_dcqcn.txt", 3'900'000'000, 3'900'000'000, 4) +
        " --out-dir=" + dir;
    const ProgramRun alone = RunProgram(kCompat + " " + options + " --mpi-engine=null-message");
    EXPECT_EQ(alone.status, 2) << alone.output;
    EXPECT_NE(alone.output.find("error: --mpi-engine=null-message: only under mpirun"),
              std::string::npos)
        << alone.output;
    for (const std::string& refused :
         {std::string("--check-invariants=1"), std::string("--fail=host0--switch320@1us")})
    {
        const ProgramRun run = RunProgram(kMpiexec + kCompat + " " + options + " " + refused);
        EXPECT_NE(run.status, 0) << run.output;
        EXPECT_NE(run.output.find("error: " + refused.substr(0, refused.find('='))),
                  std::string::npos)
            << run.output;
    }
}
