/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Splitting a fabric across the processes of a distributed simulation: whole servers and
// leaves on one process, even NPU counts, only RoCE links cut, the lookahead as the
// shortest cut delay, and partition files read with every error named.

#include "ns3/fabric-loader.h"
#include "ns3/fabric-partition.h"
#include "ns3/input-error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace ns3;

namespace
{

const std::string kSource = MLFABRIC_SOURCE_DIR;

/** Write \p text to a file in the test's temporary folder and return its path. */
std::string
WriteFile(const std::string& name, const std::string& text)
{
    const auto dir = std::filesystem::temp_directory_path() / "mlfabric-fabric-partition-test";
    std::filesystem::create_directories(dir);
    const std::string path = (dir / name).string();
    std::ofstream(path) << text;
    return path;
}

/** \return the message of the InputError \p read throws; fails the test if none */
template <typename F>
std::string
ErrorOf(F read)
{
    try
    {
        read();
    }
    catch (const InputError& e)
    {
        return e.what();
    }
    ADD_FAILURE() << "no InputError";
    return "";
}

/** Two sites of four NPUs on a leaf each, 1 us inside, joined by a 10 us link. */
Fabric
TwoSites()
{
    Fabric f("two-sites");
    LinkSettings near;
    near.rateBps = 100'000'000'000;
    near.delayPs = 1'000'000;
    LinkSettings far = near;
    far.delayPs = 10'000'000;
    std::vector<uint32_t> npus;
    for (int i = 0; i < 8; ++i)
    {
        npus.push_back(f.AddNpu());
    }
    const uint32_t left = f.AddSwitch("left", "leaf", 1);
    const uint32_t right = f.AddSwitch("right", "leaf", 1);
    for (int i = 0; i < 8; ++i)
    {
        f.AddLink(npus[i], i < 4 ? left : right, near);
    }
    f.AddLink(left, right, far);
    f.SetNpuForwarding(false);
    return f;
}

} // namespace

TEST(FabricPartition, ClosHalvesKeepLeavesWithTheirHostsAndCutAboveThem)
{
    const Fabric f = LoadFabric(kSource + "/fabrics/clos-2tier-32.yaml").fabric;
    const FabricPartition p = PartitionFabric(f, 2);
    EXPECT_EQ(p.npusOf, (std::vector<uint32_t>{16, 16}));
    int64_t delay = 0;
    for (uint32_t l = 0; l < f.GetLinkCount(); ++l)
    {
        const FabricLink& link = f.GetLink(l);
        const bool cut = p.processOf[link.nodeA] != p.processOf[link.nodeB];
        const bool hostLink = f.IsNpu(link.nodeA) || f.IsNpu(link.nodeB);
        EXPECT_FALSE(cut && hostLink)
            << f.GetNode(link.nodeA).name << " - " << f.GetNode(link.nodeB).name;
        delay = cut ? link.settings.delayPs : delay;
    }
    ASSERT_FALSE(p.cutLinks.empty());
    EXPECT_EQ(p.lookaheadPs, delay);
    // NPUs 0-15 on process 0 (consecutive ranks share leaves), the spines shared evenly.
    for (uint32_t r = 0; r < f.GetNpuCount(); ++r)
    {
        EXPECT_EQ(p.processOf[f.GetNpuNode(r)], r < 16 ? 0u : 1u) << r;
    }
    EXPECT_LE(std::max(p.nodesOf[0], p.nodesOf[1]) - std::min(p.nodesOf[0], p.nodesOf[1]), 1u);
}

TEST(FabricPartition, ScaleUpDomainsStayWhole)
{
    const Fabric f = LoadFabric(kSource + "/fabrics/two-dim-4x2.yaml").fabric;
    const FabricPartition p = PartitionFabric(f, 2);
    EXPECT_EQ(p.npusOf, (std::vector<uint32_t>{4, 4}));
    for (uint32_t l : p.cutLinks)
    {
        EXPECT_EQ(f.GetLinkScaleUp(l), nullptr) << l;
    }
    EXPECT_EQ(p.method, "automatic, by scale-up domain and leaf");
    // A server is one scale-up domain: two processes is all it splits into.
    const std::string e = ErrorOf([&] { PartitionFabric(f, 3); });
    EXPECT_NE(e.find("cannot split across 3 processes: it has 2 part(s)"), std::string::npos) << e;
}

TEST(FabricPartition, TheLongestLinksAreCutWhenTheyDivideTheFabric)
{
    const Fabric f = TwoSites();
    const FabricPartition p = PartitionFabric(f, 2);
    ASSERT_EQ(p.cutLinks.size(), 1u);
    EXPECT_EQ(p.cutLinks[0], f.GetLinkCount() - 1);
    EXPECT_EQ(p.lookaheadPs, 10'000'000);
    EXPECT_EQ(p.nodesOf, (std::vector<uint32_t>{5, 5}));
    EXPECT_EQ(DescribeFabricPartition(f, p),
              "partition: 2 processes (automatic, cut on the 10us links); nodes/NPUs 5/4, 5/4; "
              "1 of 9 links cut, lookahead 10us");
    // Four processes cannot keep the sites whole: servers (here single NPUs) and leaves.
    const FabricPartition four = PartitionFabric(f, 4);
    EXPECT_EQ(four.npusOf, (std::vector<uint32_t>{2, 2, 2, 2}));
    EXPECT_EQ(four.lookaheadPs, 1'000'000);
}

TEST(FabricPartition, AFileGivesEachNodeItsProcess)
{
    const Fabric f = TwoSites();
    std::string text = "# sites\n";
    for (uint32_t n = 0; n < f.GetNodeCount(); ++n)
    {
        const bool left = n < 4 || f.GetNode(n).name == "left";
        text += f.GetNode(n).name + " " + (left ? "1" : "0") + "  # node\n";
    }
    const FabricPartition p = ReadFabricPartition(WriteFile("sites.txt", text), f, 2);
    EXPECT_EQ(p.processOf[0], 1u);
    EXPECT_EQ(p.processOf[f.FindNode("right")], 0u);
    EXPECT_EQ(p.cutLinks.size(), 1u);
    EXPECT_EQ(p.lookaheadPs, 10'000'000);
}

TEST(FabricPartition, BadFilesAreNamedByLineAndNode)
{
    const Fabric f = TwoSites();
    std::string all;
    for (uint32_t n = 0; n < f.GetNodeCount(); ++n)
    {
        all += f.GetNode(n).name + " " + (n % 2 == 0 ? "0" : "1") + "\n";
    }
    const auto error = [&](const std::string& name, const std::string& text, uint32_t size = 2)
    {
        const std::string path = WriteFile(name, text);
        return ErrorOf([&] { ReadFabricPartition(path, f, size); });
    };
    EXPECT_NE(error("unknown.txt", "npu0 0\nspine9 1\n")
                  .find("unknown.txt:2: fabric 'two-sites' has no node 'spine9'"),
              std::string::npos);
    EXPECT_NE(error("twice.txt", "npu0 0\n\nnpu0 1\n")
                  .find("twice.txt:3: node 'npu0' is already on line 1"),
              std::string::npos);
    EXPECT_NE(error("range.txt", "npu0 2\n")
                  .find("range.txt:1: node 'npu0': process '2' is not one of 0..1"),
              std::string::npos);
    EXPECT_NE(error("word.txt", "npu0 first\n").find("process 'first' is not one of 0..1"),
              std::string::npos);
    EXPECT_NE(error("short.txt", "npu0\n").find("short.txt:1: expected '<node name> <process>'"),
              std::string::npos);
    EXPECT_NE(error("missing.txt", "npu0 0\n").find("missing.txt: node 'npu1' is on no process"),
              std::string::npos);
    EXPECT_NE(
        error("empty-process.txt", all, 3).find("empty-process.txt: process 2 of 3 has no node"),
        std::string::npos);
    EXPECT_NE(ErrorOf([&] { ReadFabricPartition("/nonexistent/p.txt", f, 2); })
                  .find("/nonexistent/p.txt"),
              std::string::npos);
    EXPECT_NE(
        ErrorOf([&] { ReadFabricPartition(std::filesystem::temp_directory_path().string(), f, 2); })
            .find("directory"),
        std::string::npos);
}

TEST(FabricPartition, AFileMayNotCutAScaleUpLink)
{
    const Fabric f = LoadFabric(kSource + "/fabrics/two-dim-4x2.yaml").fabric;
    std::string text;
    for (uint32_t n = 0; n < f.GetNodeCount(); ++n)
    {
        text += f.GetNode(n).name + " " + (n == 0 ? "1" : "0") + "\n";
    }
    const std::string e = ErrorOf([&] { ReadFabricPartition(WriteFile("su.txt", text), f, 2); });
    EXPECT_NE(e.find("su.txt: the scale-up link "), std::string::npos) << e;
    EXPECT_NE(e.find("cannot be cut"), std::string::npos) << e;
}
