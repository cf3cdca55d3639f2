/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Aggregation trees for in-switch all-reduce over members no one switch joins (SHARP's
// trees over the levels of a Clos): the tree's shape on a leaf-spine and a fat-tree, roots
// spread over the spines, and an all-reduce of eight hosts under two leaves against its
// closed form at packet level, at flow level and in the congestion-aware analytical model,
// with every byte counted once per hop.

#include "in-switch-inputs.h"
#include "latency-premise.h"
#include "replay-test-support.h"

#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-loader.h"
#include "ns3/input-error.h"
#include "ns3/reduction-switch.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

constexpr uint32_t kMtu = 4096;
constexpr double kCableNs = 1000;
constexpr double kEndpointNs = 10;
constexpr uint64_t kBytes = 4 << 20;

std::vector<uint32_t>
Ranks(uint32_t from, uint32_t to)
{
    std::vector<uint32_t> ranks;
    for (uint32_t r = from; r < to; ++r)
    {
        ranks.push_back(r);
    }
    return ranks;
}

/** \return whether \p node is a switch of the fabric's \p role */
bool
HasRole(const Fabric& f, uint32_t node, const std::string& role)
{
    return f.GetNode(node).role == role;
}

class ReductionTreeTest : public ::testing::Test
{
  protected:
    void
    SetUp() override
    {
        WithoutSwitchAndNicLatency(); // the closed forms charge links only
    }

    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

} // namespace

// Members under one leaf reduce in that leaf; the eight hosts of two leaves on a tree of a
// spine above both leaves, each host joining its own leaf.
TEST_F(ReductionTreeTest, LeafSpineTreeJoinsEachHostToItsLeaf)
{
    ettest::ScratchDir dir;
    const LoadedFabric loaded = LoadFabric(ClosOfEightHosts(dir));
    const Fabric& f = loaded.fabric;
    const ReductionTree leaf = ReductionTreeOf(f, Ranks(0, 4), {});
    ASSERT_TRUE(leaf.IsSingleSwitch());
    EXPECT_EQ(leaf.GetDepth(), 1u);
    EXPECT_TRUE(HasRole(f, leaf.switches[0].node, "leaf"));

    const ReductionTree tree = ReductionTreeOf(f, Ranks(0, 8), {});
    ASSERT_EQ(tree.switches.size(), 3u);
    EXPECT_EQ(tree.GetDepth(), 2u);
    EXPECT_TRUE(HasRole(f, tree.switches[0].node, "spine"));
    EXPECT_EQ(tree.switches[0].parent, -1);
    EXPECT_TRUE(tree.switches[0].members.empty());
    EXPECT_EQ(tree.switches[0].below, (std::vector<uint32_t>{1, 2}));
    for (uint32_t s : {1u, 2u})
    {
        EXPECT_EQ(tree.switches[s].parent, 0);
        EXPECT_TRUE(HasRole(f, tree.switches[s].node, "leaf"));
        EXPECT_EQ(tree.switches[s].members.size(), 4u);
    }
    for (uint32_t m = 0; m < 8; ++m)
    {
        const uint32_t joined = tree.switches[tree.attach[m]].node;
        bool linked = false;
        for (const FabricPort& port : f.GetPorts(f.GetNpuNode(m)))
        {
            linked = linked || port.peer == joined;
        }
        EXPECT_TRUE(linked) << "rank " << m;
        EXPECT_EQ(tree.attach[m], tree.attach[m < 4 ? 0 : 4]) << "rank " << m;
    }
}

// Across the pods of a k = 4 fat-tree the tree has three levels: a core switch, an
// aggregation switch per pod, an edge switch per pair of hosts. Inside one pod it is
// rooted at an aggregation switch.
TEST_F(ReductionTreeTest, FatTreeTreesRootAtTheLowestLevelThatJoinsTheMembers)
{
    const LoadedFabric loaded =
        LoadFabric(std::string(MLFABRIC_SOURCE_DIR) + "/fabrics/fat-tree-k4.yaml");
    const Fabric& f = loaded.fabric;
    const ReductionTree across = ReductionTreeOf(f, {0, 2, 4, 8, 12}, {});
    EXPECT_EQ(across.GetDepth(), 3u);
    EXPECT_EQ(across.switches[0].below.size(), 4u); // one aggregation switch per pod
    const ReductionTree pod = ReductionTreeOf(f, {0, 1, 2, 3}, {});
    EXPECT_EQ(pod.GetDepth(), 2u);
    EXPECT_EQ(pod.switches[0].below.size(), 2u); // the pod's two edge switches
    EXPECT_EQ(pod.switches.size(), 3u);
}

// The trees of different member sets spread over the spines, and the same set always
// gets the same tree.
TEST_F(ReductionTreeTest, TreesOfDifferentGroupsSpreadOverTheSpines)
{
    const LoadedFabric loaded =
        LoadFabric(std::string(MLFABRIC_SOURCE_DIR) + "/fabrics/clos-2tier-32.yaml");
    const Fabric& f = loaded.fabric;
    std::set<uint32_t> roots;
    for (uint32_t local = 0; local < 8; ++local)
    {
        const std::vector<uint32_t> group{local, 8 + local, 16 + local, 24 + local};
        const ReductionTree tree = ReductionTreeOf(f, group, {});
        ASSERT_EQ(tree.GetDepth(), 2u);
        EXPECT_TRUE(HasRole(f, tree.switches[0].node, "spine"));
        EXPECT_EQ(ReductionTreeOf(f, group, {}).switches[0].node, tree.switches[0].node);
        roots.insert(tree.switches[0].node);
    }
    EXPECT_EQ(roots.size(), 2u) << "every tree on one spine";
}

// A fabric without switches has no tree: the error names the ranks.
TEST_F(ReductionTreeTest, NoSwitchNoTree)
{
    const LoadedFabric loaded =
        LoadFabric(std::string(MLFABRIC_SOURCE_DIR) + "/fabrics/ring-8.yaml");
    try
    {
        ReductionTreeOf(loaded.fabric, {0, 3}, {});
        ADD_FAILURE() << "a ring got a tree";
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find("over ranks 0,3: no switch is linked to every one "
                                             "of them, nor reachable from each of them"),
                  std::string::npos)
            << e.what();
    }
}

// The acceptance case of a tree: a 4 MiB inNetwork all-reduce of the eight hosts. At
// packet level chunks (one MTU each) stream up at the host links' rate; a leaf reduces a
// chunk when its four hosts' copies are in and sends the sum up in a quarter of that time
// on its 400 Gb/s link; the spine sends the result back down, and the leaf to its hosts.
// The last chunk's result is in (chunks + 1.5) chunk times and four cables after the
// start (stored and forwarded at every hop), plus the two endpoint delays and the credit
// grants on the hosts' down links. The flow level's floors give the same less the grants
// (it leaves them out), and the congestion-aware model, which stores and
// forwards whole messages, 4 cables + 2 D / B_host + 2 D / B_spine.
TEST_F(ReductionTreeTest, AllReduceOverTwoLeavesMatchesItsClosedFormAtEveryLevel)
{
    ettest::ScratchDir dir;
    const std::string prefix = dir.File("w");
    for (uint32_t r = 0; r < 8; ++r)
    {
        WriteRank(prefix, r, {Collective(1, EtCollectiveType::ALL_REDUCE, kBytes)});
    }
    const std::string fabric = ClosOfEightHosts(dir);
    const std::string system = AllReduceSystem(dir, "inNetwork");
    const double hostBytesPerNs = 100.0 / 8;
    const double chunkNs = (kMtu + 82.0) / hostBytesPerNs;
    const double chunks = static_cast<double>(kBytes / kMtu);
    // The leaves' grants to their hosts share the hosts' down links: a 1 MiB window of 256
    // chunks (ReductionEngine::WindowBytes) granted on a quarter at a time, 12 times.
    RoceHeaderPtr grant = MakeRoceHeader();
    grant->type = RoceHeader::ACK;
    const double grantsNs = (chunks - 256) / 64 * grant->GetWireBytes() / hostBytesPerNs;
    const double streamed = 2 * kEndpointNs + (chunks + 1.5) * chunkNs + 4 * kCableNs + grantsNs;
    const double stored = 2 * kEndpointNs + 4 * kCableNs + 2 * kBytes / hostBytesPerNs +
                          2 * kBytes / (4 * hostBytesPerNs);

    for (ReplayBackendKind backend :
         {ReplayBackendKind::Packet, ReplayBackendKind::Flow, ReplayBackendKind::AnalyticalAware})
    {
        Simulator::Destroy();
        Config::Reset();
        WithoutSwitchAndNicLatency();
        ReplayRunConfig config = RunConfig(prefix, fabric, system, backend);
        config.network.mtu = kMtu;
        const ReplayResult result = RunReplay(config);
        ASSERT_TRUE(result.completed) << static_cast<int>(backend);
        const double expected = backend == ReplayBackendKind::AnalyticalAware ? stored
                                : backend == ReplayBackendKind::Flow          ? streamed - grantsNs
                                                                              : streamed;
        const double measured = LastFinishNs(result);
        RecordProperty("finish_ns_" + std::to_string(static_cast<int>(backend)),
                       std::to_string(measured));
        EXPECT_NEAR(measured, expected, 2) << "backend " << static_cast<int>(backend);
        for (const auto& s : result.ranks)
        {
            EXPECT_EQ(s.bytesReceived, kBytes) << "rank " << s.rank;
        }
        EXPECT_EQ(result.networkDeliveredBytes, 8 * kBytes); // each result once, nothing else
    }
}

// An engine slower than the links, 50 Gb/s against the hosts' 100: every switch of the
// tree reduces a chunk in 4096 B / 6.25 B/ns, so the leaves send their sums up at the
// engine's pace and the spine keeps it. The packet level's last result is one engine
// chunk per switch and the hops down behind the leaves' last reduction, and the flow
// level's floors say the same: the two within 0.1 %, both above the unbounded run by the
// engine's time less the links'.
TEST_F(ReductionTreeTest, BoundedEngineRateSetsThePaceAtEveryLevel)
{
    ettest::ScratchDir dir;
    const std::string prefix = dir.File("w");
    for (uint32_t r = 0; r < 8; ++r)
    {
        WriteRank(prefix, r, {Collective(1, EtCollectiveType::ALL_REDUCE, kBytes)});
    }
    const std::string fabric = ClosOfEightHosts(dir);
    const std::string system = AllReduceSystem(dir, "inNetwork");
    std::map<ReplayBackendKind, double> finish;
    for (ReplayBackendKind backend : {ReplayBackendKind::Packet, ReplayBackendKind::Flow})
    {
        Simulator::Destroy();
        Config::Reset();
        WithoutSwitchAndNicLatency();
        Config::SetDefault("ns3::ReductionEngine::ReductionRate",
                           DataRateValue(DataRate("50Gbps")));
        ReplayRunConfig config = RunConfig(prefix, fabric, system, backend);
        config.network.mtu = kMtu;
        const ReplayResult result = RunReplay(config);
        ASSERT_TRUE(result.completed) << static_cast<int>(backend);
        finish[backend] = LastFinishNs(result);
        RecordProperty("finish_ns_" + std::to_string(static_cast<int>(backend)),
                       std::to_string(finish[backend]));
    }
    const double packet = finish[ReplayBackendKind::Packet];
    EXPECT_NEAR(finish[ReplayBackendKind::Flow] / packet, 1.0, 1e-3);
    const double engineChunkNs = kMtu / (50.0 / 8);
    const double chunks = static_cast<double>(kBytes / kMtu);
    const double hostChunkNs = (kMtu + 82.0) / (100.0 / 8);
    // At least the leaves' reductions of every chunk after the first arrived, and the
    // spine's of the last.
    EXPECT_GT(packet, hostChunkNs + (chunks + 1) * engineChunkNs + 4 * kCableNs);
    EXPECT_LT(packet, hostChunkNs + (chunks + 1) * engineChunkNs + 4 * kCableNs + 3 * hostChunkNs);
}
