/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The congestion-unaware analytical backend against ASTRA-sim's own unit-test delays
// (astra-network-analytical test/test_congestion_unaware: 1 MiB, 16 NPUs, 50 GB/s, 500 ns).
#include "ns3/congestion-unaware-backend.h"
#include "ns3/input-error.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint64_t kMiB = 1048576;

Ptr<CongestionUnawareBackend>
Backend(AnalyticalBlock block)
{
    auto b = CreateObject<CongestionUnawareBackend>();
    b->SetTopology(AnalyticalTopology({{block, 16, 50.0, 500.0}}));
    return b;
}

Ptr<CongestionUnawareBackend>
ThreeDimensional()
{
    auto b = CreateObject<CongestionUnawareBackend>();
    b->SetTopology(AnalyticalTopology({{AnalyticalBlock::Ring, 2, 200.0, 50.0},
                                       {AnalyticalBlock::FullyConnected, 8, 100.0, 500.0},
                                       {AnalyticalBlock::Switch, 4, 50.0, 2000.0}}));
    return b;
}

/** Arrival time in ns of one message sent at t = 0. */
uint64_t
MeasuredDelayNs(Ptr<NetworkBackend> backend, uint32_t src, uint32_t dst, uint64_t bytes)
{
    Time sentAt = Seconds(-1);
    Time arrivedAt = Seconds(-1);
    backend->Send(
        {src, dst, bytes, 7},
        [&](const NetworkBackend::Message&) { sentAt = Simulator::Now(); },
        [&](const NetworkBackend::Message& m)
        {
            EXPECT_EQ(m.tag, 7U);
            EXPECT_EQ(m.bytes, bytes);
            arrivedAt = Simulator::Now();
        });
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_EQ(sentAt, arrivedAt);
    return static_cast<uint64_t>(arrivedAt.GetNanoSeconds());
}

} // namespace

TEST(CongestionUnaware, RingOneToFour)
{
    EXPECT_EQ(Backend(AnalyticalBlock::Ring)->ComputeDelayNs(1, 4, kMiB), 21031U);
    EXPECT_EQ(MeasuredDelayNs(Backend(AnalyticalBlock::Ring), 1, 4, kMiB), 21031U);
}

TEST(CongestionUnaware, FullyConnected)
{
    EXPECT_EQ(MeasuredDelayNs(Backend(AnalyticalBlock::FullyConnected), 1, 4, kMiB), 20031U);
}

TEST(CongestionUnaware, Switch)
{
    EXPECT_EQ(MeasuredDelayNs(Backend(AnalyticalBlock::Switch), 1, 4, kMiB), 20531U);
}

TEST(CongestionUnaware, ThreeDimensionsChargeTheFirstDifferingDimension)
{
    EXPECT_EQ(ThreeDimensional()->ComputeDelayNs(0, 1, kMiB), 4932U);
    EXPECT_EQ(ThreeDimensional()->ComputeDelayNs(37, 41, kMiB), 10265U);
    EXPECT_EQ(ThreeDimensional()->ComputeDelayNs(26, 42, kMiB), 23531U);
    EXPECT_EQ(MeasuredDelayNs(ThreeDimensional(), 26, 42, kMiB), 23531U);
}

TEST(CongestionUnaware, MessagesDoNotWaitForEachOther)
{
    auto b = Backend(AnalyticalBlock::Switch);
    std::vector<uint64_t> arrivals;
    for (uint32_t src = 1; src < 16; ++src)
    {
        b->Send({src, 0, kMiB, src},
                nullptr,
                [&](const NetworkBackend::Message&)
                { arrivals.push_back(Simulator::Now().GetNanoSeconds()); });
    }
    Simulator::Run();
    Simulator::Destroy();
    ASSERT_EQ(arrivals.size(), 15U);
    for (auto t : arrivals)
    {
        EXPECT_EQ(t, 20531U);
    }
    EXPECT_EQ(b->GetDeliveredBytes(), 15 * kMiB);
    EXPECT_EQ(b->GetDeliveredMessages(), 15U);
}

TEST(CongestionUnaware, RejectsRanksOutsideTheNetwork)
{
    auto b = Backend(AnalyticalBlock::Ring);
    EXPECT_THROW(b->Send({0, 16, 1, 0}, nullptr, nullptr), InputError);
    Simulator::Destroy();
}
