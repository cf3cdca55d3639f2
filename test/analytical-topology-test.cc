/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ASTRA-sim network YAML reading and the analytical network's addressing and routes.
#include "ns3/analytical-fabric-dimensions.h"
#include "ns3/analytical-router.h"
#include "ns3/analytical-topology.h"
#include "ns3/astra-network-reader.h"
#include "ns3/input-error.h"

#include <gtest/gtest.h>

#include <string>

using namespace ns3;

namespace
{

const std::string kNetworkDir =
    std::string(MLFABRIC_SHARED_DIR) + "/data/astra-sim/network/analytical/";

/** Expect an InputError whose message contains \p fragment. */
void
ExpectInputError(const std::string& yaml, const std::string& fragment)
{
    try
    {
        AnalyticalTopology::ParseYaml(yaml, "net.yml");
        FAIL() << "no error for:\n" << yaml;
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
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

TEST(AnalyticalTopology, RejectsBadFilesWithFileLineAndKey)
{
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
    ExpectInputError("topology: [ Ring ]\nnpus_count: [ four ]\nbandwidth: [ 5 ]\nlatency: [ 1 ]\n",
                     "npus_count");
    ExpectInputError("topology: [ Ring\n", "net.yml");
    EXPECT_THROW(AnalyticalTopology::LoadYaml("/nonexistent/net.yml"), InputError);
}

TEST(AnalyticalTopology, FabricDimensionsGiveTheSameNetwork)
{
    for (const std::string file : {"Ring_8npus.yml", "HGX-H100-validated.yml"})
    {
        SCOPED_TRACE(file);
        const auto direct = AnalyticalTopology::LoadYaml(kNetworkDir + file);
        const auto specs = ParseAstraNetwork(YamlInput(kNetworkDir + file), LinkDefaults());
        const auto viaFabric = MakeAnalyticalTopology(specs);
        ASSERT_EQ(viaFabric.GetDimensions().size(), direct.GetDimensions().size());
        for (size_t d = 0; d < direct.GetDimensions().size(); ++d)
        {
            const auto& a = direct.GetDimensions()[d];
            const auto& b = viaFabric.GetDimensions()[d];
            EXPECT_EQ(a.block, b.block);
            EXPECT_EQ(a.npus, b.npus);
            EXPECT_DOUBLE_EQ(a.bandwidthGBps, b.bandwidthGBps);
            EXPECT_DOUBLE_EQ(a.latencyNs, b.latencyNs);
        }
    }
}

TEST(AnalyticalTopology, GoodputFractionScalesTheBandwidth)
{
    DimensionSpec spec;
    spec.topology = DimensionTopology::Switch;
    spec.npus = 8;
    spec.link.rateBps = 400000000000ULL; // 400 Gb/s = 50e9 B/s
    spec.link.delayPs = 1500;
    const auto t = MakeAnalyticalTopology({spec}, 0.9);
    EXPECT_DOUBLE_EQ(AnalyticalTopology::ToBytesPerNs(t.GetDimensions()[0].bandwidthGBps), 45.0);
    EXPECT_DOUBLE_EQ(t.GetDimensions()[0].latencyNs, 1.5);
    EXPECT_THROW(MakeAnalyticalTopology({spec}, 0), InputError);
    EXPECT_THROW(MakeAnalyticalTopology({spec}, 1.5), InputError);
}
