/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Routing on the fabric graph: reachability, route lengths, complete ECMP sets,
// dimension-order routing and the channel dependency check.
#include "ns3/channel-dependency-graph.h"
#include "ns3/clos-builder.h"
#include "ns3/fabric-routing.h"
#include "ns3/fat-tree-builder.h"
#include "ns3/input-error.h"
#include "ns3/link-defaults.h"
#include "ns3/mixed-radix.h"
#include "ns3/multi-dim-builder.h"
#include "ns3/rail-builder.h"
#include "ns3/torus-builder.h"

#include <boost/graph/breadth_first_search.hpp>
#include <gtest/gtest.h>

#include <chrono>

using namespace ns3;

namespace
{

const uint64_t G = 1000000000ULL;

LinkSettings
Link(uint64_t gbps)
{
    return LinkDefaults().Make(gbps * G, 500000);
}

std::vector<uint32_t>
GraphDistances(const Fabric& fabric, uint32_t from)
{
    std::vector<uint32_t> dist(fabric.GetNodeCount(), 0);
    boost::breadth_first_search(fabric.GetGraph(),
                                from,
                                boost::visitor(boost::make_bfs_visitor(
                                    boost::record_distances(dist.data(), boost::on_tree_edge()))));
    return dist;
}

/**
 * Number of routes from \p node to NPU \p dst through the ECMP sets, or 0 when one
 * of them ends anywhere but at dst or has a length other than the table's hops.
 */
uint64_t
CountRoutes(const Fabric& fabric,
            const RoutingTable& routing,
            uint32_t node,
            uint32_t dst,
            std::vector<int64_t>& memo)
{
    if (node == fabric.GetNpuNode(dst))
    {
        return 1;
    }
    if (memo[node] >= 0)
    {
        return static_cast<uint64_t>(memo[node]);
    }
    uint64_t routes = 0;
    for (uint32_t port : routing.GetEgressPorts(node, dst))
    {
        const uint32_t next = fabric.GetPort(node, port).peer;
        if (routing.GetHops(next, dst) + 1 != routing.GetHops(node, dst))
        {
            memo[node] = 0;
            return 0;
        }
        routes += CountRoutes(fabric, routing, next, dst, memo);
    }
    memo[node] = static_cast<int64_t>(routes);
    return routes;
}

/**
 * For a fabric whose every node may forward (or whose NPUs are leaves of the graph):
 * each NPU reaches each NPU, routes are as long as graph distances, and the number of
 * routes through the ECMP sets equals the number of shortest paths in the graph.
 */
void
ExpectCompleteShortestPaths(const Fabric& fabric)
{
    const RoutingTable routing = ComputeRouting(fabric, RoutingAlgorithm::ShortestPath);
    for (uint32_t dst = 0; dst < fabric.GetNpuCount(); ++dst)
    {
        const auto dist = GraphDistances(fabric, fabric.GetNpuNode(dst));
        // Shortest paths counted layer by layer on the Boost graph.
        std::vector<std::vector<uint32_t>> layers;
        for (uint32_t v = 0; v < fabric.GetNodeCount(); ++v)
        {
            layers.resize(std::max<size_t>(layers.size(), dist[v] + 1));
            layers[dist[v]].push_back(v);
        }
        std::vector<uint64_t> paths(fabric.GetNodeCount(), 0);
        paths[fabric.GetNpuNode(dst)] = 1;
        for (size_t level = 1; level < layers.size(); ++level)
        {
            for (uint32_t v : layers[level])
            {
                for (const auto& port : fabric.GetPorts(v))
                {
                    if (dist[port.peer] + 1 == dist[v] &&
                        (fabric.GetNode(port.peer).forwards || port.peer == fabric.GetNpuNode(dst)))
                    {
                        paths[v] += paths[port.peer];
                    }
                }
            }
        }
        std::vector<int64_t> memo(fabric.GetNodeCount(), -1);
        for (uint32_t src = 0; src < fabric.GetNpuCount(); ++src)
        {
            const uint32_t node = fabric.GetNpuNode(src);
            ASSERT_EQ(routing.GetHops(node, dst), dist[node]) << src << " -> " << dst;
            ASSERT_EQ(CountRoutes(fabric, routing, node, dst, memo), paths[node])
                << src << " -> " << dst;
        }
    }
}

/** Each consecutive pair of the reported cycle is a dependency through a shared node. */
void
ExpectRealCycle(const Fabric& fabric, const ChannelDependencyGraph& cdg)
{
    const auto& cycle = cdg.GetCycle();
    ASSERT_GE(cycle.size(), 2u);
    for (size_t i = 0; i < cycle.size(); ++i)
    {
        const uint32_t from = cycle[i];
        const uint32_t to = cycle[(i + 1) % cycle.size()];
        EXPECT_TRUE(boost::edge(from, to, cdg.GetGraph()).second);
        const FabricLink& a = fabric.GetLink(from / 2);
        const FabricLink& b = fabric.GetLink(to / 2);
        const uint32_t head = from % 2 == 0 ? a.nodeB : a.nodeA;
        const uint32_t tail = to % 2 == 0 ? b.nodeA : b.nodeB;
        EXPECT_EQ(head, tail) << cdg.DescribeCycle();
    }
}

/** Follow the first port of every ECMP set from every NPU to every NPU. */
void
ExpectEveryPairRouted(const Fabric& fabric, const RoutingTable& routing)
{
    for (uint32_t src = 0; src < fabric.GetNpuCount(); ++src)
    {
        for (uint32_t dst = 0; dst < fabric.GetNpuCount(); ++dst)
        {
            uint32_t node = fabric.GetNpuNode(src);
            uint32_t hops = 0;
            while (node != fabric.GetNpuNode(dst) &&
                   hops <= routing.GetHops(fabric.GetNpuNode(src), dst))
            {
                const PortSet ports = routing.GetEgressPorts(node, dst);
                ASSERT_FALSE(ports.empty()) << src << " -> " << dst << " stuck at " << node;
                node = fabric.GetPort(node, ports[0]).peer;
                ++hops;
            }
            ASSERT_EQ(node, fabric.GetNpuNode(dst)) << src << " -> " << dst;
            ASSERT_EQ(hops, routing.GetHops(fabric.GetNpuNode(src), dst));
        }
    }
}

ClosSpec
TwoTier(uint32_t perLeaf, uint32_t spines)
{
    ClosSpec spec;
    spec.hostsPerLeaf = perLeaf;
    spec.spines = spines;
    spec.hostLink = Link(100);
    spec.leafLink = Link(100);
    return spec;
}

} // namespace

TEST(FabricRouting, ShortestPathsAreCompleteOnEveryBuilder)
{
    ExpectCompleteShortestPaths(BuildClos("clos", 32, TwoTier(8, 4)));
    ExpectCompleteShortestPaths(
        BuildFatTree("ft", FatTreeSpec{4, 1, Link(100), Link(100), Link(100)}));
    ExpectCompleteShortestPaths(
        BuildFatTree("ft2", FatTreeSpec{6, 2, Link(100), Link(100), Link(100)}));
    ExpectCompleteShortestPaths(BuildTorus("t", {4, 4}, Link(100)));
    ExpectCompleteShortestPaths(BuildTorus("t3", {3, 4, 2}, Link(100)));
    ExpectCompleteShortestPaths(
        BuildMultiDim("m",
                      {{DimensionTopology::Ring, 2, Link(200), ""},
                       {DimensionTopology::FullyConnected, 4, Link(100), ""},
                       {DimensionTopology::Switch, 4, Link(50), ""}}));
    RailSpec rail;
    rail.servers = 4;
    rail.spines = 2;
    rail.nicLink = Link(400);
    rail.spineLink = Link(400);
    ExpectCompleteShortestPaths(BuildRailOptimized("rail", 4, Link(3600), rail));
}

TEST(FabricRouting, EcmpWidthOfAFatTreeIsHalfTheRadix)
{
    const uint32_t k = 8;
    const Fabric tree = BuildFatTree("ft", FatTreeSpec{k, 1, Link(100), Link(100), Link(100)});
    const RoutingTable routing = ComputeRouting(tree, RoutingAlgorithm::ShortestPath);
    const uint32_t edge = tree.FindNode("leaf0");
    const uint32_t agg = tree.FindNode("agg0-0");
    const uint32_t core = tree.FindNode("core0");
    const uint32_t remote = tree.GetNpuCount() - 1; // in the last pod
    EXPECT_EQ(routing.GetEgressPorts(edge, remote).size(), k / 2);
    EXPECT_EQ(routing.GetEgressPorts(agg, remote).size(), k / 2);
    EXPECT_EQ(routing.GetEgressPorts(core, remote).size(), 1u);
    EXPECT_EQ(routing.GetEgressPorts(edge, 0).size(), 1u);
    EXPECT_EQ(routing.GetHops(tree.GetNpuNode(0), remote), 6u);
    EXPECT_TRUE(routing.GetEgressPorts(tree.GetNpuNode(remote), remote).empty());
}

TEST(FabricRouting, HostsNeverCarryTransitWhenTheyDoNotForward)
{
    // Rail-optimized with spines: cross-rail traffic goes up to a spine, never through
    // another server's GPU.
    RailSpec rail;
    rail.servers = 2;
    rail.spines = 1;
    rail.nicLink = Link(400);
    rail.spineLink = Link(400);
    const Fabric fabric = BuildRailOptimized("rail", 2, Link(3600), rail);
    const RoutingTable routing = ComputeRouting(fabric, RoutingAlgorithm::ShortestPath);
    for (uint32_t node = 0; node < fabric.GetNodeCount(); ++node)
    {
        for (uint32_t dst = 0; dst < fabric.GetNpuCount(); ++dst)
        {
            for (uint32_t port : routing.GetEgressPorts(node, dst))
            {
                const uint32_t next = fabric.GetPort(node, port).peer;
                EXPECT_TRUE(!fabric.IsNpu(next) || next == fabric.GetNpuNode(dst));
            }
        }
    }
}

TEST(FabricRouting, RingUnderShortestPathsIsCyclic)
{
    const Fabric ring = BuildMultiDim("ring", {{DimensionTopology::Ring, 8, Link(100), ""}});
    const RoutingTable routing = ComputeRouting(ring, RoutingAlgorithm::ShortestPath);
    ExpectEveryPairRouted(ring, routing);
    const ChannelDependencyGraph cdg(ring, routing);
    EXPECT_EQ(cdg.GetChannelCount(), 16u);
    EXPECT_TRUE(cdg.IsCyclic());
    ExpectRealCycle(ring, cdg);
    // The cycle goes all the way round one way: 8 channels.
    EXPECT_EQ(cdg.GetCycle().size(), 8u) << cdg.DescribeCycle();
}

TEST(FabricRouting, SmallRingAndTreesAreAcyclic)
{
    // In a ring of 3 every NPU is a neighbour: nothing waits on anything.
    const Fabric ring3 = BuildMultiDim("ring3", {{DimensionTopology::Ring, 3, Link(100), ""}});
    const ChannelDependencyGraph small(ring3,
                                       ComputeRouting(ring3, RoutingAlgorithm::ShortestPath));
    EXPECT_FALSE(small.IsCyclic());
    EXPECT_EQ(small.GetDependencyCount(), 0u);
    // Up-down routing in a tree never turns down then up.
    const Fabric tree = BuildFatTree("ft", FatTreeSpec{4, 1, Link(100), Link(100), Link(100)});
    const ChannelDependencyGraph fat(tree, ComputeRouting(tree, RoutingAlgorithm::ShortestPath));
    EXPECT_FALSE(fat.IsCyclic());
    EXPECT_GT(fat.GetDependencyCount(), 0u);
}

TEST(FabricRouting, DimensionOrderOnATorusIsAcyclic)
{
    for (const std::vector<uint32_t>& sizes :
         {std::vector<uint32_t>{4, 4}, {5, 3}, {8, 8}, {4, 4, 4}, {2, 3, 6}})
    {
        const Fabric torus = BuildTorus("t", sizes, Link(100));
        const RoutingTable dor = ComputeRouting(torus, RoutingAlgorithm::DimensionOrder);
        ExpectEveryPairRouted(torus, dor);
        const ChannelDependencyGraph cdg(torus, dor);
        EXPECT_FALSE(cdg.IsCyclic()) << cdg.DescribeCycle();
        // Shortest paths on the same torus (rings of 4 or more) are cyclic.
        const ChannelDependencyGraph shortest(
            torus, ComputeRouting(torus, RoutingAlgorithm::ShortestPath));
        EXPECT_TRUE(shortest.IsCyclic());
        ExpectRealCycle(torus, shortest);
    }
}

TEST(FabricRouting, DimensionOrderRoutesFixLowDimensionsFirst)
{
    const std::vector<uint32_t> sizes{4, 4};
    const Fabric torus = BuildTorus("t", sizes, Link(100));
    const RoutingTable dor = ComputeRouting(torus, RoutingAlgorithm::DimensionOrder);
    const MixedRadix radix(sizes);
    for (uint32_t src = 0; src < torus.GetNpuCount(); ++src)
    {
        for (uint32_t dst = 0; dst < torus.GetNpuCount(); ++dst)
        {
            uint32_t node = torus.GetNpuNode(src);
            bool xDone = false;
            while (node != torus.GetNpuNode(dst))
            {
                const PortSet ports = dor.GetEgressPorts(node, dst);
                ASSERT_EQ(ports.size(), 1u);
                const uint32_t next = torus.GetPort(node, ports[0]).peer;
                const uint32_t a = torus.GetNode(node).rank;
                const uint32_t b = torus.GetNode(next).rank;
                const bool xMove = radix.GetCoordinate(a, 0) != radix.GetCoordinate(b, 0);
                // Once x is right, no more x moves; never pass through x = 0 or y = 0.
                EXPECT_FALSE(xDone && xMove);
                xDone = xDone || !xMove;
                if (next != torus.GetNpuNode(dst))
                {
                    const uint32_t d = xMove ? 0 : 1;
                    const bool lastOfPhase =
                        radix.GetCoordinate(b, d) == radix.GetCoordinate(dst, d);
                    EXPECT_TRUE(lastOfPhase || radix.GetCoordinate(b, d) != 0)
                        << src << " -> " << dst << " passes through coordinate 0";
                }
                node = next;
            }
        }
    }
    // From x = 3 to x = 1 on a ring of 4: the long way, 3 -> 2 -> 1, not through 0.
    EXPECT_EQ(dor.GetHops(torus.GetNpuNode(3), 1), 2u);
    EXPECT_EQ(dor.GetHops(torus.GetNpuNode(0), 3), 1u);
}

TEST(FabricRouting, DimensionOrderOnScaleUpAndClos)
{
    // Switch scale-up of 4 inside servers x rails with spines.
    RailSpec rail;
    rail.servers = 4;
    rail.spines = 2;
    rail.serversPerRailSwitch = 2;
    rail.nicLink = Link(400);
    rail.spineLink = Link(400);
    const Fabric fabric = BuildRailOptimized("rail", 4, Link(3600), rail);
    const RoutingTable dor = ComputeRouting(fabric, RoutingAlgorithm::DimensionOrder);
    ExpectEveryPairRouted(fabric, dor);
    // GPU 0 of server 0 to GPU 1 of server 3: to GPU 1 of server 0 through the scale-up
    // switch (2 hops), then up rail 1 and over a spine (4 hops).
    EXPECT_EQ(dor.GetHops(fabric.GetNpuNode(0), 3 * 4 + 1), 6u);
    const ChannelDependencyGraph cdg(fabric, dor);
    EXPECT_FALSE(cdg.IsCyclic()) << cdg.DescribeCycle();

    const Fabric noDims = []
    {
        Fabric f("bare");
        f.AddNpu();
        f.AddNpu();
        f.AddLink(0, 1, Link(100));
        return f;
    }();
    EXPECT_THROW(ComputeRouting(noDims, RoutingAlgorithm::DimensionOrder), InputError);
}

TEST(FabricRouting, UnreachablePairIsAnInputError)
{
    // Two hosts on a switch plus a third behind the second host, hosts not forwarding.
    Fabric fabric("stub");
    fabric.AddNpu();
    fabric.AddNpu();
    fabric.AddNpu();
    const uint32_t sw = fabric.AddSwitch("sw", "leaf", 1);
    fabric.AddLink(0, sw, Link(100));
    fabric.AddLink(1, sw, Link(100));
    fabric.AddLink(1, 2, Link(100));
    fabric.SetNpuForwarding(false);
    try
    {
        ComputeRouting(fabric, RoutingAlgorithm::ShortestPath);
        FAIL() << "an unreachable pair was accepted";
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find("cannot reach"), std::string::npos) << e.what();
    }
    fabric.SetNpuForwarding(true);
    EXPECT_EQ(ComputeRouting(fabric, RoutingAlgorithm::ShortestPath).GetHops(0, 2), 3u);
}

TEST(FabricRouting, ThousandNpuFatTreeIsQuickAndCompact)
{
    const auto start = std::chrono::steady_clock::now();
    const Fabric tree = BuildFatTree("ft16", FatTreeSpec{16, 1, Link(100), Link(100), Link(100)});
    ASSERT_EQ(tree.GetNpuCount(), 1024u);
    const RoutingTable routing = ComputeRouting(tree, RoutingAlgorithm::ShortestPath);
    const ChannelDependencyGraph cdg(tree, routing);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_FALSE(cdg.IsCyclic());
    // 1344 nodes x 1024 destinations: 6 bytes per entry, sets shared.
    EXPECT_LT(routing.GetMemoryBytes(), 1344ULL * 1024 * 7);
    EXPECT_LT(routing.GetDistinctSetCount(), 2000u);
    EXPECT_EQ(routing.GetHops(tree.GetNpuNode(0), 1023), 6u);
    RecordProperty("seconds", std::to_string(seconds));
    EXPECT_LT(seconds, 30.0);
}
