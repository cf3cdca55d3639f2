/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Short runs of HPCC-simulator inputs: fct.txt against the analytical store-and-forward
// time of a flow alone, qlen.txt blocks, pfc.txt pauses and resumes.

#include "text-lines.h"

#include "ns3/hpcc-output-format.h"
#include "ns3/hpcc-run.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const std::string kData = std::string(MLFABRIC_SHARED_DIR) + "/data/hpcc/";

/** A folder of its own for one run's inputs and outputs. */
std::string
Folder(const std::string& name)
{
    const std::string dir = testing::TempDir() + name;
    std::system(("mkdir -p " + dir).c_str());
    return dir;
}

void
Write(const std::string& path, const std::string& text)
{
    std::ofstream(path) << text;
}

/**
 * A configuration on the example topology (switch 0, hosts 1..65, 100 Gb/s, 1 us):
 * the DCQCN of the fat-tree benchmark, no window, an ACK per packet.
 */
std::string
Config(const std::string& dir, const std::string& extra, uint32_t bufferMiB = 32)
{
    const std::string path = dir + "/config.txt";
    Write(path,
          "ENABLE_QCN 1\n"
          "PACKET_PAYLOAD_SIZE 1000\n"
          "TOPOLOGY_FILE " +
              kData +
              "topology.txt\n"
              "FLOW_FILE flows.txt\n"
              "FCT_OUTPUT_FILE mix/fct_test.txt\n"
              "PFC_OUTPUT_FILE mix/pfc_test.txt\n"
              "QLEN_MON_FILE mix/qlen_test.txt\n"
              "QLEN_MON_START 2000000000\n"
              "QLEN_MON_END 2000001000\n"
              "SIMULATOR_STOP_TIME 3\n"
              "ALPHA_RESUME_INTERVAL 1\n"
              "RATE_DECREASE_INTERVAL 4\n"
              "RP_TIMER 300\n"
              "EWMA_GAIN 0.00390625\n"
              "FAST_RECOVERY_TIMES 1\n"
              "RATE_AI 20Mb/s\n"
              "RATE_HAI 200Mb/s\n"
              "MIN_RATE 1000Mb/s\n"
              "L2_ACK_INTERVAL 1\n"
              "HAS_WIN 0\n"
              "MULTI_RATE 0\n"
              "KMAX_MAP 1 100000000000 1600\n"
              "KMIN_MAP 1 100000000000 400\n"
              "PMAX_MAP 1 100000000000 0.2\n"
              "BUFFER_SIZE " +
              std::to_string(bufferMiB) + "\n" + extra);
    return path;
}

HpccRunOptions
Options(const std::string& config, const std::string& dir, HpccFidelity fidelity)
{
    HpccRunOptions o;
    o.configPath = config;
    o.outDir = dir;
    o.fidelity = fidelity;
    o.progressSeconds = 0;
    return o;
}

/** Two flows that never meet: 100 packets 2 -> 1 at 2 s, 10 packets 3 -> 1 at 2.001 s. */
const char* const kTwoFlows = "2\n2 1 3 100 100000 2.0\n3 1 3 100 10000 2.001\n";

} // namespace

TEST(HpccRun, PeerFctIsTheStoreAndForwardTime)
{
    const std::string dir = Folder("hpcc-run-peer");
    Write(dir + "/flows.txt", kTwoFlows);
    const HpccRunResult r = RunHpcc(Options(Config(dir, "CC_MODE 1\n"), dir, HpccFidelity::Peer));
    ASSERT_EQ(r.completed, 2u);
    EXPECT_EQ(r.cc.scheme, "dcqcn-hpccns3");
    EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
    EXPECT_EQ(r.fctPath, dir + "/fct_test.txt");
    // Peer sizes: 1048-byte data frames take 83.84 ns at 100 Gb/s, 60-byte ACKs 4.8 ns.
    // n back-to-back packets through one switch: the last arrives (n + 1) frames and two
    // cable delays after the first left; its ACK takes two ACK frames and two delays.
    //   flow 1: 101 x 83.84 + 2 x 1000 + 2 x 4.8 + 2 x 1000 = 12477.44 ns
    //   flow 2:  11 x 83.84 + 4009.6                        =  4931.84 ns
    // Standalone (the simulator's formula): 4160 ns base RTT + n x 1048 B at 100 Gb/s.
    const auto lines = Lines(r.fctPath);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], "0b000201 0b000101 10000 100 100000 2000000000 12477 12544");
    EXPECT_EQ(lines[1], "0b000301 0b000101 10000 100 10000 2001000000 4931 4998");
    EXPECT_EQ(r.outcomes[0].received, PicoSeconds(101 * 83840 + 2'000'000));
    EXPECT_EQ(r.maxRtt, NanoSeconds(4160));
    EXPECT_EQ(r.maxBdp, 52000u);
    EXPECT_DOUBLE_EQ(r.slowdown.p99, 1.0); // both faster than the formula: clamped
    EXPECT_EQ(r.lastCompletion, Seconds(2.001) + PicoSeconds(4931840));
    EXPECT_EQ(r.ecnMarks, 0u);
    EXPECT_EQ(r.pfcPauses, 0u);
    // 110 data packets and their ACKs cross two cables each, one arrival event per frame
    // and cable: 440. A port comes back when its wire is free only if a frame waits: the
    // sender's, whose queue pair has the next packet ready (110); the switch and the
    // receiver never queue behind a frame here: 550. Starts, timers and the stop-flag
    // checks add little; two events per frame and cable would be 880.
    EXPECT_GT(r.events, 550u);
    EXPECT_LT(r.events, 880u);
    EXPECT_TRUE(Lines(r.pfcPath).empty());
}

TEST(HpccRun, PeerWindowIsTheBdpAndLeavesALoneFlowAlone)
{
    const std::string dir = Folder("hpcc-run-window");
    Write(dir + "/flows.txt", kTwoFlows);
    // HAS_WIN 1 is given after HAS_WIN 0: the later value wins, with a warning.
    const HpccRunResult r = RunHpcc(Options(
        Config(dir, "CC_MODE 1\nHAS_WIN 1\nVAR_WIN 1\nGLOBAL_T 0\n"), dir, HpccFidelity::Peer));
    ASSERT_EQ(r.completed, 2u);
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_NE(r.warnings[0].find("HAS_WIN given again"), std::string::npos);
    // The pair's BDP: 4160 ns at 100 Gb/s, 52 packets. A lone flow has at most 50
    // unacknowledged (its first ACK returns after 4177 ns), so its FCT stays the same.
    EXPECT_EQ(r.setups[0].windowBytes, 52000u);
    EXPECT_EQ(r.setups[0].baseRtt, NanoSeconds(4160));
    const auto lines = Lines(r.fctPath);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], "0b000201 0b000101 10000 100 100000 2000000000 12477 12544");
}

TEST(HpccRun, FaithfulFctIsTheCutThroughTimeOfRoceV2)
{
    const std::string dir = Folder("hpcc-run-faithful");
    Write(dir + "/flows.txt", kTwoFlows);
    const HpccRunResult r =
        RunHpcc(Options(Config(dir, "CC_MODE 1\n"), dir, HpccFidelity::Faithful));
    ASSERT_EQ(r.completed, 2u);
    EXPECT_EQ(r.cc.scheme, "dcqcn");
    // RoCEv2: 1082 wire bytes per data frame (86.56 ns), 86 per ACK (6.88 ns); the
    // default latencies (doc/latency.md): NIC pipelines 400 ns each way, a 300 ns switch
    // that cuts through after 64 bytes (5.12 ns, to the picosecond, of either frame).
    // The last data frame starts after 99 others and arrives after
    //   400 + 5.12 + 1000 + 300 + 86.56 + 1000 + 400 ns; its ACK returns in
    //   400 + 5.12 + 1000 + 300 + 6.88 + 1000 + 400 = 3112 ns.
    //   flow 1: 99 x 86.56 + 3191.68 + 3112 = 14873.12 ns
    //   flow 2:  9 x 86.56 + 3191.68 + 3112 =  7082.72 ns
    // Standalone: the network's base RTT, those two ways for one full frame (serialized
    // into the NIC only): 6303.68 ns (6303 whole ns), plus the flow with 82 bytes per
    // packet at 100 Gb/s.
    const auto lines = Lines(r.fctPath);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], "0b000201 0b000101 10000 100 100000 2000000000 14873 14959");
    EXPECT_EQ(lines[1], "0b000301 0b000101 10000 100 10000 2001000000 7082 7168");
    EXPECT_EQ(r.maxRtt, PicoSeconds(6'303'680));
}

TEST(HpccRun, QueueLengthBlocks)
{
    const std::string dir = Folder("hpcc-run-qlen");
    Write(dir + "/flows.txt", kTwoFlows);
    const HpccRunResult r = RunHpcc(Options(Config(dir, "CC_MODE 1\n"), dir, HpccFidelity::Peer));
    // Samples every 100 ns from 2 s to 2 s + 1 us: 11. A block at 2 s (a multiple of
    // 100 ms) and one after the last sample; one line per port of switch 0.
    EXPECT_EQ(r.qlenSamples, 11u);
    const auto lines = Lines(r.qlenPath);
    ASSERT_EQ(lines.size(), 2u * (1 + 65));
    EXPECT_EQ(lines[0], "time: 2000000000");
    EXPECT_EQ(lines[1], "0 1 1");
    EXPECT_EQ(lines[65], "0 65 1");
    EXPECT_EQ(lines[66], "time: 2000001000");
    EXPECT_EQ(lines[67], "0 1 11");
}

TEST(HpccRun, IncastPausesAreLoggedWhereTheyAreObeyed)
{
    // 32 hosts send 1 MB each to host 1 with no congestion control and a 10 MiB buffer:
    // the switch pauses the senders. (CC_MODE 12 is ASTRA-sim's default.)
    std::string flows = "32\n";
    for (int h = 2; h <= 33; ++h)
    {
        flows += std::to_string(h) + " 1 3 100 1000000 2.0\n";
    }
    for (HpccFidelity fidelity : {HpccFidelity::Peer, HpccFidelity::Faithful})
    {
        const std::string dir = Folder("hpcc-run-pfc-" + HpccFidelityName(fidelity));
        Write(dir + "/flows.txt", flows);
        const HpccRunResult r = RunHpcc(Options(Config(dir, "CC_MODE 12\n", 10), dir, fidelity));
        EXPECT_EQ(r.cc.scheme, "none");
        ASSERT_EQ(r.warnings.size(), 1u);
        EXPECT_NE(r.warnings[0].find("CC_MODE 12 names no congestion control"), std::string::npos);
        EXPECT_EQ(r.completed, 32u);
        EXPECT_EQ(r.drops, 0u);
        EXPECT_GT(r.pfcPauses, 0u);
        const auto lines = Lines(r.pfcPath);
        // Every pause ends: a pause and a resume per episode, at a sender's NIC port 1.
        ASSERT_EQ(lines.size(), 2 * r.pfcPauses);
        uint64_t pauses = 0;
        uint64_t last = 0;
        for (const auto& line : lines)
        {
            std::istringstream in(line);
            uint64_t time = 0;
            uint32_t node = 0, type = 0, ifIndex = 0, pause = 9;
            ASSERT_TRUE(in >> time >> node >> type >> ifIndex >> pause) << line;
            EXPECT_GE(time, last);
            last = time;
            EXPECT_GE(node, 2u);
            EXPECT_LE(node, 33u);
            EXPECT_EQ(type, 0u);
            EXPECT_EQ(ifIndex, 1u);
            pauses += pause;
        }
        EXPECT_EQ(pauses, r.pfcPauses);
    }
}
