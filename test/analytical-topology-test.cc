/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ASTRA-sim network files read through the fabric, the analytical dimensions of a fabric,
// and the analytical network's addressing and routes.
#include "ns3/analytical-fabric-dimensions.h"
#include "ns3/analytical-router.h"
#include "ns3/analytical-topology.h"
#include "ns3/clos-builder.h"
#include "ns3/input-error.h"
#include "ns3/multi-dim-builder.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const std::string kNetworkDir =
    std::string(MLFABRIC_SHARED_DIR) + "/data/astra-sim/network/analytical/";

/** Expect LoadYaml to throw an InputError containing \p fragment for \p yaml. */
void
ExpectInputError(const std::string& yaml, const std::string& fragment)
{
    const std::string path = testing::TempDir() + "net.yml";
    {
        std::ofstream out(path);
        out << yaml;
    }
    try
    {
        AnalyticalTopology::LoadYaml(path);
        FAIL() << "no error for:\n" << yaml;
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
    std::remove(path.c_str());
}

/** One dimension of ASTRA-sim's figures. */
DimensionSpec
Spec(DimensionTopology topology, uint32_t npus, uint64_t rateBps, int64_t delayPs)
{
    DimensionSpec spec;
    spec.topology = topology;
    spec.npus = npus;
    spec.link.rateBps = rateBps;
    spec.link.delayPs = delayPs;
    return spec;
}

} // namespace

TEST(AnalyticalTopology, ReadsTheShippedRingFiles)
{
    for (uint32_t n : {4U, 8U, 16U})
    {
        auto t =
            AnalyticalTopology::LoadYaml(kNetworkDir + "Ring_" + std::to_string(n) + "npus.yml");
        ASSERT_EQ(t.GetDimensions().size(), 1U);
        EXPECT_EQ(t.GetDimensions()[0].block, AnalyticalBlock::Ring);
        EXPECT_EQ(t.GetNpuCount(), n);
        EXPECT_DOUBLE_EQ(t.GetDimensions()[0].bandwidthGBps, 50.0);
        EXPECT_DOUBLE_EQ(t.GetDimensions()[0].latencyNs, 500.0);
    }
}

TEST(AnalyticalTopology, ReadsTheHgxSwitch)
{
    auto t = AnalyticalTopology::LoadYaml(kNetworkDir + "HGX-H100-validated.yml");
    ASSERT_EQ(t.GetDimensions().size(), 1U);
    EXPECT_EQ(t.GetDimensions()[0].block, AnalyticalBlock::Switch);
    EXPECT_EQ(t.GetNpuCount(), 8U);
    EXPECT_DOUBLE_EQ(t.GetDimensions()[0].bandwidthGBps, 400.0);
    EXPECT_DOUBLE_EQ(t.GetDimensions()[0].latencyNs, 936.25);
}

TEST(AnalyticalTopology, GigabyteIsTwoToTheThirty)
{
    // 50 GB/s = 50 * 2^30 / 10^9 B/ns.
    EXPECT_DOUBLE_EQ(AnalyticalTopology::ToBytesPerNs(50), 53.6870912);
}

TEST(AnalyticalTopology, MixedRadixAddressesDimensionZeroFastest)
{
    // ASTRA-sim's example: sizes [2, 8, 4], NPU 47 is at [1, 7, 2].
    AnalyticalTopology t({{AnalyticalBlock::Ring, 2, 1, 0},
                          {AnalyticalBlock::FullyConnected, 8, 1, 0},
                          {AnalyticalBlock::Switch, 4, 1, 0}});
    EXPECT_EQ(t.GetNpuCount(), 64U);
    EXPECT_EQ(t.GetCoordinate(47, 0), 1U);
    EXPECT_EQ(t.GetCoordinate(47, 1), 7U);
    EXPECT_EQ(t.GetCoordinate(47, 2), 2U);
    EXPECT_EQ(t.FirstDifferingDimension(37, 41), 1U);
    EXPECT_EQ(t.FirstDifferingDimension(26, 42), 2U);
    EXPECT_EQ(t.FirstDifferingDimension(0, 1), 0U);
}

TEST(AnalyticalRouter, RingTakesTheShorterWayAndClockwiseOnTies)
{
    AnalyticalTopology t({{AnalyticalBlock::Ring, 8, 1, 0}});
    AnalyticalRouter bidirectional(t, true);
    EXPECT_EQ(bidirectional.HopCount(0, 1, 4), 3U);
    EXPECT_EQ(bidirectional.HopCount(0, 1, 7), 2U); // anticlockwise 1 -> 0 -> 7
    auto route = bidirectional.Route(1, 7);
    ASSERT_EQ(route.size(), 2U);
    EXPECT_EQ(route[0].to, 0U);
    EXPECT_EQ(route[1].to, 7U);
    auto tie = bidirectional.Route(0, 4);
    ASSERT_EQ(tie.size(), 4U);
    EXPECT_EQ(tie[0].to, 1U);
    AnalyticalRouter oneWay(t, false);
    EXPECT_EQ(oneWay.HopCount(0, 1, 7), 6U);
}

TEST(AnalyticalRouter, SwitchGoesThroughOneSwitchPerLine)
{
    AnalyticalTopology t({{AnalyticalBlock::Ring, 2, 1, 0}, {AnalyticalBlock::Switch, 4, 1, 0}});
    AnalyticalRouter r(t, true);
    auto a = r.Route(0, 6); // dimension 1 coordinates 0 -> 3
    ASSERT_EQ(a.size(), 2U);
    EXPECT_EQ(a[0].from, 0U);
    EXPECT_GE(a[0].to, 8U);
    EXPECT_EQ(a[1].to, 6U);
    auto b = r.Route(2, 4); // same line (dimension 0 coordinate 0): same switch
    EXPECT_EQ(b[0].to, a[0].to);
    auto c = r.Route(1, 3); // the other line: another switch
    EXPECT_NE(c[0].to, a[0].to);
    // Across both dimensions: dimension 0 first, then the switch.
    auto d = r.Route(0, 7);
    ASSERT_EQ(d.size(), 3U);
    EXPECT_EQ(d[0].dimension, 0U);
    EXPECT_EQ(d[0].to, 1U);
    EXPECT_EQ(d[2].to, 7U);
}

TEST(AnalyticalTopology, ReadsFilesWithTheFabricReaderAndItsErrors)
{
    // Errors are those of the one ASTRA-sim reader: file, line and key.
    ExpectInputError("topology: [ Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ 50 ]\n", "latency");
    ExpectInputError("topology: [ Torus ]\nnpus_count: [ 8 ]\nbandwidth: [ 50 ]\nlatency: [ 1 ]\n",
                     "net.yml:1: topology");
    ExpectInputError("topology: [ Ring ]\nnpus_count: [ 1 ]\nbandwidth: [ 50 ]\nlatency: [ 1 ]\n",
                     "net.yml:2: npus_count");
    ExpectInputError("topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 0 ]\nlatency: [ 1 ]\n",
                     "net.yml:3: bandwidth");
    ExpectInputError("topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 5 ]\nlatency: [ -1 ]\n",
                     "net.yml:4: latency");
    ExpectInputError("topology: [ Ring, Switch ]\nnpus_count: [ 4 ]\nbandwidth: [ 5, 5 ]\n"
                     "latency: [ 1, 1 ]\n",
                     "1 entries but topology has 2");
    ExpectInputError("topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 5 ]\nlatency: [ 1 ]\n"
                     "links: 3\n",
                     "links");
    EXPECT_THROW(AnalyticalTopology::LoadYaml("/nonexistent/net.yml"), InputError);
}

TEST(AnalyticalTopology, FabricDimensionsRoundTrip)
{
    // Dyadic GB/s and whole-ps latencies survive topology -> fabric -> topology exactly.
    const AnalyticalTopology t({{AnalyticalBlock::Ring, 2, 200.0, 50.0},
                                {AnalyticalBlock::FullyConnected, 8, 100.0, 500.0},
                                {AnalyticalBlock::Switch, 4, 936.25, 0.5}});
    const Fabric fabric = MakeDimensionFabric(t, "rt");
    EXPECT_EQ(fabric.GetNpuCount(), 64U);
    EXPECT_EQ(fabric.GetSwitchCount(), 16U);
    const auto back = MakeAnalyticalTopology(fabric);
    ASSERT_EQ(back.GetDimensions().size(), 3U);
    for (size_t d = 0; d < 3; ++d)
    {
        EXPECT_EQ(back.GetDimensions()[d].block, t.GetDimensions()[d].block);
        EXPECT_EQ(back.GetDimensions()[d].npus, t.GetDimensions()[d].npus);
        EXPECT_EQ(back.GetDimensions()[d].bandwidthGBps, t.GetDimensions()[d].bandwidthGBps);
        EXPECT_EQ(back.GetDimensions()[d].latencyNs, t.GetDimensions()[d].latencyNs);
    }
}

TEST(AnalyticalTopology, GoodputFractionScalesTheBandwidth)
{
    const Fabric fabric = BuildMultiDim(
        "sw8", {Spec(DimensionTopology::Switch, 8, 400000000000ULL, 1500)}); // 400 Gb/s = 50e9 B/s
    const auto t = MakeAnalyticalTopology(fabric, 0.9);
    EXPECT_DOUBLE_EQ(AnalyticalTopology::ToBytesPerNs(t.GetDimensions()[0].bandwidthGBps), 45.0);
    EXPECT_DOUBLE_EQ(t.GetDimensions()[0].latencyNs, 1.5);
    EXPECT_THROW(MakeAnalyticalTopology(fabric, 0), InputError);
    EXPECT_THROW(MakeAnalyticalTopology(fabric, 1.5), InputError);
}

TEST(AnalyticalTopology, FabricsWithoutDimensionsAreRefusedByName)
{
    auto expectRefused = [](const Fabric& fabric, std::vector<std::string> fragments)
    {
        std::string why;
        EXPECT_FALSE(HasAnalyticalDimensions(fabric, &why));
        try
        {
            MakeAnalyticalTopology(fabric);
            ADD_FAILURE() << "no error for " << fabric.GetName();
        }
        catch (const InputError& e)
        {
            EXPECT_EQ(std::string(e.what()), why);
            for (const auto& f : fragments)
            {
                EXPECT_NE(why.find(f), std::string::npos) << why;
            }
        }
    };
    ClosSpec clos;
    clos.hostsPerLeaf = 4;
    clos.spines = 2;
    clos.hostLink.rateBps = clos.leafLink.rateBps = 100000000000ULL;
    expectRefused(BuildClos("leafspine", 8, clos), {"fabric 'leafspine'", "Clos"});

    Fabric bare("bare"); // as an HPCC topology file gives it: no dimension metadata
    const uint32_t a = bare.AddNpu();
    const uint32_t b = bare.AddNpu();
    bare.AddLink(a, b, clos.hostLink);
    expectRefused(bare, {"fabric 'bare'", "no dimension structure"});

    // One rate per dimension: a faster link in it has no closed form.
    Fabric mixed =
        BuildMultiDim("mixed", {Spec(DimensionTopology::Ring, 4, 400000000000ULL, 1000)});
    LinkSettings fast = mixed.GetLink(0).settings;
    fast.rateBps *= 2;
    mixed.AddLink(mixed.GetNpuNode(0), mixed.GetNpuNode(2), fast, 0);
    expectRefused(mixed, {"fabric 'mixed'", "differs in rate", "dimension 0"});
}
