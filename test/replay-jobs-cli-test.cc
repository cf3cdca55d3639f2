/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// chakra-replay with several --job options: the job table, CSV and JSON with each job's
// figures and its slowdown against running alone on the three backends, and one line
// "error: job '...': ..." with exit status 2 for a job that does not fit the fabric.

#include "program-run.h"
#include "replay-test-support.h"
#include "text-lines.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

const std::string kRing8 = kAstra + "network/analytical/Ring_8npus.yml";

ProgramRun
Replay(const std::string& args)
{
    return RunProgram(std::string(MLFABRIC_EXAMPLES_DIR) + "/chakra-replay --progress=0 " + args);
}

/** Expect exit status 2 and a single "error: ..." line containing \p part. */
void
ExpectError(const ProgramRun& run, const std::string& part)
{
    EXPECT_EQ(run.status, 2) << run.output;
    EXPECT_EQ(run.output.rfind("error: ", 0), 0u) << run.output;
    EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << run.output;
    EXPECT_NE(run.output.find(part), std::string::npos) << run.output;
}

/** A 4-rank all-reduce of 1 MiB in \p dir; \return its prefix. */
std::string
AllReduce4(const ettest::ScratchDir& dir)
{
    const std::string prefix = dir.File("ar4");
    for (uint32_t r = 0; r < 4; ++r)
    {
        WriteRank(prefix, r, {Collective(1, EtCollectiveType::ALL_REDUCE, 1 << 20)});
    }
    return prefix;
}

} // namespace

TEST(ReplayJobsCli, InterleavedRingsShareLinksOnlyWhenTheModelSeesThem)
{
    ettest::ScratchDir dir;
    const std::string w = AllReduce4(dir);
    // On a ring of 8, ranks on the even NPUs and ranks on the odd ones send over the
    // same links: 0 -> 2 and 1 -> 3 both cross link 1 -> 2.
    const std::string jobs = " --fabric=" + kRing8 + " --job=" + w + ",npus=0,2,4,6,name=even" +
                             " --job=" + w + ",npus=1,3,5,7,name=odd --alone" +
                             // the analytical models have no switch or NIC latency
                             " --ns3::SwitchPipeline::Latency=0ns"
                             " --ns3::SwitchPipeline::Mode=StoreAndForward"
                             " --ns3::RdmaNic::TransmitLatency=0ns"
                             " --ns3::RdmaNic::ReceiveLatency=0ns";
    for (const std::string backend : {"analytical", "analytical-aware", "packet"})
    {
        SCOPED_TRACE(backend);
        const std::string summary = dir.File(backend + ".json");
        const std::string csv = dir.File(backend + ".csv");
        const ProgramRun run =
            Replay("--backend=" + backend + jobs + " --summary=" + summary + " --csv=" + csv);
        ASSERT_EQ(run.status, 0) << run.output;
        EXPECT_NE(run.output.find("chakra-replay: 2 jobs (8 ranks, 8 nodes) on Ring_8npus"),
                  std::string::npos)
            << run.output;
        EXPECT_NE(run.output.find("job even: " + w + ", 4 ranks on NPUs 0,2,4,6 (dimensions 4)"),
                  std::string::npos)
            << run.output;
        EXPECT_NE(run.output.find("slowdown"), std::string::npos) << run.output;

        nlohmann::json j;
        std::ifstream(summary) >> j;
        ASSERT_EQ(j["jobs"].size(), 2u);
        EXPECT_TRUE(j["completed"].get<bool>());
        EXPECT_FALSE(j.contains("ranks"));
        for (const auto& job : j["jobs"])
        {
            EXPECT_EQ(job["ranks"].size(), 4u);
            EXPECT_EQ(job["collectives"].size(), 1u);
            EXPECT_EQ(job["collective_count"].get<uint64_t>(), 1u);
            EXPECT_GT(job["finish_ns"].get<double>(), 0);
            EXPECT_DOUBLE_EQ(job["exposed_comm_ns"].get<double>(), job["finish_ns"].get<double>());
            // Congestion-unaware: links are not shared. Congestion-aware: a message
            // holds one link at a time, so the two rings' messages cross link 1 -> 2 one
            // after the other. Packet level: both stream over it at once, half each, so
            // the transfers take twice as long and the link latencies do not.
            const double slowdown = job["slowdown"].get<double>();
            if (std::string(backend) == "packet")
            {
                EXPECT_GT(slowdown, 1.6);
                EXPECT_LT(slowdown, 2.0);
            }
            else
            {
                EXPECT_DOUBLE_EQ(slowdown, 1.0);
            }
        }
        EXPECT_EQ(j["jobs"][1]["ranks"][2]["npu"].get<uint32_t>(), 5u);

        const auto ranks = Lines(csv);
        ASSERT_EQ(ranks.size(), 9u);
        EXPECT_EQ(ranks[0].rfind("job,npu,rank,finished,finish_ns,", 0), 0u) << ranks[0];
        EXPECT_EQ(ranks[8].rfind("odd,7,3,1,", 0), 0u) << ranks[8];
        const auto collectives = Lines(dir.File(backend + ".collectives.csv"));
        ASSERT_EQ(collectives.size(), 3u);
        EXPECT_EQ(collectives[1].rfind("even,0,ALL_REDUCE,1048576,all,", 0), 0u);
        const auto figures = Lines(dir.File(backend + ".jobs.csv"));
        ASSERT_EQ(figures.size(), 3u);
        EXPECT_EQ(figures[2].rfind("odd," + w + ",4,\"1,3,5,7\",1,", 0), 0u) << figures[2];
    }
}

TEST(ReplayJobsCli, AJobThatDoesNotFitIsOneErrorNamingIt)
{
    ettest::ScratchDir dir;
    const std::string w = AllReduce4(dir);
    const std::string fabric = " --backend=analytical --fabric=" + kRing8;
    ExpectError(Replay(fabric + " --job=" + w + ",npus=0-3,name=a --job=" + w + ",npus=2-5,name=b"),
                "error: job 'b': NPU 2 is also given to job 'a'");
    ExpectError(Replay(fabric + " --job=" + w + ",npus=0-2,name=a"),
                "error: job 'a': workload " + w + " has 4 ranks but npus= lists 3 NPUs");
    ExpectError(Replay(fabric + " --job=" + w + ",npus=5-8,name=a"),
                "error: job 'a': NPU 8 is out of range (the fabric has 8 NPUs, 0-7)");
    ExpectError(Replay(fabric + " --job=" + w + " --job=" + w + " --job=" + w),
                "error: job 'job2': workload " + w +
                    " has 4 ranks but only 0 of the fabric's 8 NPUs are left for it");
    ExpectError(Replay(fabric + " --job=" + dir.File("none") + ",name=gone"),
                "error: job 'gone': ");
    ExpectError(Replay(fabric + " --job=" + w + ",color=red"), "unknown key 'color'");
    ExpectError(Replay(fabric + " --workload=" + w + " --job=" + w), "--workload: ");
    ExpectError(Replay(fabric + " --job=" + w + " --comm-group=empty"), "--comm-group: ");
    ExpectError(Replay(fabric + " --workload=" + w + " --alone"), "--alone: ");
}
