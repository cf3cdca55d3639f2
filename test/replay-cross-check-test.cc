/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The same replay at packet level and on ASTRA-sim's congestion-aware network: for
// uncongested ring all-reduces (8 and 16 NPUs, 1 to 64 MiB, Ring_<N>npus.yml with
// Ring_4chunks.json) the two agree within 5 % once the analytical bandwidth is
// the RoCEv2 goodput, line rate x MTU / (MTU + 82). The deviation is a test property.

#include "replay-test-support.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

struct Case
{
    uint32_t npus;
    uint64_t bytes;
};

class PacketVersusAnalytical : public testing::TestWithParam<Case>
{
};

} // namespace

TEST_P(PacketVersusAnalytical, RingAllReduceAgreesWithinFivePercent)
{
    const Case c = GetParam();
    WithoutSwitchAndNicLatency(); // the analytical model has link latency only
    ettest::ScratchDir dir;
    const std::string prefix = dir.File("w");
    for (uint32_t r = 0; r < c.npus; ++r)
    {
        WriteRank(prefix, r, {Collective(1, EtCollectiveType::ALL_REDUCE, c.bytes)});
    }
    const std::string fabric =
        kAstra + "network/analytical/Ring_" + std::to_string(c.npus) + "npus.yml";
    const std::string system = kAstra + "system/native_collectives/Ring_4chunks.json";

    ReplayRunConfig packet = RunConfig(prefix, fabric, system, ReplayBackendKind::Packet);
    packet.network.mtu = 4096;
    const ReplayResult p = RunReplay(packet);
    ReplayRunConfig aware = RunConfig(prefix, fabric, system, ReplayBackendKind::AnalyticalAware);
    aware.network.analyticalGoodput = 4096.0 / (4096 + 82);
    const ReplayResult a = RunReplay(aware);
    ASSERT_TRUE(p.completed && a.completed);

    const double packetNs = LastFinishNs(p);
    const double awareNs = LastFinishNs(a);
    const double deviation = (awareNs - packetNs) / packetNs;
    RecordProperty("packet_ns", std::to_string(packetNs));
    RecordProperty("aware_ns", std::to_string(awareNs));
    RecordProperty("deviation_percent", std::to_string(100 * deviation));
    EXPECT_LT(std::abs(deviation), 0.05) << packetNs << " ns vs " << awareNs << " ns";
    EXPECT_EQ(p.GetBytesSent(), a.GetBytesSent());
    // Without the correction the analytical model is faster by the wire overhead.
    aware.network.analyticalGoodput = 1.0;
    EXPECT_LT(LastFinishNs(RunReplay(aware)), awareNs);
}

INSTANTIATE_TEST_SUITE_P(Replay,
                         PacketVersusAnalytical,
                         testing::Values(Case{8, 1 << 20},
                                         Case{8, 8 << 20},
                                         Case{8, 64 << 20},
                                         Case{16, 1 << 20},
                                         Case{16, 8 << 20},
                                         Case{16, 64 << 20}),
                         [](const testing::TestParamInfo<Case>& info)
                         {
                             return std::to_string(info.param.npus) + "npus_" +
                                    std::to_string(info.param.bytes >> 20) + "MiB";
                         });
