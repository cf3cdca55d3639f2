/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Node, switch and link counts, hop distances and bisection of every builder, against
// closed forms.
#include "ns3/bisection.h"
#include "ns3/clos-builder.h"
#include "ns3/fabric-check.h"
#include "ns3/fat-tree-builder.h"
#include "ns3/input-error.h"
#include "ns3/link-defaults.h"
#include "ns3/mixed-radix.h"
#include "ns3/multi-dim-builder.h"
#include "ns3/rail-builder.h"
#include "ns3/shortest-path-routing.h"
#include "ns3/torus-builder.h"

#include <boost/graph/breadth_first_search.hpp>
#include <gtest/gtest.h>

#include <functional>

using namespace ns3;

namespace
{

const uint64_t G = 1000000000ULL;

LinkSettings
Link(uint64_t gbps)
{
    return LinkDefaults().Make(gbps * G, 1000000);
}

/** Hop distances from one node over the plain Boost graph. */
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

/** Check every NPU pair's graph distance and routed hops against \p expected. */
void
ExpectNpuDistances(const Fabric& fabric,
                   const std::function<uint32_t(uint32_t, uint32_t)>& expected)
{
    const RoutingTable routing = ComputeShortestPathRouting(fabric);
    for (uint32_t a = 0; a < fabric.GetNpuCount(); ++a)
    {
        const auto dist = GraphDistances(fabric, fabric.GetNpuNode(a));
        for (uint32_t b = 0; b < fabric.GetNpuCount(); ++b)
        {
            ASSERT_EQ(dist[fabric.GetNpuNode(b)], expected(a, b)) << "NPUs " << a << ", " << b;
            ASSERT_EQ(routing.GetHops(fabric.GetNpuNode(a), b), expected(a, b))
                << "NPUs " << a << ", " << b;
        }
    }
}

uint32_t
RingDistance(uint32_t a, uint32_t b, uint32_t n)
{
    const uint32_t d = a > b ? a - b : b - a;
    return std::min(d, n - d);
}

/** Links and switches a list of ASTRA-sim dimensions must give. */
void
ExpectMultiDimCounts(const std::vector<DimensionSpec>& dims)
{
    uint64_t npus = 1;
    for (const auto& d : dims)
    {
        npus *= d.npus;
    }
    uint64_t links = 0;
    uint64_t switches = 0;
    for (const auto& d : dims)
    {
        const uint64_t groups = npus / d.npus;
        switch (d.topology)
        {
        case DimensionTopology::Ring:
            links += groups * (d.npus == 2 ? 1 : d.npus);
            break;
        case DimensionTopology::FullyConnected:
            links += groups * d.npus * (d.npus - 1) / 2;
            break;
        case DimensionTopology::Switch:
            links += npus;
            switches += groups;
            break;
        }
    }
    const Fabric fabric = BuildMultiDim("m", dims);
    EXPECT_EQ(fabric.GetNpuCount(), npus);
    EXPECT_EQ(fabric.GetSwitchCount(), switches);
    EXPECT_EQ(fabric.GetLinkCount(), links);
    EXPECT_EQ(fabric.GetDimensions().size(), dims.size());
    CheckFabric(fabric, "test");

    std::vector<uint32_t> sizes;
    for (const auto& d : dims)
    {
        sizes.push_back(d.npus);
    }
    const MixedRadix radix(sizes);
    ExpectNpuDistances(fabric,
                       [&](uint32_t a, uint32_t b)
                       {
                           uint32_t hops = 0;
                           for (uint32_t d = 0; d < dims.size(); ++d)
                           {
                               const uint32_t x = radix.GetCoordinate(a, d);
                               const uint32_t y = radix.GetCoordinate(b, d);
                               if (x == y)
                               {
                                   continue;
                               }
                               hops += dims[d].topology == DimensionTopology::Ring
                                           ? RingDistance(x, y, dims[d].npus)
                                       : dims[d].topology == DimensionTopology::Switch ? 2
                                                                                       : 1;
                           }
                           return hops;
                       });
    // The closed form and the max-flow cut agree whenever the builder knows the former.
    if (fabric.GetStructuralBisection() != 0)
    {
        EXPECT_EQ(ComputeRankHalvesCut(fabric), fabric.GetStructuralBisection());
    }
}

} // namespace

TEST(FabricMixedRadix, DimensionZeroIsFastest)
{
    const MixedRadix radix({2, 8, 4});
    EXPECT_EQ(radix.GetProduct(), 64u);
    // id = a0 + 2 * (a1 + 8 * a2)
    const uint64_t id = 1 + 2 * (5 + 8 * 3);
    EXPECT_EQ(radix.GetCoordinate(id, 0), 1u);
    EXPECT_EQ(radix.GetCoordinate(id, 1), 5u);
    EXPECT_EQ(radix.GetCoordinate(id, 2), 3u);
    EXPECT_EQ(radix.WithCoordinate(id, 1, 0), 1u + 2 * (0 + 8 * 3));
    EXPECT_EQ(radix.GetStride(2), 16u);
}

TEST(FabricMultiDim, CountsAndDistancesMatchClosedForms)
{
    const auto R = DimensionTopology::Ring;
    const auto F = DimensionTopology::FullyConnected;
    const auto S = DimensionTopology::Switch;
    ExpectMultiDimCounts({{R, 8, Link(400), ""}});
    ExpectMultiDimCounts({{R, 2, Link(400), ""}});
    ExpectMultiDimCounts({{R, 3, Link(400), ""}});
    ExpectMultiDimCounts({{S, 8, Link(400), ""}});
    ExpectMultiDimCounts({{F, 5, Link(400), ""}});
    ExpectMultiDimCounts({{R, 2, Link(200), ""}, {F, 8, Link(100), ""}, {S, 4, Link(50), ""}});
    ExpectMultiDimCounts({{S, 4, Link(400), ""}, {R, 4, Link(100), ""}});
    ExpectMultiDimCounts({{F, 3, Link(400), ""}, {R, 5, Link(100), ""}, {R, 2, Link(100), ""}});
}

TEST(FabricMultiDim, PortsFollowLinkOrderAndPeersAgree)
{
    const Fabric fabric = BuildMultiDim("p",
                                        {{DimensionTopology::Switch, 4, Link(400), ""},
                                         {DimensionTopology::Ring, 4, Link(100), ""}});
    for (uint32_t node = 0; node < fabric.GetNodeCount(); ++node)
    {
        for (uint32_t p = 0; p < fabric.GetPortCount(node); ++p)
        {
            const FabricPort& port = fabric.GetPort(node, p);
            const FabricPort& back = fabric.GetPort(port.peer, port.peerPort);
            EXPECT_EQ(back.peer, node);
            EXPECT_EQ(back.peerPort, p);
            EXPECT_EQ(back.link, port.link);
        }
    }
    // Every NPU: one port to its scale-up switch, then two ring ports.
    for (uint32_t rank = 0; rank < fabric.GetNpuCount(); ++rank)
    {
        const uint32_t node = fabric.GetNpuNode(rank);
        ASSERT_EQ(fabric.GetPortCount(node), 3u);
        EXPECT_EQ(fabric.GetLink(fabric.GetPort(node, 0).link).dimension, 0);
        EXPECT_FALSE(fabric.IsNpu(fabric.GetPort(node, 0).peer));
        EXPECT_EQ(fabric.GetLink(fabric.GetPort(node, 1).link).dimension, 1);
        EXPECT_EQ(fabric.GetLink(fabric.GetPort(node, 2).link).dimension, 1);
    }
}

TEST(FabricMultiDim, StructuralBisection)
{
    // 4 rings of 8 NPUs across the last dimension: each ring is cut twice.
    const Fabric ring = BuildMultiDim("r",
                                      {{DimensionTopology::Switch, 4, Link(400), ""},
                                       {DimensionTopology::Ring, 8, Link(100), ""}});
    EXPECT_EQ(ring.GetStructuralBisection(), 4 * 2 * 100 * G);
    const Fabric full = BuildMultiDim("f", {{DimensionTopology::FullyConnected, 8, Link(100), ""}});
    EXPECT_EQ(full.GetStructuralBisection(), 16 * 100 * G);
    EXPECT_EQ(ComputeRankHalvesCut(full), 16 * 100 * G);
}

TEST(FabricTorus, CountsAndDistances)
{
    for (const std::vector<uint32_t>& sizes :
         {std::vector<uint32_t>{4, 4}, {3, 5}, {2, 6}, {4, 4, 4}, {2, 3, 4}})
    {
        const Fabric torus = BuildTorus("t", sizes, Link(100));
        uint64_t npus = 1;
        for (uint32_t k : sizes)
        {
            npus *= k;
        }
        uint64_t links = 0;
        for (uint32_t k : sizes)
        {
            links += npus / k * (k == 2 ? 1 : k);
        }
        EXPECT_EQ(torus.GetNpuCount(), npus);
        EXPECT_EQ(torus.GetSwitchCount(), 0u);
        EXPECT_EQ(torus.GetLinkCount(), links);
        const MixedRadix radix(sizes);
        ExpectNpuDistances(torus,
                           [&](uint32_t a, uint32_t b)
                           {
                               uint32_t hops = 0;
                               for (uint32_t d = 0; d < sizes.size(); ++d)
                               {
                                   hops += RingDistance(radix.GetCoordinate(a, d),
                                                        radix.GetCoordinate(b, d),
                                                        sizes[d]);
                               }
                               return hops;
                           });
    }
    EXPECT_THROW(BuildTorus("t", {8}, Link(100)), InputError);
    EXPECT_THROW(BuildTorus("t", {4, 1}, Link(100)), InputError);
}

TEST(FabricClos, TwoTierCountsDistancesAndBisection)
{
    struct Case
    {
        uint32_t hosts, perLeaf, spines;
    };
    for (const Case& c : {Case{32, 8, 4}, Case{16, 4, 2}, Case{24, 4, 1}, Case{8, 8, 0}})
    {
        ClosSpec spec;
        spec.hostsPerLeaf = c.perLeaf;
        spec.spines = c.spines;
        spec.hostLink = Link(100);
        spec.leafLink = Link(400);
        const Fabric clos = BuildClos("c", c.hosts, spec);
        const uint32_t leaves = c.hosts / c.perLeaf;
        EXPECT_EQ(clos.GetNpuCount(), c.hosts);
        EXPECT_EQ(clos.GetSwitchCount(), leaves + c.spines);
        EXPECT_EQ(clos.GetLinkCount(), c.hosts + leaves * c.spines);
        ExpectNpuDistances(clos,
                           [&](uint32_t a, uint32_t b) -> uint32_t {
                               return a == b ? 0 : a / c.perLeaf == b / c.perLeaf ? 2 : 4;
                           });
        const uint64_t expected = leaves == 1 ? c.hosts / 2 * 100 * G
                                              : std::min<uint64_t>(c.hosts / 2 * 100 * G,
                                                                   leaves / 2 * c.spines * 400 * G);
        EXPECT_EQ(clos.GetStructuralBisection(), expected);
        EXPECT_EQ(ComputeRankHalvesCut(clos), expected);
    }
}

TEST(FabricClos, OversubscriptionGivesUplinks)
{
    EXPECT_EQ(UplinksForOversubscription(16, 100 * G, 400 * G, 1, "k"), 4u);
    EXPECT_EQ(UplinksForOversubscription(16, 100 * G, 400 * G, 2, "k"), 2u);
    EXPECT_EQ(UplinksForOversubscription(16, 100 * G, 100 * G, 4, "k"), 4u);
    EXPECT_THROW(UplinksForOversubscription(16, 100 * G, 400 * G, 3, "k"), InputError);
    EXPECT_THROW(UplinksForOversubscription(16, 100 * G, 400 * G, 0.5, "k"), InputError);
}

TEST(FabricClos, ThreeTierCountsDistancesAndBisection)
{
    ClosSpec spec;
    spec.tiers = 3;
    spec.hostsPerLeaf = 4;
    spec.leavesPerPod = 2;
    spec.aggsPerPod = 2;
    spec.cores = 4;
    spec.hostLink = Link(100);
    spec.leafLink = Link(100);
    spec.coreLink = Link(100);
    const uint32_t pods = 4;
    const uint32_t hosts = pods * spec.leavesPerPod * spec.hostsPerLeaf;
    const Fabric clos = BuildClos("c3", hosts, spec);
    EXPECT_EQ(clos.GetSwitchCount(), pods * (spec.leavesPerPod + spec.aggsPerPod) + spec.cores);
    EXPECT_EQ(clos.GetLinkCount(),
              hosts + pods * spec.leavesPerPod * spec.aggsPerPod + pods * spec.cores);
    ExpectNpuDistances(clos,
                       [&](uint32_t a, uint32_t b) -> uint32_t
                       {
                           const uint32_t perPod = spec.leavesPerPod * spec.hostsPerLeaf;
                           return a == b                                           ? 0
                                  : a / spec.hostsPerLeaf == b / spec.hostsPerLeaf ? 2
                                  : a / perPod == b / perPod                       ? 4
                                                                                   : 6;
                       });
    // Pod uplinks: 2 pods x 2 leaves x 2 aggs = 8 links; cores: 2 pods x 4 = 8 links.
    EXPECT_EQ(clos.GetStructuralBisection(), std::min<uint64_t>(16 * 100 * G, 8 * 100 * G));
    EXPECT_EQ(ComputeRankHalvesCut(clos), clos.GetStructuralBisection());
}

TEST(FabricFatTree, CountsDistancesAndBisection)
{
    for (uint32_t k : {2u, 4u, 6u, 8u})
    {
        for (uint32_t s : {1u, 2u})
        {
            FatTreeSpec spec{k, s, Link(100), Link(100), Link(100)};
            const Fabric tree = BuildFatTree("ft", spec);
            const uint32_t hosts = s * k * k * k / 4;
            EXPECT_EQ(tree.GetNpuCount(), hosts);
            EXPECT_EQ(tree.GetSwitchCount(), 5 * k * k / 4);
            EXPECT_EQ(tree.GetLinkCount(), hosts + k * k * k / 2);
            const uint32_t perEdge = s * k / 2;
            const uint32_t perPod = perEdge * k / 2;
            ExpectNpuDistances(tree,
                               [&](uint32_t a, uint32_t b) -> uint32_t {
                                   return a == b                       ? 0
                                          : a / perEdge == b / perEdge ? 2
                                          : a / perPod == b / perPod   ? 4
                                                                       : 6;
                               });
            // Full bisection for s = 1; halved uplinks per host for s = 2.
            EXPECT_EQ(tree.GetStructuralBisection(), uint64_t{k} * k * k / 8 * 100 * G)
                << "k " << k << " s " << s;
            EXPECT_EQ(ComputeRankHalvesCut(tree), tree.GetStructuralBisection());
        }
    }
    EXPECT_THROW(BuildFatTree("ft", FatTreeSpec{5, 1, Link(1), Link(1), Link(1)}), InputError);
}

TEST(FabricRail, CountsDistancesAndBisection)
{
    struct Case
    {
        uint32_t servers, gpus, perSwitch, spines;
    };
    for (const Case& c : {Case{4, 8, 0, 2}, Case{4, 8, 2, 2}, Case{8, 4, 2, 4}, Case{4, 4, 0, 0}})
    {
        RailSpec spec;
        spec.servers = c.servers;
        spec.serversPerRailSwitch = c.perSwitch;
        spec.spines = c.spines;
        spec.nicLink = Link(400);
        spec.spineLink = Link(400);
        const Fabric rail = BuildRailOptimized("rail", c.gpus, Link(3600), spec);
        const uint32_t perSwitch = c.perSwitch == 0 ? c.servers : c.perSwitch;
        const uint32_t railSwitches = c.gpus * (c.servers / perSwitch);
        EXPECT_EQ(rail.GetNpuCount(), c.servers * c.gpus);
        EXPECT_EQ(rail.GetSwitchCount(), c.servers + railSwitches + c.spines);
        EXPECT_EQ(rail.GetLinkCount(), 2 * c.servers * c.gpus + railSwitches * c.spines);
        EXPECT_EQ(rail.GetNode(rail.GetNpuNode(0)).forwards, c.spines == 0);
        ExpectNpuDistances(rail,
                           [&](uint32_t a, uint32_t b) -> uint32_t
                           {
                               const uint32_t sa = a / c.gpus, sb = b / c.gpus;
                               const uint32_t ra = a % c.gpus, rb = b % c.gpus;
                               if (a == b)
                               {
                                   return 0;
                               }
                               if (sa == sb || (ra == rb && sa / perSwitch == sb / perSwitch))
                               {
                                   return 2;
                               }
                               // Through a spine, or (rail-only) through the peer server's
                               // scale-up.
                               return 4;
                           });
        if (rail.GetStructuralBisection() != 0)
        {
            EXPECT_EQ(ComputeRankHalvesCut(rail), rail.GetStructuralBisection());
        }
    }
}

TEST(FabricCheck, DisconnectedAndTinyFabricsAreRejected)
{
    Fabric two("two");
    two.AddNpu();
    two.AddNpu();
    two.AddNpu();
    two.AddLink(0, 1, Link(100));
    try
    {
        CheckFabric(two, "two.yaml");
        FAIL() << "a disconnected fabric was accepted";
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find("disconnected"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("npu2"), std::string::npos) << e.what();
    }
    Fabric one("one");
    one.AddNpu();
    EXPECT_THROW(CheckFabric(one, "one.yaml"), InputError);
    EXPECT_THROW(two.AddLink(0, 7, Link(100)), InputError);
    EXPECT_THROW(two.AddLink(1, 1, Link(100)), InputError);
}

TEST(FabricCheck, NpuForwardingIsNeededOnlyWithoutOneSwitchNetwork)
{
    ClosSpec spec;
    spec.hostsPerLeaf = 4;
    spec.spines = 2;
    spec.hostLink = Link(100);
    spec.leafLink = Link(100);
    EXPECT_FALSE(NpusNeedForwarding(BuildClos("c", 16, spec)));
    EXPECT_TRUE(NpusNeedForwarding(BuildTorus("t", {4, 4}, Link(100))));
    EXPECT_TRUE(NpusNeedForwarding(BuildMultiDim("s",
                                                 {{DimensionTopology::Switch, 4, Link(1), ""},
                                                  {DimensionTopology::Switch, 2, Link(1), ""}})));
}
