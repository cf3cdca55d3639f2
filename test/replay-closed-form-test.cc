/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// One collective replayed at packet level over an uncongested network, against its
// closed form: F x S / B_eff plus the latency terms, where B_eff is the line rate less
// the 82 bytes of RoCEv2 wire overhead per MTU packet and F the algorithm's traffic
// factor (ring all-reduce 2(n-1)/n, reduce-scatter (n-1)/n, all-gather n-1 of the
// per-NPU input, ring all-to-all (n-1)/2, direct all-to-all (n-1)/n). A ring sends one
// way round, so its acknowledgements ride the idle direction; a direct all-to-all loads
// both directions of every link, and each data packet's 86-byte ACK (BTH, AETH, ICRC,
// minimum-frame headers, preamble and gap) shares the wire with data. The bound is
// 3 %; the measured deviation is reported as a test property.

#include "replay-test-support.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

constexpr double kGbps = 50; // ASTRA-sim's GB/s, GB = 2^30 B
constexpr double kLatencyNs = 500;
constexpr double kEndpointNs = 10; // endpoint-delay of WriteSystem
constexpr uint32_t kMtu = 4096;    // unless a case says otherwise

/** Line rate in bytes per ns. */
double
LineBytesPerNs()
{
    return kGbps * static_cast<double>(1U << 30) / 1e9;
}

/** Wire bytes of a data packet's acknowledgement. */
constexpr double kAckWireBytes = 86;

/**
 * Goodput: the line rate less 82 bytes of wire overhead per full packet, and less the
 * acknowledgement of a packet coming the other way when both directions carry data.
 */
double
GoodputBytesPerNs(uint32_t mtu, bool bothDirections)
{
    return LineBytesPerNs() * mtu / (mtu + 82.0 + (bothDirections ? kAckWireBytes : 0));
}

struct Case
{
    std::string name;      //!< test name
    std::string topology;  //!< Ring or Switch
    std::string algorithm; //!< system implementation
    EtCollectiveType type; //!< the collective
    uint32_t npus;         //!< NPUs
    uint64_t bytes;        //!< comm_size
    double factor;         //!< F: bytes through each NPU's link, over comm_size
    double latencyTermsNs; //!< everything that does not scale with the size
    bool bothDirections;   //!< data flows both ways on the links
    uint32_t mtu{kMtu};    //!< payload per packet
};

/** Ring algorithm: the first hand-off, then per step a link latency and a hand-off. */
double
RingLatency(uint32_t steps)
{
    return kEndpointNs + steps * (kLatencyNs + kEndpointNs);
}

std::vector<Case>
Cases()
{
    const uint64_t mib = 1 << 20;
    std::vector<Case> cases;
    for (uint32_t n : {4u, 8u})
    {
        const std::string size = std::to_string(n);
        cases.push_back({"ring_all_reduce_" + size,
                         "Ring",
                         "ring",
                         EtCollectiveType::ALL_REDUCE,
                         n,
                         8 * mib,
                         2.0 * (n - 1) / n,
                         RingLatency(2 * (n - 1)),
                         false});
        cases.push_back({"ring_reduce_scatter_" + size,
                         "Ring",
                         "ring",
                         EtCollectiveType::REDUCE_SCATTER,
                         n,
                         8 * mib,
                         (n - 1.0) / n,
                         RingLatency(n - 1),
                         false});
        cases.push_back({"ring_all_gather_" + size,
                         "Ring",
                         "ring",
                         EtCollectiveType::ALL_GATHER,
                         n,
                         2 * mib,
                         n - 1.0,
                         RingLatency(n - 1),
                         false});
        cases.push_back({"ring_all_to_all_" + size,
                         "Ring",
                         "ring",
                         EtCollectiveType::ALL_TO_ALL,
                         n,
                         8 * mib,
                         (n - 1.0) / 2,
                         RingLatency(n * (n - 1) / 2),
                         false});
        // Direct: every peer at once through one switch, two links and one store-and-
        // forward of a packet at the switch; a hand-off before and after.
        cases.push_back({"switch_direct_all_to_all_" + size,
                         "Switch",
                         "direct",
                         EtCollectiveType::ALL_TO_ALL,
                         n,
                         8 * mib,
                         (n - 1.0) / n,
                         2 * kEndpointNs + 2 * kLatencyNs + (kMtu + 82.0) / LineBytesPerNs(),
                         true});
    }
    // Smaller packets: more of the wire goes to headers.
    cases.push_back({"ring_all_reduce_8_mtu1000",
                     "Ring",
                     "ring",
                     EtCollectiveType::ALL_REDUCE,
                     8,
                     8 * mib,
                     2.0 * 7 / 8,
                     RingLatency(2 * 7),
                     false,
                     1000});
    return cases;
}

class ClosedForm : public testing::TestWithParam<Case>
{
};

} // namespace

TEST_P(ClosedForm, PacketLevelWithinThreePercent)
{
    const Case c = GetParam();
    WithoutSwitchAndNicLatency(); // the closed forms charge link latency only
    ettest::ScratchDir dir;
    const std::string prefix = dir.File("w");
    for (uint32_t r = 0; r < c.npus; ++r)
    {
        WriteRank(prefix, r, {Collective(1, c.type, c.bytes)});
    }
    ReplayRunConfig config = RunConfig(prefix,
                                       WriteNetwork(dir, c.topology, c.npus, kGbps, kLatencyNs),
                                       WriteSystem(dir, c.algorithm, 1));
    config.network.mtu = c.mtu;
    const ReplayResult r = RunReplay(config);
    ASSERT_TRUE(r.completed);

    const double expected =
        c.factor * static_cast<double>(c.bytes) / GoodputBytesPerNs(c.mtu, c.bothDirections) +
        c.latencyTermsNs;
    const double measured = LastFinishNs(r);
    const double deviation = (measured - expected) / expected;
    RecordProperty("expected_ns", std::to_string(expected));
    RecordProperty("measured_ns", std::to_string(measured));
    RecordProperty("deviation_percent", std::to_string(100 * deviation));
    EXPECT_LT(std::abs(deviation), 0.03)
        << "measured " << measured << " ns, closed form " << expected << " ns";

    // Every byte the ranks sent arrived, and is the algorithm's traffic.
    const auto perRank = static_cast<uint64_t>(std::llround(c.factor * c.bytes));
    for (const auto& s : r.ranks)
    {
        EXPECT_EQ(s.bytesSent, perRank) << "rank " << s.rank;
        EXPECT_EQ(s.bytesReceived, perRank) << "rank " << s.rank;
    }
    EXPECT_EQ(r.networkDeliveredBytes, perRank * c.npus);
}

INSTANTIATE_TEST_SUITE_P(Replay,
                         ClosedForm,
                         testing::ValuesIn(Cases()),
                         [](const testing::TestParamInfo<Case>& info) { return info.param.name; });
