/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// hpcc-compat writes FCT_OUTPUT_FILE, PFC_OUTPUT_FILE and QLEN_MON_FILE where the
// configuration says, relative to the working directory as the HPCC simulator opens
// them; a missing folder is one error naming the key, exit status 2.

#include "program-run.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace
{

namespace fs = std::filesystem;

/** A scratch working directory with a two-host topology, one flow and a config. */
class HpccOutputPaths : public testing::Test
{
  protected:
    void
    SetUp() override
    {
        // One folder per test: ctest runs the tests of this file at the same time.
        m_dir = fs::path(testing::TempDir()) /
                (std::string("hpcc-output-paths-") +
                 testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir / "in");
        // Hosts 0 and 1 on switch 2; one 10 kB flow from 0 to 1 at 2 s.
        std::ofstream(m_dir / "in" / "topology.txt")
            << "3 1 2\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 1000ns 0\n";
        std::ofstream(m_dir / "in" / "flows.txt") << "1\n0 1 3 100 10000 2.0\n";
    }

    /** Write the config with \p outputs (its output keys) and run in the scratch folder. */
    ProgramRun
    Run(const std::string& outputs)
    {
        const fs::path config = m_dir / "in" / "config.txt";
        std::ofstream(config) << "TOPOLOGY_FILE topology.txt\nFLOW_FILE flows.txt\nCC_MODE 1\n"
                              << outputs << "SIMULATOR_STOP_TIME 3\n"
                              << "QLEN_MON_START 2000000000\nQLEN_MON_END 2001000000\n"
                              << "RP_TIMER 300\nEWMA_GAIN 0.00390625\nRATE_AI 20Mb/s\n"
                              << "RATE_HAI 200Mb/s\nHAS_WIN 0\nMULTI_RATE 0\n"
                              << "KMAX_MAP 1 100000000000 1600\nKMIN_MAP 1 100000000000 400\n"
                              << "PMAX_MAP 1 100000000000 0.2\n";
        return RunProgram("cd " + m_dir.string() + " && " + MLFABRIC_EXAMPLES_DIR +
                          "/hpcc-compat --progress=0 --config=in/config.txt");
    }

    fs::path m_dir; //!< the working directory of the runs
};

} // namespace

TEST_F(HpccOutputPaths, RelativePathsAreRelativeToTheWorkingDirectory)
{
    fs::create_directories(m_dir / "mix");
    const ProgramRun run =
        Run("FCT_OUTPUT_FILE mix/fct.txt\nPFC_OUTPUT_FILE mix/pfc.txt\nQLEN_MON_FILE q.txt\n");
    ASSERT_EQ(run.status, 0) << run.output;
    // The simulator's FCT line: src dst sport dport size start fct standalone-fct.
    std::ifstream fct(m_dir / "mix" / "fct.txt");
    std::string line;
    ASSERT_TRUE(std::getline(fct, line)) << run.output;
    EXPECT_NE(line.find(" 10000 2000000000 "), std::string::npos) << line;
    EXPECT_TRUE(fs::is_regular_file(m_dir / "mix" / "pfc.txt"));
    EXPECT_TRUE(fs::is_regular_file(m_dir / "q.txt"));
    // Nothing beside the config, nothing under bare names in the working directory.
    EXPECT_FALSE(fs::exists(m_dir / "in" / "mix"));
    EXPECT_FALSE(fs::exists(m_dir / "fct.txt"));
}

TEST_F(HpccOutputPaths, AbsentKeysKeepTheSimulatorsDefaults)
{
    const ProgramRun run = Run("");
    ASSERT_EQ(run.status, 0) << run.output;
    EXPECT_TRUE(fs::is_regular_file(m_dir / "fct.txt"));
    EXPECT_TRUE(fs::is_regular_file(m_dir / "pfc.txt"));
    EXPECT_TRUE(fs::is_regular_file(m_dir / "qlen.txt"));
}

TEST_F(HpccOutputPaths, AMissingFolderIsOneErrorNamingTheKey)
{
    fs::create_directories(m_dir / "mix");
    const std::pair<std::string, std::string> cases[] = {
        {"FCT_OUTPUT_FILE nowhere/fct.txt\n",
         "error: in/config.txt:4: FCT_OUTPUT_FILE nowhere/fct.txt: folder nowhere does not "
         "exist"},
        {"PFC_OUTPUT_FILE mix/deeper/pfc.txt\n",
         "error: in/config.txt:4: PFC_OUTPUT_FILE mix/deeper/pfc.txt: folder mix/deeper does "
         "not exist"},
        {"QLEN_MON_FILE mix\n", "error: in/config.txt:4: QLEN_MON_FILE mix: is a folder"},
    };
    for (const auto& [outputs, message] : cases)
    {
        const ProgramRun run = Run(outputs);
        EXPECT_EQ(run.status, 2) << outputs << run.output;
        EXPECT_EQ(run.output.rfind(message, 0), 0u) << outputs << run.output;
        EXPECT_EQ(run.output.find('\n'), run.output.size() - 1) << run.output;
    }
}
