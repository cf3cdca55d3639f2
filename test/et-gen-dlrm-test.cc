/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The DLRM generator: two embedding all-to-alls of b·T·d·p bytes and one MLP
// all-reduce per layer of (in·out + out)·p bytes per iteration.
#include "et-gen-test-support.h"

#include "ns3/dlrm-generator.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::ettest;
using namespace ns3::gentest;

TEST(DlrmGenerator, AllToAllAndAllReduceSizesMatchClosedForms)
{
    DlrmConfig c;
    c.npus = 8;
    c.batch = 256;
    c.denseFeatures = 13;
    c.tables = 16;
    c.embeddingDim = 32;
    c.bottomMlp = {64, 32};
    c.topMlp = {128, 64, 1};
    c.precision = 4;
    c.iterations = 3;
    const GenWorkload w = GenerateDlrm(c);
    const uint64_t p = 4;
    // MLP gradients: bottom 13->64->32, top (32 + 16·17/2 = 168)->128->64->1.
    ASSERT_EQ(c.InteractionWidth(), 168u);
    const uint64_t mlpParams =
        (13 * 64 + 64) + (64 * 32 + 32) + (168 * 128 + 128) + (128 * 64 + 64) + (64 * 1 + 1);
    for (const auto& rank : w.ranks)
    {
        const Calls a2a = CollectivesOf(rank, EtCollectiveType::ALL_TO_ALL);
        EXPECT_EQ(a2a.count, 2u * c.iterations);
        EXPECT_EQ(a2a.sizes, std::set<uint64_t>{c.batch * c.tables * c.embeddingDim * p});
        const Calls ar = CollectivesOf(rank, EtCollectiveType::ALL_REDUCE);
        EXPECT_EQ(ar.count, 5u * c.iterations);
        EXPECT_EQ(ar.bytes, mlpParams * p * c.iterations);
        EXPECT_EQ(ar.groups, a2a.groups);
        EXPECT_EQ(w.groups.GetGroups().at(*ar.groups.begin()).size(), c.npus);
    }
    ExpectValidOnDisk(w);
}

TEST(DlrmGenerator, TheExchangeOverlapsTheBottomMlpAndFeedsTheInteraction)
{
    const GenWorkload w = GenerateDlrm(DlrmConfig{});
    const auto& nodes = w.ranks[0].GetNodes();
    auto find = [&](const std::string& name)
    {
        const auto it = std::find_if(nodes.begin(),
                                     nodes.end(),
                                     [&](const EtNode& n) { return std::string(n.name) == name; });
        EXPECT_NE(it, nodes.end()) << name;
        return it;
    };
    const auto exchange = find("i0.embedding.fwd.all_to_all");
    const auto lookup = find("i0.embedding.lookup");
    const auto bottom = find("i0.bottom0.fwd");
    const auto interaction = find("i0.interaction.fwd");
    EXPECT_EQ(exchange->dataDeps, EtIdList{lookup->id});
    // The bottom MLP does not wait for the exchange; the interaction waits for both.
    EXPECT_EQ(std::find(bottom->dataDeps.begin(), bottom->dataDeps.end(), exchange->id),
              bottom->dataDeps.end());
    EXPECT_NE(std::find(interaction->dataDeps.begin(), interaction->dataDeps.end(), exchange->id),
              interaction->dataDeps.end());
}

TEST(DlrmGenerator, BadParametersNameTheOption)
{
    auto expectError = [](auto change, std::initializer_list<std::string> parts)
    {
        DlrmConfig c;
        change(c);
        ExpectInputError([&] { GenerateDlrm(c); }, parts);
    };
    expectError([](auto& c) { c.tables = 60; }, {"--tables", "--npus"});
    expectError([](auto& c) { c.bottomMlp = {512, 128}; }, {"--bottom-mlp", "--embedding-dim"});
    expectError([](auto& c) { c.topMlp.clear(); }, {"--top-mlp"});
    expectError([](auto& c) { c.batch = 0; }, {"--batch"});
    expectError([](auto& c) { c.npus = 1; }, {"--npus"});
    expectError([](auto& c) { c.topMlp = {0}; }, {"--top-mlp"});
}
