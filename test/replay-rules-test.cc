/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The replay's node semantics end to end on ASTRA-sim's congestion-unaware network,
// where every time is a closed form: one compute, one communication and one CPU slot
// per NPU, receives outside the slots, exposed communication, ctrl_deps, metadata,
// the roofline and the remote memory.

#include "replay-test-support.h"

#include "ns3/analytical-topology.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

constexpr double kGbps = 50;
constexpr double kLatencyNs = 500;

/** ASTRA-sim's congestion-unaware time of one message over one hop, ns. */
uint64_t
MessageNs(uint64_t bytes)
{
    return static_cast<uint64_t>(kLatencyNs + static_cast<double>(bytes) /
                                                  AnalyticalTopology::ToBytesPerNs(kGbps));
}

/** Two NPUs on a ring, a workload prefix and a system file, in a scratch directory. */
class ReplayRules : public testing::Test
{
  protected:
    ettest::ScratchDir m_dir;
    std::string m_prefix{m_dir.File("w")};
    std::string m_fabric{WriteNetwork(m_dir, "Ring", 2, kGbps, kLatencyNs)};
    std::string m_system{WriteSystem(m_dir, "ring", 1)};

    ReplayResult
    Run(const std::function<void(ReplayRunConfig&)>& adjust = nullptr)
    {
        ReplayRunConfig config =
            RunConfig(m_prefix, m_fabric, m_system, ReplayBackendKind::Analytical);
        if (adjust)
        {
            adjust(config);
        }
        ReplayResult result = RunReplay(config);
        EXPECT_TRUE(result.completed);
        return result;
    }

    static int64_t
    FinishNs(const ReplayResult& r, uint32_t rank)
    {
        return r.ranks.at(rank).finish.GetNanoSeconds();
    }
};

} // namespace

TEST_F(ReplayRules, OneComputeStreamAndOneCpuStream)
{
    EtNode cpu = Compute(3, 3);
    cpu.SetIsCpuOp(true);
    WriteRank(m_prefix, 0, {Compute(1, 5), Compute(2, 7), cpu});
    WriteRank(m_prefix, 1, {Compute(1, 1)});
    auto r = Run();
    // The two device nodes run one after the other; the host op beside them.
    EXPECT_EQ(FinishNs(r, 0), 12000);
    EXPECT_EQ(r.ranks[0].compute, MicroSeconds(12));
    EXPECT_EQ(r.ranks[0].cpu, MicroSeconds(3));
    EXPECT_EQ(r.ranks[0].computeNodes, 2u);
    EXPECT_EQ(FinishNs(r, 1), 1000);

    r = Run([](ReplayRunConfig& c) { c.computeSlots = 0; });
    EXPECT_EQ(FinishNs(r, 0), 7000);
}

TEST_F(ReplayRules, SendsShareOneCommunicationStream)
{
    const uint64_t bytes = 1 << 20;
    WriteRank(m_prefix, 0, {Send(1, 1, bytes, 1), Send(2, 1, bytes, 2)});
    WriteRank(m_prefix, 1, {Receive(1, 0, bytes, 1), Receive(2, 0, bytes, 2)});
    auto r = Run();
    ASSERT_EQ(MessageNs(bytes), 20031u);
    EXPECT_EQ(FinishNs(r, 1), 2 * 20031);
    EXPECT_EQ(FinishNs(r, 0), 2 * 20031);
    EXPECT_EQ(r.ranks[0].bytesSent, 2 * bytes);
    EXPECT_EQ(r.ranks[1].bytesReceived, 2 * bytes);
    EXPECT_EQ(r.ranks[0].sends, 2u);
    EXPECT_EQ(r.ranks[1].receives, 2u);

    r = Run([](ReplayRunConfig& c) { c.commSlots = 0; });
    EXPECT_EQ(FinishNs(r, 1), 20031);
}

TEST_F(ReplayRules, ReceivesHoldNoSlot)
{
    // Each rank first waits for the other's message, then sends its own: if a receive
    // held the communication slot, neither send could start.
    const uint64_t bytes = 4096;
    WriteRank(m_prefix, 0, {Receive(1, 1, bytes, 7), Send(2, 1, bytes, 7)});
    WriteRank(m_prefix, 1, {Receive(1, 0, bytes, 7), Send(2, 0, bytes, 7)});
    const auto r = Run();
    EXPECT_EQ(FinishNs(r, 0), static_cast<int64_t>(MessageNs(bytes)));
    EXPECT_EQ(FinishNs(r, 1), static_cast<int64_t>(MessageNs(bytes)));
}

TEST_F(ReplayRules, RepeatedKeysMatchFirstSentFirstReceived)
{
    // Two messages with one (source, destination, tag): the first receive completes
    // with the first message, the second with the second; both receives wait from t=0.
    WriteRank(m_prefix, 0, {Send(1, 1, 1024, 5), Send(2, 1, 1 << 20, 5)});
    WriteRank(m_prefix, 1, {Receive(1, 0, 1024, 5), Receive(2, 0, 1 << 20, 5)});
    const auto r = Run();
    EXPECT_EQ(FinishNs(r, 1), static_cast<int64_t>(MessageNs(1024) + MessageNs(1 << 20)));
    EXPECT_EQ(r.ranks[1].bytesReceived, 1024u + (1u << 20));
    EXPECT_TRUE(r.notes.empty());

    // Receives listed in the other order: each still takes the next message of its key,
    // and both report that the size in the trace is not the message's.
    WriteRank(m_prefix, 1, {Receive(1, 0, 1 << 20, 5), Receive(2, 0, 1024, 5)});
    const auto swapped = Run();
    EXPECT_EQ(FinishNs(swapped, 1), FinishNs(r, 1));
    EXPECT_EQ(swapped.notes.at("COMM_RECV_NODE whose comm_size differs from its message's"), 2u);

    // A third message nobody receives: every rank finishes, and the message is noted.
    WriteRank(m_prefix, 0, {Send(1, 1, 1024, 5), Send(2, 1, 1 << 20, 5), Send(3, 1, 64, 6)});
    WriteRank(m_prefix, 1, {Receive(1, 0, 1024, 5), Receive(2, 0, 1 << 20, 5)});
    const auto extra = Run();
    EXPECT_EQ(extra.notes.at("COMM_SEND_NODE message without a matching COMM_RECV_NODE"), 1u);
}

TEST_F(ReplayRules, ExposedCommunicationIsCommunicationWithoutCompute)
{
    const uint64_t bytes = 1 << 20;
    // All-reduce on both ranks; a 4 us compute beside it, a 10 us compute after it.
    const std::vector<EtNode> nodes = {
        Collective(1, EtCollectiveType::ALL_REDUCE, bytes), Compute(2, 10, {1}), Compute(3, 4)};
    WriteRank(m_prefix, 0, nodes);
    WriteRank(m_prefix, 1, nodes);
    const auto r = Run();
    // Ring all-reduce on 2 NPUs, one chunk: endpoint delay, then 2 steps of D/2.
    const uint64_t allReduce = 10 + 2 * (MessageNs(bytes / 2) + 10);
    for (const auto& s : r.ranks)
    {
        EXPECT_EQ(s.finish, NanoSeconds(allReduce + 10000));
        EXPECT_EQ(s.comm, NanoSeconds(allReduce));
        EXPECT_EQ(s.compute, MicroSeconds(14));
        EXPECT_EQ(s.exposedComm, NanoSeconds(allReduce - 4000));
        EXPECT_EQ(s.GetAstraExposedComm(), NanoSeconds(allReduce - 4000));
        EXPECT_EQ(s.bytesSent, bytes);
        EXPECT_EQ(s.collectives, 1u);
    }
    ASSERT_EQ(r.collectives.size(), 1u);
    EXPECT_EQ(r.collectives[0].end - r.collectives[0].start, NanoSeconds(allReduce));
    EXPECT_EQ(r.collectives[0].algorithm, "ring");
}

TEST_F(ReplayRules, MetadataIsInstantAndZeroDurationComputeTakesOneNanosecond)
{
    EtNode meta;
    meta.id = 1;
    meta.type = EtNodeType::METADATA_NODE;
    WriteRank(m_prefix, 0, {meta, Compute(2, 2, {1})});
    WriteRank(m_prefix, 1, {Compute(1, 0)});
    const auto r = Run();
    EXPECT_EQ(FinishNs(r, 0), 2000);
    EXPECT_EQ(FinishNs(r, 1), 1);
}

TEST_F(ReplayRules, CtrlDepsOnlyWhenAsked)
{
    EtNode host = Compute(1, 5);
    host.SetIsCpuOp(true);
    EtNode device = Compute(2, 3);
    device.ctrlDeps = EtIdList{1, 99}; // 99 is not in the trace
    WriteRank(m_prefix, 0, {host, device});
    WriteRank(m_prefix, 1, {Compute(1, 1)});
    auto r = Run();
    EXPECT_EQ(FinishNs(r, 0), 5000);
    EXPECT_EQ(r.ranks[0].danglingCtrlDeps, 1u);
    r = Run([](ReplayRunConfig& c) { c.ctrlDeps = true; });
    EXPECT_EQ(FinishNs(r, 0), 8000);
    EXPECT_EQ(r.ranks[0].danglingCtrlDeps, 1u);
}

TEST_F(ReplayRules, RooflineFromNumOpsAndTensorSize)
{
    m_system = WriteSystem(
        m_dir, "ring", 1, ", \"roofline-enabled\": 1, \"peak-perf\": 100, \"local-mem-bw\": 1000");
    EtNode computeBound = Compute(1, 999);
    computeBound.SetNumOps(1000000000); // intensity 1000 op/B: 10^9 / 10^5 op/ns
    computeBound.SetTensorSize(1000000);
    EtNode memoryBound = Compute(2, 999);
    memoryBound.SetNumOps(1000000); // intensity 1 op/B: 10^6 / (1000 B/ns x 1)
    memoryBound.SetTensorSize(1000000);
    EtNode empty = Compute(3, 999);
    empty.SetNumOps(5);
    empty.SetTensorSize(0);
    WriteRank(m_prefix, 0, {computeBound, memoryBound, empty});
    WriteRank(m_prefix, 1, {Compute(1, 2)}); // no num_ops: its duration
    const auto r = Run();
    EXPECT_EQ(FinishNs(r, 0), 10000 + 1000);
    EXPECT_EQ(FinishNs(r, 1), 2000);
}

TEST_F(ReplayRules, RemoteMemorySerializesPerNode)
{
    EtNode load;
    load.id = 1;
    load.type = EtNodeType::MEM_LOAD_NODE;
    load.SetTensorSize(1000);
    WriteRank(m_prefix, 0, {load});
    WriteRank(m_prefix, 1, {load});
    const std::string perNode = m_dir.File("per-node.json");
    WriteText(perNode,
              "{\"memory-type\": \"PER_NODE_MEMORY_EXPANSION\", \"remote-mem-latency\": 100, "
              "\"remote-mem-bw\": 10, \"num-nodes\": 1, \"num-npus-per-node\": 2}");
    auto r = Run([&](ReplayRunConfig& c) { c.remoteMemoryPath = perNode; });
    // 100 ns + 1000 B / 10 B/ns each; the node's second access waits for the first.
    EXPECT_EQ(FinishNs(r, 0), 200);
    EXPECT_EQ(FinishNs(r, 1), 400);
    EXPECT_EQ(r.ranks[1].memory, NanoSeconds(400));

    const std::string perNpu = m_dir.File("per-npu.json");
    WriteText(perNpu,
              "{\"memory-type\": \"PER_NPU_MEMORY_EXPANSION\", \"remote-mem-latency\": 100, "
              "\"remote-mem-bw\": 10}");
    r = Run([&](ReplayRunConfig& c) { c.remoteMemoryPath = perNpu; });
    EXPECT_EQ(FinishNs(r, 1), 200);

    ettest::ExpectInputError([&] { RunReplay(RunConfig(m_prefix, m_fabric, m_system)); },
                             {"w.0.et", "node 1", "--remote-memory"});
}
