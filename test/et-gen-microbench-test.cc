/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The collective microbenchmark generator: ASTRA-sim's own microbenchmark reproduced,
// every collective of the schema, strided groups, repetition with compute between,
// involved dimensions, and the errors.
#include "et-gen-test-support.h"

#include "ns3/microbench-generator.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::ettest;
using namespace ns3::gentest;

TEST(MicrobenchGenerator, MatchesAstraSimsAllReduceMicrobenchmark)
{
    const GenWorkload w = GenerateMicrobench(MicrobenchConfig{});
    ASSERT_EQ(w.ranks.size(), 8u);
    const std::string theirs = std::string(MLFABRIC_SHARED_DIR) +
                               "/data/astra-sim/workload/microbenchmarks/all_reduce/8npus_1MB/"
                               "all_reduce";
    for (const auto& rank : w.ranks)
    {
        const EtTrace reference = EtTrace::Load(EtRankFilePath(theirs, rank.GetRank()));
        ASSERT_EQ(reference.GetNodeCount(), 1u);
        ASSERT_EQ(rank.GetNodes().size(), 1u);
        const EtNode& ours = rank.GetNodes()[0];
        const EtNode& astra = reference.GetNode(0);
        EXPECT_EQ(ours.type, astra.type);
        EXPECT_EQ(ours.commType, astra.commType);
        EXPECT_EQ(ours.commSize, astra.commSize);
        EXPECT_EQ(ours.commSize, 1u << 20);
        EXPECT_EQ(ours.isCpuOp, astra.isCpuOp);
        EXPECT_TRUE(ours.Has(ET_IS_CPU_OP));
        // Ours also names the group: all eight ranks.
        EXPECT_EQ(w.groups.GetGroups().at(std::string(ours.pgName)),
                  (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
    }
    ExpectValidOnDisk(w);
}

TEST(MicrobenchGenerator, EveryCollectiveOfTheSchemaOnStridedGroups)
{
    for (int64_t type = 0; type <= kEtMaxCollectiveType; ++type)
    {
        MicrobenchConfig c;
        c.npus = 16;
        c.collective = static_cast<EtCollectiveType>(type);
        c.bytes = c.collective == EtCollectiveType::BARRIER ? 0 : 3 * 1024 * 1024 + 7;
        c.groupSize = 4;
        c.groupStride = 2;
        c.repeat = 3;
        c.computeMicros = 5;
        SCOPED_TRACE(ToString(c.collective));
        const GenWorkload w = GenerateMicrobench(c);
        // Groups of four ranks two apart, in blocks of eight.
        ASSERT_EQ(w.groups.GetGroups().size(), 4u);
        EXPECT_EQ(w.groups.GetGroups().at("1"), (std::vector<uint32_t>{0, 2, 4, 6}));
        EXPECT_EQ(w.groups.GetGroups().at("2"), (std::vector<uint32_t>{1, 3, 5, 7}));
        EXPECT_EQ(w.groups.GetGroups().at("4"), (std::vector<uint32_t>{9, 11, 13, 15}));
        for (const auto& rank : w.ranks)
        {
            const Calls calls = CollectivesOf(rank, c.collective);
            EXPECT_EQ(calls.count, c.repeat);
            EXPECT_EQ(calls.bytes, c.repeat * c.bytes);
            ASSERT_EQ(calls.groups.size(), 1u);
            const auto& members = w.groups.GetGroups().at(*calls.groups.begin());
            EXPECT_TRUE(std::binary_search(members.begin(), members.end(), rank.GetRank()));
            // collective, compute, collective, compute, collective: one chain.
            const auto& nodes = rank.GetNodes();
            ASSERT_EQ(nodes.size(), 2 * c.repeat - 1);
            for (size_t i = 0; i < nodes.size(); ++i)
            {
                EXPECT_EQ(nodes[i].type,
                          i % 2 == 0 ? EtNodeType::COMM_COLL_NODE : EtNodeType::COMP_NODE);
                EXPECT_EQ(nodes[i].dataDeps, i == 0 ? EtIdList{} : EtIdList{i - 1});
                if (nodes[i].type == EtNodeType::COMP_NODE)
                {
                    EXPECT_EQ(nodes[i].durationMicros, 5u);
                    // Known only by its duration: no roofline figures to skip it on.
                    EXPECT_FALSE(nodes[i].Has(ET_TENSOR_SIZE));
                }
            }
        }
        ExpectValidOnDisk(w);
    }
}

TEST(MicrobenchGenerator, BackToBackRepeatsAndInvolvedDimensions)
{
    MicrobenchConfig c;
    c.npus = 4;
    c.collective = EtCollectiveType::ALL_TO_ALL;
    c.bytes = uint64_t{5} << 30; // sizes beyond 32 bits
    c.repeat = 4;
    c.involvedDims = {true, false, true};
    const GenWorkload w = GenerateMicrobench(c);
    for (const auto& rank : w.ranks)
    {
        ASSERT_EQ(rank.GetNodes().size(), 4u);
        for (const auto& node : rank.GetNodes())
        {
            EXPECT_EQ(node.commSize, uint64_t{5} << 30);
            EXPECT_EQ(node.involvedDimCount, 3u);
            EXPECT_EQ(node.involvedDims, 0b101u);
        }
    }
    ExpectValidOnDisk(w);
}

TEST(MicrobenchGenerator, BadParametersNameTheOption)
{
    auto expectError = [](auto change, std::initializer_list<std::string> parts)
    {
        MicrobenchConfig c;
        change(c);
        ExpectInputError([&] { GenerateMicrobench(c); }, parts);
    };
    expectError([](auto& c) { c.npus = 1; }, {"--npus"});
    expectError([](auto& c) { c.bytes = 0; }, {"--size", "ALL_REDUCE"});
    expectError([](auto& c) { c.groupSize = 3; }, {"--group-size", "--npus"});
    expectError(
        [](auto& c)
        {
            c.groupSize = 4;
            c.groupStride = 4;
        },
        {"--group-stride", "--npus"});
    expectError([](auto& c) { c.groupSize = 1; }, {"--group-size"});
    expectError([](auto& c) { c.repeat = 0; }, {"--repeat"});
    expectError([](auto& c) { c.collective = EtCollectiveType::BARRIER; }, {"--size", "barrier"});
    expectError([](auto& c) { c.involvedDims.assign(33, true); }, {"--involved-dims"});
}
