/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// TIMELY's decisions for rising and falling RTT and at T_low and T_high.
#include "cc-fake-qp.h"

#include "ns3/cc-timely.h"
#include "ns3/core-module.h"
#include "ns3/data-rate.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/**
 * Paper parameters: alpha 0.875, beta 0.8, delta 10 Mb/s, HAI 50 Mb/s after 5
 * increases in a row, T_low 50 us, T_high 500 us, minRTT 20 us; 100 Gb/s line rate.
 */
class TimelyTest : public testing::Test
{
  protected:
    void
    SetUp() override
    {
        cc = CreateObject<CcTimely>();
        // One update per round trip (the HPCC simulator's reading); per-segment updates
        // have their own test.
        cc->SetAttribute("SegmentBytes", UintegerValue(0));
        cc->SetAttribute("MinRtt", TimeValue(MicroSeconds(20)));
        cc->Init(&qp);
    }

    void
    TearDown() override
    {
        Simulator::Destroy();
    }

    /** One RTT's worth of data acknowledged with this RTT sample (us). */
    void
    Rtt(double us)
    {
        cc->OnAck(qp.Deliver(10000, NanoSeconds(static_cast<int64_t>(us * 1000))));
    }

    FakeQueuePair qp;
    Ptr<CcTimely> cc;
};

TEST_F(TimelyTest, NeedsTimestampsAndStartsAtLineRate)
{
    EXPECT_TRUE(cc->NeedsTimestamp());
    EXPECT_EQ(cc->GetName(), "timely");
    EXPECT_EQ(qp.rate, qp.lineRate);
    EXPECT_EQ(qp.window, 0U);
}

TEST_F(TimelyTest, RisingAndFallingRtt)
{
    Rtt(100); // first sample: only remembered
    EXPECT_EQ(qp.rate, 100e9);
    Rtt(120); // rising: rtt_diff = 0.875 x 20 us = 17.5 us, gradient 0.875
    EXPECT_NEAR(cc->GetRttDiff(), 17.5e-6, 1e-15);
    EXPECT_EQ(qp.rate, 30e9); // 100 G (1 - 0.8 x 0.875)
    Rtt(110);                 // falling: rtt_diff = 0.125 x 17.5 + 0.875 x (-10) = -6.5625 us
    EXPECT_NEAR(cc->GetRttDiff(), -6.5625e-6, 1e-15);
    EXPECT_EQ(qp.rate, 30010000000ULL); // + delta
    EXPECT_EQ(cc->GetIncreaseCount(), 1U);
}

TEST_F(TimelyTest, OneUpdatePerRtt)
{
    Rtt(100);
    Rtt(120);
    EXPECT_EQ(qp.rate, 30e9);
    // ACKs of data sent before the last update do not act again.
    AckSample same;
    same.ackedSeq = qp.sndUna;
    same.rtt = MicroSeconds(400);
    cc->OnAck(same);
    EXPECT_EQ(qp.rate, 30e9);
    EXPECT_NEAR(cc->GetRttDiff(), 17.5e-6, 1e-15);
}

TEST_F(TimelyTest, ThresholdsOverrideTheGradient)
{
    Rtt(100);
    Rtt(120); // 30 G, rtt_diff 17.5 us
    Rtt(40);  // below T_low: + delta although the RTT fell sharply
    EXPECT_EQ(qp.rate, 30010000000ULL);
    Rtt(600); // above T_high: rate (1 - 0.8 (1 - 500/600))
    EXPECT_NEAR(qp.rate, 30010000000.0 * (1 - 0.8 * (1 - 500.0 / 600)), 1);
    EXPECT_EQ(cc->GetIncreaseCount(), 0U);
}

TEST_F(TimelyTest, AtTheThresholdsTheGradientDecides)
{
    Rtt(30);
    Rtt(50); // exactly T_low, rising: rtt_diff 17.5 us, gradient 0.875 -> decrease
    EXPECT_EQ(qp.rate, 30e9);
    Rtt(500); // exactly T_high: not above it, so the gradient decides
    // rtt_diff = 0.125 x 17.5 + 0.875 x 450 = 395.9375 us: gradient 19.8, factor < 0
    EXPECT_EQ(qp.rate, 100e6); // clamped at MinRate
    Rtt(100);                  // falling far enough to turn rtt_diff negative: increase
    // rtt_diff = 0.125 x 395.9375 + 0.875 x (-400) = -300.5 us
    EXPECT_NEAR(cc->GetRttDiff(), -300.5078125e-6, 1e-15);
    EXPECT_EQ(qp.rate, 110e6);
}

TEST_F(TimelyTest, HyperActiveIncreaseAfterFiveIncreases)
{
    Rtt(100);
    Rtt(120); // 30 G, rtt_diff 17.5 us
    const uint64_t base = 30e9;
    // A fall to 100 us makes rtt_diff negative (-15.3125 us); a steady RTT keeps it
    // negative (each update multiplies it by 0.125), so every update increases.
    for (int i = 1; i <= 5; ++i)
    {
        Rtt(100);
        EXPECT_EQ(qp.rate, base + i * 10e6) << "increase " << i;
    }
    Rtt(100); // the sixth in a row: + 50 Mb/s
    EXPECT_EQ(qp.rate, base + 50e6 + 50e6);
    EXPECT_EQ(cc->GetIncreaseCount(), 6U);
    Rtt(150); // a rise resets the streak
    EXPECT_EQ(cc->GetIncreaseCount(), 0U);
    const uint64_t cut = qp.rate;
    EXPECT_LT(cut, base);
    Rtt(100);
    EXPECT_EQ(qp.rate, cut + 10e6);
}

TEST_F(TimelyTest, NeverAboveLineRate)
{
    for (int i = 0; i < 10; ++i)
    {
        Rtt(40);
    }
    EXPECT_EQ(qp.rate, qp.lineRate);
}

} // namespace

// The paper's completion events: an update per 16 KiB acknowledged, whatever the RTT.
TEST(TimelySegments, UpdatesOncePerSegment)
{
    FakeQueuePair qp;
    Ptr<CcTimely> cc = CreateObject<CcTimely>();
    cc->SetAttribute("SegmentBytes", UintegerValue(16384));
    cc->SetAttribute("MinRtt", TimeValue(MicroSeconds(20)));
    cc->Init(&qp);
    cc->OnAck(qp.Deliver(10000, MicroSeconds(100))); // first sample
    cc->OnAck(qp.Deliver(10000, MicroSeconds(120))); // 20000 acked: < 10000 + 16384
    EXPECT_EQ(qp.rate, 100e9);
    cc->OnAck(qp.Deliver(10000, MicroSeconds(120))); // 30000: a segment since the sample
    EXPECT_EQ(qp.rate, 30e9);                        // rtt_diff 17.5 us: 100 G (1 - 0.8 x 0.875)
    Simulator::Destroy();
}
