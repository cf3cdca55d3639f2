/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ECN threshold maps per link rate: peer defaults, lookup, text form, errors.
#include "ns3/core-module.h"
#include "ns3/ecn-threshold-map.h"
#include "ns3/input-error.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint64_t kG = 1000000000ULL;

std::string
ErrorOf(const std::string& text)
{
    try
    {
        EcnThresholdMap::Parse(text);
    }
    catch (const InputError& e)
    {
        return e.what();
    }
    return "";
}

TEST(EcnThresholdMapTest, PeerDefaultsPerRate)
{
    const EcnThresholdMap map = EcnThresholdMap::PeerDefault();
    EXPECT_EQ(map.GetN(), 7U);
    // KB are 1000 bytes, as the peers multiply the configured values by 1000.
    EXPECT_EQ(map.Lookup(25 * kG).kminBytes, 100000U);
    EXPECT_EQ(map.Lookup(25 * kG).kmaxBytes, 400000U);
    EXPECT_EQ(map.Lookup(40 * kG).kmaxBytes, 800000U);
    EXPECT_EQ(map.Lookup(50 * kG).kminBytes, 200000U);
    EXPECT_EQ(map.Lookup(100 * kG).kminBytes, 400000U);
    EXPECT_EQ(map.Lookup(100 * kG).kmaxBytes, 1600000U);
    EXPECT_EQ(map.Lookup(200 * kG).kminBytes, 600000U);
    EXPECT_EQ(map.Lookup(400 * kG).kmaxBytes, 3200000U);
    EXPECT_DOUBLE_EQ(map.Lookup(400 * kG).pmax, 0.2);
    EXPECT_EQ(map.ToString(),
              "25Gbps:100KB/400KB/0.2,40Gbps:200KB/800KB/0.2,50Gbps:200KB/800KB/0.2,"
              "100Gbps:400KB/1600KB/0.2,200Gbps:600KB/2400KB/0.2,400Gbps:800KB/3200KB/0.2,"
              "2400Gbps:800KB/3200KB/0.2");
}

TEST(EcnThresholdMapTest, NearestLowerRate)
{
    const EcnThresholdMap map =
        EcnThresholdMap::Parse("25Gbps:100KB/400KB/0.2, 100Gbps:400KB/1600KB/0.1");
    EXPECT_EQ(map.Lookup(25 * kG).kminBytes, 100000U);
    EXPECT_EQ(map.Lookup(99 * kG).kminBytes, 100000U); // below 100G: the 25G entry
    EXPECT_EQ(map.Lookup(100 * kG).kminBytes, 400000U);
    EXPECT_EQ(map.Lookup(800 * kG).kminBytes, 400000U); // above every rate: the fastest
    EXPECT_EQ(map.Lookup(10 * kG).kminBytes, 100000U);  // below every rate: the slowest
    EXPECT_DOUBLE_EQ(map.Lookup(100 * kG).pmax, 0.1);
}

TEST(EcnThresholdMapTest, UnitsAndRoundTrip)
{
    const EcnThresholdMap map = EcnThresholdMap::Parse(
        "400Gbps:1MiB/2MB/1,2.4Tbps:800KiB/3200KB/0.5,10000000000b/s:5000B/20KB/0.01");
    EXPECT_EQ(map.Lookup(400 * kG).kminBytes, 1048576U);
    EXPECT_EQ(map.Lookup(400 * kG).kmaxBytes, 2000000U);
    EXPECT_EQ(map.Lookup(2400 * kG).kminBytes, 819200U);
    EXPECT_EQ(map.Lookup(10 * kG).kminBytes, 5000U);
    EXPECT_EQ(map.Lookup(10 * kG).kmaxBytes, 20000U);
    EXPECT_EQ(map.ToString(),
              "10Gbps:5KB/20KB/0.01,400Gbps:1048576B/2MB/1,2400Gbps:819200B/3200KB/0.5");
    EXPECT_EQ(EcnThresholdMap::Parse(map.ToString()), map);
}

TEST(EcnThresholdMapTest, BadTextIsOneClearError)
{
    EXPECT_EQ(ErrorOf("25Gbps:100KB/400KB"),
              "ECN threshold map: entry 1 '25Gbps:100KB/400KB' is not RATE:KMIN/KMAX/PMAX "
              "(e.g. 25Gbps:100KB/400KB/0.2)");
    EXPECT_EQ(ErrorOf("25Gbps:100KB/400KB/0.2,100Gbps:500KB/400KB/0.2"),
              "ECN threshold map: entry 2 '100Gbps:500KB/400KB/0.2': Kmin 500KB is above Kmax "
              "400KB");
    EXPECT_EQ(ErrorOf("25Gbps:100KB/400KB/1.5"),
              "ECN threshold map: entry 1 '25Gbps:100KB/400KB/1.5': Pmax must be in [0, 1]");
    EXPECT_EQ(ErrorOf("fastG:100KB/400KB/0.2"),
              "ECN threshold map: entry 1 'fastG:100KB/400KB/0.2': rate: 'fastG' is not a rate "
              "(write e.g. 100Gbps)");
    EXPECT_EQ(ErrorOf("0Gbps:100KB/400KB/0.2"),
              "ECN threshold map: entry 1 '0Gbps:100KB/400KB/0.2': rate: rate must be positive "
              "(got '0Gbps')");
    // The unit grammar: no prefix-only rates, no bare sizes (doc/units.md).
    EXPECT_EQ(ErrorOf("100G:400KB/1600KB/0.2"),
              "ECN threshold map: entry 1 '100G:400KB/1600KB/0.2': rate: 'G' in '100G' is not a "
              "rate unit (bps, Kbps, Mbps, Gbps, Tbps for bits; Bps, KBps, MBps, GBps, TBps for "
              "bytes per second; Kib/s, KiB/s, ... for binary prefixes)");
    EXPECT_EQ(ErrorOf("100Gbps:400/1600KB/0.2"),
              "ECN threshold map: entry 1 '100Gbps:400/1600KB/0.2': Kmin: '400' has no unit; "
              "write e.g. 400B");
    EXPECT_EQ(ErrorOf("100gbps:400KB/1600KB/0.2"),
              "ECN threshold map: entry 1 '100gbps:400KB/1600KB/0.2': rate: 'gbps' in "
              "'100gbps' is not a rate unit (bps, Kbps, Mbps, Gbps, Tbps for bits; Bps, KBps, "
              "MBps, GBps, TBps for bytes per second; Kib/s, KiB/s, ... for binary prefixes)");
    EXPECT_EQ(ErrorOf("25Gbps:lots/400KB/0.2"),
              "ECN threshold map: entry 1 '25Gbps:lots/400KB/0.2': Kmin: 'lots' is not a size "
              "(write e.g. 100B)");
    EXPECT_EQ(ErrorOf("25Gbps:1B/4B/0.2,25000Mb/s:1B/4B/0.2"),
              "ECN threshold map: entry 2 '25000Mb/s:1B/4B/0.2': rate 25Gbps is defined twice");
    EXPECT_EQ(ErrorOf(""), "ECN threshold map '' has no entries");
}

TEST(EcnThresholdMapTest, UsableAsAnAttributeValue)
{
    EcnThresholdMapValue value;
    Ptr<const AttributeChecker> checker = MakeEcnThresholdMapChecker();
    EXPECT_TRUE(value.DeserializeFromString("100Gbps:400KB/1600KB/0.2", checker));
    EXPECT_EQ(value.Get().Lookup(100 * kG).kmaxBytes, 1600000U);
    EXPECT_EQ(value.SerializeToString(checker), "100Gbps:400KB/1600KB/0.2");
    EXPECT_FALSE(value.DeserializeFromString("100Gbps:400KB", checker));
}

TEST(EcnThresholdMapTest, SetRejectsInconsistentEntries)
{
    EcnThresholdMap map;
    EXPECT_THROW(map.Set(25 * kG, {400, 100, 0.2}), InputError);
    EXPECT_THROW(map.Set(0, {100, 400, 0.2}), InputError);
    EXPECT_THROW(map.Set(25 * kG, {100, 400, -0.1}), InputError);
    map.Set(25 * kG, {100, 400, 0.2});
    EXPECT_EQ(map.GetN(), 1U);
}

} // namespace
