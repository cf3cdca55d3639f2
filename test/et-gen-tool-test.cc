/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The et-gen program: files written, its report and summary, and exit status 2 with a
// one-line error for every kind of bad input.
#include "et-test-support.h"

#include "ns3/et-rank-files.h"
#include "ns3/gen-workload.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>

using namespace ns3;
using namespace ns3::ettest;

namespace
{

/** Output and exit status of a program run. */
struct RunResult
{
    int status{-1};     //!< exit status
    std::string output; //!< stdout and stderr
};

/** \param arguments et-gen's arguments \return its output and status */
RunResult
RunEtGen(const std::string& arguments)
{
    const std::string command = std::string(MLFABRIC_TOOLS_DIR) + "/et-gen " + arguments + " 2>&1";
    RunResult result;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr)
    {
        return result;
    }
    char buffer[4096];
    size_t n = 0;
    while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
    {
        result.output.append(buffer, n);
    }
    const int raw = pclose(pipe);
    result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return result;
}

/** Expect status 2 and an "error: ..." line holding every part. */
void
ExpectUsageError(const std::string& arguments, std::initializer_list<std::string> parts)
{
    SCOPED_TRACE(arguments);
    const RunResult run = RunEtGen(arguments);
    EXPECT_EQ(run.status, 2) << run.output;
    EXPECT_NE(run.output.find("error: "), std::string::npos) << run.output;
    for (const auto& part : parts)
    {
        EXPECT_NE(run.output.find(part), std::string::npos) << run.output;
    }
}

} // namespace

TEST(EtGenTool, WritesTheDocumentedTransformerExample)
{
    ScratchDir dir;
    const std::string prefix = dir.File("gpt");
    const RunResult run =
        RunEtGen("transformer --npus=8 --tp=2 --pp=2 --dp=2 --layers=4 --hidden=1024 --seq=512 "
                 "--micro-batch=1 --global-batch=8 --out=" +
                 prefix + " --summary=" + dir.File("summary.json"));
    ASSERT_EQ(run.status, 0) << run.output;
    EXPECT_EQ(DiscoverEtRankCount(prefix), 8u);
    EXPECT_TRUE(std::filesystem::exists(CommGroupFilePath(prefix)));
    EXPECT_NE(run.output.find("transformer: 8 ranks, 8 communicator groups"), std::string::npos)
        << run.output;
    const auto summary = nlohmann::json::parse(ReadBytes(dir.File("summary.json")));
    EXPECT_EQ(summary["ranks"], 8);
    // Each rank: 4 micro-batches × (4 × 2 layers + embedding or head) = 36 TP all-reduces.
    // DP with 25 MiB buckets: the first stage's 25.2 MB of layer gradients wait for the
    // 53.5 MB embedding (one bucket); on the last stage the 53.5 MB head closes a bucket
    // alone and its layers make a second.
    EXPECT_EQ(summary["collectives"], 8 * 36 + 4 * 1 + 4 * 2);
    EXPECT_EQ(summary["sends"], 32); // 4 micro-batches × 2 directions × 4 stage pairs
    EXPECT_EQ(summary["send_bytes"], 32 * 1048576);
}

TEST(EtGenTool, EveryKindRunsWithItsDefaults)
{
    ScratchDir dir;
    for (const std::string kind : {"microbench", "transformer", "dlrm", "resnet50"})
    {
        const RunResult run = RunEtGen(kind + " --out=" + dir.File(kind));
        EXPECT_EQ(run.status, 0) << run.output;
        EXPECT_EQ(DiscoverEtRankCount(dir.File(kind)), 8u) << kind;
    }
    const RunResult help = RunEtGen("transformer --help");
    EXPECT_EQ(help.status, 0);
    EXPECT_NE(help.output.find("--sequence-parallel"), std::string::npos) << help.output;
}

TEST(EtGenTool, ASmallerWorkloadReplacesALargerOneUnderTheSamePrefix)
{
    ScratchDir dir;
    const std::string prefix = dir.File("ar");
    ASSERT_EQ(RunEtGen("microbench --npus=16 --out=" + prefix).status, 0);
    const RunResult run = RunEtGen("microbench --npus=4 --out=" + prefix);
    ASSERT_EQ(run.status, 0) << run.output;
    EXPECT_NE(run.output.find("deleted 12 rank files"), std::string::npos) << run.output;
    EXPECT_EQ(DiscoverEtRankCount(prefix), 4u);
}

TEST(EtGenTool, BadInputExitsWithStatus2AndNamesTheParameter)
{
    ScratchDir dir;
    const std::string out = " --out=" + dir.File("w");
    ExpectUsageError("", {"workload kind"});
    ExpectUsageError("lstm" + out, {"unknown workload kind 'lstm'"});
    ExpectUsageError("transformer --npus=8 --tp=2 --pp=2 --dp=1" + out, {"--npus", "--tp"});
    ExpectUsageError("transformer --layers=5" + out, {"--layers", "--pp"});
    ExpectUsageError("transformer --hidden=0" + out, {"--hidden"});
    ExpectUsageError("transformer --precision=int3" + out, {"--precision"});
    ExpectUsageError("transformer --tp=two" + out, {"--tp", "whole number"});
    ExpectUsageError("transformer --sharding=zero3" + out, {"--sharding"});
    ExpectUsageError("microbench --size=0" + out, {"--size"});
    ExpectUsageError("microbench --collective=allgather" + out, {"--collective"});
    ExpectUsageError("microbench --involved-dims=1,2" + out, {"--involved-dims"});
    ExpectUsageError("microbench --colective=all_reduce" + out, {"--colective"});
    ExpectUsageError("dlrm --tables=10" + out, {"--tables"});
    ExpectUsageError("resnet50 --npus=0" + out, {"--npus"});
    ExpectUsageError("microbench", {"--out"});
    ExpectUsageError("microbench --out=" + dir.File("missing/w"), {"--out", "missing"});
    EXPECT_FALSE(std::filesystem::exists(EtRankFilePath(dir.File("w"), 0)));
}

TEST(EtGenTool, ShippedTracesRegenerateBitForBitFromTheirDocumentedCommands)
{
    // The commands of doc/workloads.md, "Bundled workloads".
    const std::vector<std::pair<std::string, std::string>> shipped = {
        {"gpt-16npu/gpt",
         "transformer --npus=16 --tp=4 --pp=2 --dp=2 --layers=4 --hidden=1024 --heads=16 "
         "--seq=512 --micro-batch=1 --global-batch=4 --vocab=8192 --bucket-size=8MiB"},
        {"gpt-1.7b-16npu/gpt",
         "transformer --npus=16 --tp=4 --pp=2 --dp=2 --layers=8 --hidden=4096 --heads=32 "
         "--seq=2048 --micro-batch=1 --global-batch=8 --vocab=32768 --bucket-size=25MiB"},
        {"allreduce-8npu/allreduce", "microbench --npus=8 --collective=all_reduce --size=1MiB"},
    };
    ScratchDir dir;
    for (const auto& [name, arguments] : shipped)
    {
        SCOPED_TRACE(name);
        const std::string ours = std::string(MLFABRIC_SOURCE_DIR) + "/traces/" + name;
        const std::string fresh = dir.File(name.substr(name.find('/') + 1));
        const RunResult run = RunEtGen(arguments + " --out=" + fresh);
        ASSERT_EQ(run.status, 0) << run.output;
        const uint32_t ranks = DiscoverEtRankCount(fresh);
        EXPECT_EQ(DiscoverEtRankCount(ours), ranks);
        for (uint32_t r = 0; r < ranks; ++r)
        {
            EXPECT_EQ(ReadBytes(EtRankFilePath(ours, r)), ReadBytes(EtRankFilePath(fresh, r)))
                << "rank " << r;
        }
        EXPECT_EQ(ReadBytes(CommGroupFilePath(ours)), ReadBytes(CommGroupFilePath(fresh)));
    }
}
