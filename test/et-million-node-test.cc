/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// A trace of one million nodes per rank loads, validates and can be walked in
// dependency order, in seconds and without holding protobuf messages.
#include "et-test-support.h"

#include "ns3/et-reader.h"
#include "ns3/et-trace.h"
#include "ns3/et-writer.h"

#include <gtest/gtest.h>

#include <array>
#include <chrono>

using namespace ns3;
using namespace ns3::ettest;

namespace
{

constexpr uint64_t kNodes = 1000000;

/** Node i gets the odd id 2i + 1; even ids are absent, for dangling ctrl_deps. */
uint64_t
IdOf(uint64_t i)
{
    return 2 * i + 1;
}

/**
 * Shape of the generated trace, PyTorch-like: a chain of compute kernels named from a
 * small vocabulary, every tenth node an all-reduce, every third node (from the tenth)
 * also waiting for the node ten places back, every fifth with a ctrl_dep on its absent
 * caller.
 */
bool
IsCollective(uint64_t i)
{
    return i % 10 == 9;
}

/** \return true if node i has the extra data dependency on node i - 10 */
bool
HasSkipDependency(uint64_t i)
{
    return i >= 10 && i % 3 == 0;
}

/** \return the all-reduce size of collective node i */
uint64_t
CollectiveBytes(uint64_t i)
{
    return (uint64_t{1} << 30) * (i % 7 + 1); // 1 to 7 GiB: 64-bit totals
}

} // namespace

TEST(EtMillionNodes, LoadsValidatesAndWalksInDependencyOrder)
{
    ScratchDir dir;
    std::string path = dir.File("million.0.et");
    auto start = std::chrono::steady_clock::now();

    const std::array<std::string, 6> names{
        "aten::mm", "aten::add_", "aten::layer_norm", "aten::gelu", "aten::softmax", "aten::copy_"};
    uint64_t expectedEdges = 0;
    uint64_t expectedDangling = 0;
    uint64_t expectedCommBytes = 0;
    uint64_t expectedMicros = 0;
    {
        EtWriter writer(path);
        EtNode node;
        for (uint64_t i = 0; i < kNodes; ++i)
        {
            node = EtNode();
            node.id = IdOf(i);
            if (IsCollective(i))
            {
                node.type = EtNodeType::COMM_COLL_NODE;
                node.name = "ncclDevKernel_AllReduce";
                node.SetCommType(EtCollectiveType::ALL_REDUCE);
                node.SetCommSize(CollectiveBytes(i));
                node.SetPgName("1");
                expectedCommBytes += CollectiveBytes(i);
            }
            else
            {
                node.type = EtNodeType::COMP_NODE;
                node.name = names[i % names.size()];
                node.durationMicros = i % 100;
                node.SetNumOps(i * 1000);
                node.SetTensorSize(i * 4);
                expectedMicros += i % 100;
            }
            node.SetIsCpuOp(false);
            if (i > 0)
            {
                node.dataDeps.push_back(IdOf(i - 1));
                ++expectedEdges;
            }
            if (HasSkipDependency(i))
            {
                node.dataDeps.push_back(IdOf(i - 10));
                ++expectedEdges;
            }
            if (i % 5 == 0)
            {
                node.ctrlDeps.push_back(2 * i); // even: not in the file
                ++expectedDangling;
            }
            writer.AddNode(node);
        }
        writer.Close();
    }
    auto written = std::chrono::steady_clock::now();

    EtTrace trace = EtTrace::Load(path);
    auto loaded = std::chrono::steady_clock::now();
    ASSERT_EQ(trace.GetNodeCount(), kNodes);
    const EtDependencyGraph& graph = trace.GetGraph();
    EXPECT_EQ(graph.GetEdgeCount(), expectedEdges);
    EXPECT_EQ(expectedEdges, (kNodes - 1) + (kNodes - 10 + 2) / 3);
    EXPECT_EQ(trace.GetDanglingCtrlDepCount(), expectedDangling);
    EXPECT_EQ(expectedDangling, kNodes / 5);
    EXPECT_EQ(graph.GetRoots(), std::vector<uint32_t>{0});
    EXPECT_EQ(trace.FindNode(IdOf(765432)), std::optional<uint32_t>(765432));
    EXPECT_EQ(trace.FindNode(2 * 765432), std::nullopt);

    // Walk the DAG as a replay would: issue what has no pending parent.
    std::vector<uint32_t> pending(kNodes);
    for (uint32_t i = 0; i < kNodes; ++i)
    {
        pending[i] = graph.GetParentCount(i);
    }
    std::vector<uint32_t> ready = graph.GetRoots();
    uint64_t issued = 0;
    uint64_t commBytes = 0;
    uint64_t micros = 0;
    while (!ready.empty())
    {
        uint32_t i = ready.back();
        ready.pop_back();
        ++issued;
        const EtNode& node = trace.GetNode(i);
        if (node.type == EtNodeType::COMM_COLL_NODE)
        {
            commBytes += node.commSize;
        }
        micros += node.durationMicros;
        for (uint32_t child : graph.GetChildren(i))
        {
            if (--pending[child] == 0)
            {
                ready.push_back(child);
            }
        }
    }
    EXPECT_EQ(issued, kNodes);
    EXPECT_EQ(commBytes, expectedCommBytes);
    EXPECT_EQ(micros, expectedMicros);
    EXPECT_EQ(trace.GetNode(0).name, "aten::mm");
    EXPECT_EQ(trace.GetNode(9).pgName, "1");

    auto walked = std::chrono::steady_clock::now();
    using Seconds = std::chrono::duration<double>;
    std::cout << "write " << Seconds(written - start).count() << " s, load+validate "
              << Seconds(loaded - written).count() << " s, walk "
              << Seconds(walked - loaded).count() << " s" << std::endl;
}

// The streaming reader visits the same file in bounded memory.
TEST(EtMillionNodes, StreamsWithoutBuildingTheTrace)
{
    ScratchDir dir;
    std::string path = dir.File("stream.0.et");
    {
        EtWriter writer(path, kEtSchemaVersion, EtCompression::GZIP);
        EtNode node;
        node.type = EtNodeType::COMP_NODE;
        node.name = "aten::mm";
        for (uint64_t i = 0; i < kNodes; ++i)
        {
            node.id = i;
            node.durationMicros = i % 3;
            writer.AddNode(node);
        }
    }
    EtReader reader(path);
    EXPECT_TRUE(reader.IsGzip());
    EtNode node;
    uint64_t micros = 0;
    while (reader.ReadNode(node))
    {
        micros += node.durationMicros;
    }
    EXPECT_EQ(reader.GetNodesRead(), kNodes);
    EXPECT_EQ(micros, (kNodes / 3) * 3 + (kNodes % 3 == 2 ? 1 : 0));
    EXPECT_EQ(reader.GetStringPool()->GetStringCount(), 1u);
}
