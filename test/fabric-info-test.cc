/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The fabric-info program: figures as JSON, a Graphviz file, one-line errors with
// exit status 2.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace
{

const std::string kProgram = std::string(MLFABRIC_EXAMPLES_DIR) + "/fabric-info";
const std::string kSource = MLFABRIC_SOURCE_DIR;

/** Run the program with \p args; return its exit status and fill \p output (stdout+stderr). */
int
RunProgram(const std::string& args, std::string& output, bool stderrOnly = false)
{
    const std::string command = kProgram + " " + args + (stderrOnly ? " 2>&1 >/dev/null" : " 2>&1");
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr)
    {
        return -1;
    }
    output.clear();
    char buffer[4096];
    size_t n = 0;
    while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
    {
        output.append(buffer, n);
    }
    const int status = pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::filesystem::path
TempDir()
{
    const auto dir = std::filesystem::temp_directory_path() / "mlfabric-fabric-info-test";
    std::filesystem::create_directories(dir);
    return dir;
}

} // namespace

TEST(FabricInfo, WritesFiguresAndPicture)
{
    ASSERT_TRUE(std::filesystem::exists(kProgram)) << "build the example-fabric-info target";
    const auto dir = TempDir();
    const std::string summary = (dir / "two-dim.json").string();
    const std::string dot = (dir / "two-dim.dot").string();
    std::string output;
    ASSERT_EQ(RunProgram("--fabric=" + kSource + "/fabrics/two-dim-8x4.yaml --svg=0 --dot=" + dot +
                             " --summary=" + summary,
                         output),
              0)
        << output;
    EXPECT_NE(output.find("bisection bandwidth"), std::string::npos) << output;
    const nlohmann::json json = nlohmann::json::parse(std::ifstream(summary));
    EXPECT_EQ(json["npus"], 32);
    EXPECT_EQ(json["switches"], 12);
    EXPECT_EQ(json["links"], 80);
    EXPECT_EQ(json["diameter_hops"], 4);
    // 2 servers x 8 GPUs x 400 Gb/s cross the halves, limited by 2 leaves x 4 spines.
    EXPECT_EQ(json["bisection_bps"], 2ULL * 4 * 400000000000ULL);
    EXPECT_EQ(json["rank_halves_cut_bps"], json["bisection_bps"]);
    EXPECT_EQ(json["cdg_cyclic"], false);
    std::ifstream picture(dot);
    std::string first;
    std::getline(picture, first);
    EXPECT_EQ(first, "graph \"two-dim-8x4\" {");
}

TEST(FabricInfo, ReportsTheRingCycleAndHpccCounts)
{
    ASSERT_TRUE(std::filesystem::exists(kProgram));
    const auto dir = TempDir();
    std::string output;
    const std::string ring = (dir / "ring.json").string();
    ASSERT_EQ(RunProgram("--fabric=" + kSource + "/fabrics/ring-8.yaml --svg=0 --dot=" +
                             (dir / "ring.dot").string() + " --summary=" + ring,
                         output),
              0)
        << output;
    EXPECT_EQ(nlohmann::json::parse(std::ifstream(ring))["cdg_cyclic"], true);
    const std::string fat = (dir / "fat.json").string();
    ASSERT_EQ(RunProgram("--fabric=" MLFABRIC_SHARED_DIR "/data/hpcc/fat.txt --svg=0 --dot=" +
                             (dir / "fat.dot").string() + " --summary=" + fat,
                         output),
              0)
        << output;
    const nlohmann::json json = nlohmann::json::parse(std::ifstream(fat));
    EXPECT_EQ(json["npus"], 320);
    EXPECT_EQ(json["switches"], 56);
    EXPECT_EQ(json["links"], 480);
    EXPECT_EQ(json["format"], "hpcc");
}

TEST(FabricInfo, BadInputExitsTwoWithOneLine)
{
    ASSERT_TRUE(std::filesystem::exists(kProgram));
    const auto dir = TempDir();
    const std::string bad = (dir / "bad.yml").string();
    std::ofstream(bad)
        << "topology: [ Ring ]\nnpus_count: [ 1 ]\nbandwidth: [ 50 ]\nlatency: [ 5 ]\n";
    for (const std::string& args :
         {"--fabric=" + bad,
          std::string("--fabric=/nonexistent/fabric.yaml"),
          std::string("--fabrik=x.yaml"),
          std::string(""),
          "--fabric=" + kSource + "/fabrics/ring-8.yaml --routing=dimension-order --dot=" +
              (dir / "r.dot").string() + " --routing=best"})
    {
        std::string err;
        EXPECT_EQ(RunProgram(args, err, true), 2) << args << ": " << err;
        EXPECT_EQ(err.rfind("error: ", 0), 0u) << err;
        EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    }
    std::string err;
    RunProgram("--fabric=" + bad, err, true);
    EXPECT_NE(err.find("bad.yml:2: npus_count[0]"), std::string::npos) << err;
}
