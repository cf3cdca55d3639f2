/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The data-parallel ResNet-50 generator: per-layer gradient all-reduces totalling
// 102,011,648 bytes per iteration, compute from convolution FLOPs, layer order.
#include "et-gen-test-support.h"

#include "ns3/resnet50-generator.h"
#include "ns3/resnet50-layers.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::ettest;
using namespace ns3::gentest;

TEST(ResNet50Generator, GradientAllReducesTotal102011648BytesPerIteration)
{
    ResNet50Config c;
    c.npus = 16;
    c.iterations = 2;
    const GenWorkload w = GenerateResNet50(c);
    ASSERT_EQ(w.ranks.size(), 16u);
    ASSERT_EQ(w.groups.GetGroups().size(), 1u);
    EXPECT_EQ(w.groups.GetGroups().at("1").size(), 16u);
    for (const auto& rank : w.ranks)
    {
        const Calls calls = CollectivesOf(rank, EtCollectiveType::ALL_REDUCE);
        EXPECT_EQ(calls.count, 54u * 2);
        EXPECT_EQ(calls.bytes, 102'011'648u * 2);
        EXPECT_EQ(calls.groups, std::set<std::string>{"1"});
        // The classifier's all-reduce comes first in backward, the stem's last.
        std::vector<uint64_t> sizes;
        for (const auto& node : rank.GetNodes())
        {
            if (node.type == EtNodeType::COMM_COLL_NODE)
            {
                sizes.push_back(node.commSize);
            }
        }
        EXPECT_EQ(sizes.front(), 2048u * 1000 * 4);
        EXPECT_EQ(sizes[53], 7u * 7 * 3 * 64 * 4);
        // Forward of 54 layers, weight gradient of 54, input gradient of 53.
        EXPECT_EQ(CountOf(rank, EtNodeType::COMP_NODE), (54u + 54 + 53) * 2);
    }
    ExpectValidOnDisk(w);
}

TEST(ResNet50Generator, ComputeFollowsConvolutionFlopsAndWaitsForTheGradients)
{
    ResNet50Config c;
    c.npus = 2;
    c.batch = 64;
    c.iterations = 2;
    c.device.peakTflops = 100;
    c.device.efficiency = 1;
    const GenWorkload w = GenerateResNet50(c);
    const auto& nodes = w.ranks[0].GetNodes();
    const auto& layers = ResNet50Layers();
    uint64_t forwardFlops = 0;
    for (const auto& node : nodes)
    {
        const std::string name(node.name);
        if (name.rfind("i0.", 0) == 0 && name.size() > 4 && name.substr(name.size() - 4) == ".fwd")
        {
            forwardFlops += node.numOps;
        }
    }
    // 4.09 G multiply-accumulates per image, 2 FLOPs each.
    EXPECT_NEAR(forwardFlops / (2.0 * c.batch), 4.09e9, 0.02e9);
    // layer2.0.conv2: 3×3, 128 -> 128, output 28×28: 2·9·128·128·784·64 FLOPs.
    const auto conv = std::find_if(nodes.begin(),
                                   nodes.end(),
                                   [](const EtNode& n)
                                   { return std::string(n.name) == "i0.layer2.0.conv2.fwd"; });
    ASSERT_NE(conv, nodes.end());
    EXPECT_EQ(conv->numOps, 2ull * 9 * 128 * 128 * 28 * 28 * 64);
    EXPECT_EQ(conv->durationMicros, 148u); // 1.48e10 FLOPs at 1e14 FLOP/s
    // The second iteration's forward of a layer waits for that layer's all-reduce.
    for (size_t j = 0; j < layers.size(); ++j)
    {
        const auto forward =
            std::find_if(nodes.begin(),
                         nodes.end(),
                         [&](const EtNode& n)
                         { return std::string(n.name) == "i1." + layers[j].name + ".fwd"; });
        const auto reduced =
            std::find_if(nodes.begin(),
                         nodes.end(),
                         [&](const EtNode& n)
                         { return std::string(n.name) == "i0." + layers[j].name + ".all_reduce"; });
        ASSERT_NE(forward, nodes.end());
        ASSERT_NE(reduced, nodes.end());
        EXPECT_NE(std::find(forward->dataDeps.begin(), forward->dataDeps.end(), reduced->id),
                  forward->dataDeps.end())
            << layers[j].name;
    }
}

TEST(ResNet50Generator, BadParametersNameTheOption)
{
    ResNet50Config c;
    c.npus = 1;
    ExpectInputError([&] { GenerateResNet50(c); }, {"--npus"});
    c.npus = 4;
    c.batch = 0;
    ExpectInputError([&] { GenerateResNet50(c); }, {"--batch"});
    c.batch = 8;
    c.iterations = 0;
    ExpectInputError([&] { GenerateResNet50(c); }, {"--iterations"});
}
