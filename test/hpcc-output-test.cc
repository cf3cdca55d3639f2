/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The HPCC simulator's output lines, its standalone FCT and slowdown statistics, and the
// per-pair base RTT and BDP on the shipped topologies.

#include "ns3/hpcc-output-format.h"
#include "ns3/hpcc-routes.h"
#include "ns3/hpcc-slowdown.h"
#include "ns3/hpcc-topology-reader.h"

#include <gtest/gtest.h>

#include <string>

using namespace ns3;

namespace
{
const std::string kData = std::string(MLFABRIC_SHARED_DIR) + "/data/hpcc/";
} // namespace

TEST(HpccOutput, HostAddressesAreTheSimulators)
{
    EXPECT_EQ(HpccHostIp(0), 0x0b000001u);
    EXPECT_EQ(HpccHostIp(1), 0x0b000101u);
    EXPECT_EQ(HpccHostIp(257), 0x0b010101u);
    EXPECT_EQ(HpccHostIp(319), 0x0b013f01u);
}

TEST(HpccOutput, FctLineColumns)
{
    HpccFctRecord r;
    r.sip = HpccHostIp(2);
    r.dip = HpccHostIp(1);
    r.sport = 10000;
    r.dport = 100;
    r.bytes = 200000000;
    r.startNs = 2000000000;
    r.fctNs = 35700123;
    r.standaloneNs = 16772160;
    EXPECT_EQ(FormatFctLine(r),
              "0b000201 0b000101 10000 100 200000000 2000000000 35700123 16772160");
}

TEST(HpccOutput, StandaloneFctIsBaseRttPlusHeaderedBytesAtTheBottleneck)
{
    // One 1000-byte packet at 100 Gb/s: 1048 B take 83.84 ns, rounded down.
    EXPECT_EQ(HpccStandaloneFctNs(4160, 1000, 1000, 48, 100'000'000'000), 4160u + 83u);
    // 200 MB in 1000-byte packets: 200,000 headers of 48 B; 209.6 MB at 100 Gb/s.
    EXPECT_EQ(HpccStandaloneFctNs(4160, 200'000'000, 1000, 48, 100'000'000'000),
              4160u + 16'768'000u);
    // A partial last packet still carries a whole header.
    EXPECT_EQ(HpccStandaloneFctNs(0, 1001, 1000, 48, 8'000'000'000), 1001u + 96u);
    // 64-bit sizes: 8 GB does not wrap (the simulator's uint32 sum would).
    EXPECT_EQ(HpccStandaloneFctNs(0, 8'000'000'000, 1000, 48, 100'000'000'000), 670'720'000u);
}

TEST(HpccOutput, PfcLineAndQlenHistogram)
{
    EXPECT_EQ(FormatPfcLine(2000012345, 320, true, 17, true), "2000012345 320 1 17 1");
    EXPECT_EQ(FormatPfcLine(2000012999, 5, false, 1, false), "2000012999 5 0 1 0");

    HpccQlenHistogram h;
    EXPECT_EQ(h.Format(320, 1), "320 1");
    for (uint64_t bytes : {0, 999, 1000, 3999, 0})
    {
        h.Add(bytes);
    }
    EXPECT_EQ(h.Format(320, 4), "320 4 3 1 0 1");
    EXPECT_EQ(h.GetCounts().size(), 4u);
}

TEST(HpccSlowdown, PercentilesFollowTheAnalysisScript)
{
    EXPECT_DOUBLE_EQ(HpccSlowdown(300, 100), 3.0);
    EXPECT_DOUBLE_EQ(HpccSlowdown(90, 100), 1.0); // clamped
    std::vector<double> values;
    for (int i = 100; i >= 1; --i)
    {
        values.push_back(i);
    }
    const HpccSlowdownStats s = SummarizeSlowdown(values);
    EXPECT_EQ(s.flows, 100u);
    EXPECT_DOUBLE_EQ(s.mean, 50.5);
    EXPECT_DOUBLE_EQ(s.p50, 51); // sorted[int(100 * 0.5)]
    EXPECT_DOUBLE_EQ(s.p95, 96);
    EXPECT_DOUBLE_EQ(s.p99, 100);
    EXPECT_EQ(SummarizeSlowdown({}).flows, 0u);
}

TEST(HpccSlowdown, BucketsSplitFlowsBySizeRank)
{
    // 40 flows: size 100 k has slowdown k; 25 % buckets of 10 flows each.
    std::vector<HpccFlowSlowdown> flows;
    for (int k = 40; k >= 1; --k)
    {
        flows.push_back(HpccFlowSlowdown{100u * k, double(k)});
    }
    const auto buckets = SlowdownBySize(flows, 25);
    ASSERT_EQ(buckets.size(), 4u);
    EXPECT_DOUBLE_EQ(buckets[0].fromPercentile, 0);
    EXPECT_EQ(buckets[0].maxBytes, 1000u);
    EXPECT_EQ(buckets[0].stats.flows, 10u);
    EXPECT_DOUBLE_EQ(buckets[0].stats.p50, 6);
    EXPECT_DOUBLE_EQ(buckets[0].stats.p99, 10);
    EXPECT_DOUBLE_EQ(buckets[3].fromPercentile, 75);
    EXPECT_EQ(buckets[3].maxBytes, 4000u);
    EXPECT_DOUBLE_EQ(buckets[3].stats.mean, 35.5);
    // Three flows in 5 % steps: only non-empty buckets are kept.
    EXPECT_EQ(SlowdownBySize({{1, 1}, {2, 1}, {3, 1}}, 5).size(), 3u);
}

TEST(HpccRoutes, ExampleTopologyPairs)
{
    // topology.txt: switch 0, hosts 1..65 at 100 Gb/s with 1 us cables.
    const Fabric fabric = ReadHpccTopology(kData + "topology.txt");
    const HpccRoutes routes(fabric);
    const auto from = routes.From(2, 1000);
    const HpccRoute& r = from[1];
    EXPECT_TRUE(r.reachable);
    EXPECT_EQ(r.links, 2u);
    EXPECT_EQ(r.delayPs, 2'000'000);
    EXPECT_EQ(r.serializationPs, 160'000);
    EXPECT_EQ(r.bottleneckBps, 100'000'000'000u);
    // The simulator's base RTT and BDP of a pair: 4160 ns and 52000 B.
    EXPECT_EQ(r.RoundTrip(), NanoSeconds(4160));
    EXPECT_EQ(HpccRoutes::Bdp(r.RoundTrip(), r.bottleneckBps), 52000u);
    EXPECT_EQ(from[0].links, 1u);
}

TEST(HpccRoutes, FatTreeLongestPair)
{
    // fat.txt: 320 hosts at 100 Gb/s, 16 per ToR; 400 Gb/s above; 1 us everywhere.
    const Fabric fabric = ReadHpccTopology(kData + "fat.txt");
    const HpccRoutes routes(fabric);
    const auto from = routes.From(0, 1000);
    // Same ToR: 2 links. Another pod: 6 links, 2 at 100 G (80 ns) and 4 at 400 G (20 ns).
    EXPECT_EQ(from[1].links, 2u);
    EXPECT_EQ(from[1].RoundTrip(), NanoSeconds(4160));
    EXPECT_EQ(from[319].links, 6u);
    EXPECT_EQ(from[319].RoundTrip(), NanoSeconds(12000 + 160 + 80));
    EXPECT_EQ(HpccRoutes::Bdp(from[319].RoundTrip(), from[319].bottleneckBps), 153000u);
    // Hosts do not carry routes: no route reaches a host through another host.
    for (uint32_t h = 1; h < 320; ++h)
    {
        EXPECT_TRUE(from[h].reachable);
        EXPECT_EQ(from[h].links % 2, 0u) << h;
    }
}
