/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The congestion-aware analytical backend against ASTRA-sim's own unit-test delays
// (astra-network-analytical test/test_congestion_aware: 1 MiB, 16 NPUs, 50 GB/s, 500 ns).
#include "ns3/congestion-aware-backend.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint64_t kMiB = 1048576;

Ptr<CongestionAwareBackend>
Backend(AnalyticalBlock block, uint32_t npus = 16, double gbps = 50.0, double latency = 500.0)
{
    auto b = CreateObject<CongestionAwareBackend>();
    b->SetTopology(AnalyticalTopology({{block, npus, gbps, latency}}));
    return b;
}

/** Time of the last arrival, ns. */
uint64_t
RunToEnd(Ptr<CongestionAwareBackend> backend)
{
    Simulator::Run();
    const uint64_t end = Simulator::Now().GetNanoSeconds();
    Simulator::Destroy();
    return end;
}

} // namespace

TEST(CongestionAware, RingOneToFourStoresAndForwardsThreeTimes)
{
    auto b = Backend(AnalyticalBlock::Ring);
    uint64_t arrived = 0;
    b->Send({1, 4, kMiB, 0},
            nullptr,
            [&](const NetworkBackend::Message&) { arrived = Simulator::Now().GetNanoSeconds(); });
    RunToEnd(b);
    EXPECT_EQ(arrived, 60093U);
    EXPECT_EQ(b->GetLinkCount(), 3U);
}

TEST(CongestionAware, FullyConnected)
{
    auto b = Backend(AnalyticalBlock::FullyConnected);
    b->Send({1, 4, kMiB, 0}, nullptr, nullptr);
    EXPECT_EQ(RunToEnd(b), 20031U);
}

TEST(CongestionAware, Switch)
{
    auto b = Backend(AnalyticalBlock::Switch);
    b->Send({1, 4, kMiB, 0}, nullptr, nullptr);
    EXPECT_EQ(RunToEnd(b), 40062U);
}

TEST(CongestionAware, AllPairsOnTheSixteenRing)
{
    auto b = Backend(AnalyticalBlock::Ring);
    uint64_t delivered = 0;
    for (uint32_t i = 0; i < 16; ++i)
    {
        for (uint32_t j = 0; j < 16; ++j)
        {
            if (i != j)
            {
                b->Send({i, j, kMiB, 0},
                        nullptr,
                        [&](const NetworkBackend::Message& m) { delivered += m.bytes; });
            }
        }
    }
    EXPECT_EQ(RunToEnd(b), 704116U);
    EXPECT_EQ(delivered, 240 * kMiB);
}

TEST(CongestionAware, IncastSerializesOnTheLastLink)
{
    // n - 1 senders into one switch port: the port is busy (n - 1) x size / bw, and the
    // first message needs one more link crossing plus two latencies.
    const uint32_t n = 8;
    auto b = Backend(AnalyticalBlock::Switch, n, 50.0, 500.0);
    for (uint32_t src = 1; src < n; ++src)
    {
        b->Send({src, 0, kMiB, 0}, nullptr, nullptr);
    }
    const uint64_t serialization = 19531; // 1 MiB / 53.687 B/ns, truncated
    EXPECT_EQ(RunToEnd(b), (serialization + 500) + (n - 1) * serialization + 500);
}

TEST(CongestionAware, SameLinkKeepsFifoOrder)
{
    auto b = Backend(AnalyticalBlock::FullyConnected, 4);
    std::vector<uint64_t> order;
    for (uint64_t tag = 0; tag < 5; ++tag)
    {
        b->Send({0, 1, kMiB / (tag + 1), tag},
                nullptr,
                [&](const NetworkBackend::Message& m) { order.push_back(m.tag); });
    }
    RunToEnd(b);
    EXPECT_EQ(order, (std::vector<uint64_t>{0, 1, 2, 3, 4}));
}

TEST(CongestionAware, MultiDimensionalRoutesLowestDimensionFirst)
{
    auto b = CreateObject<CongestionAwareBackend>();
    b->SetTopology(AnalyticalTopology({{AnalyticalBlock::FullyConnected, 2, 50.0, 500.0},
                                       {AnalyticalBlock::FullyConnected, 2, 100.0, 100.0}}));
    b->Send({0, 3, kMiB, 0}, nullptr, nullptr);
    // 0 -> 1 over dimension 0 (20031 ns), then 1 -> 3 over dimension 1.
    EXPECT_EQ(RunToEnd(b), 20031U + static_cast<uint64_t>(100 + kMiB / (100 * 1.073741824)));
}
