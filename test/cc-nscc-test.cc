/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// NSCC-like window control: its constants scaled from the path, and its per-ACK cases
// (proportional, fair, multiplicative decrease, marked below target, QuickAdapt) as
// closed-form windows; then an incast, where it holds the queue near its target.

#include "cc-fake-qp.h"

#include "ns3/cc-nscc.h"
#include "ns3/core-module.h"
#include "ns3/incast-scenario.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ns3;

namespace
{

/**
 * The reference network of the UEC htsim model: 100 Gb/s, unloaded RTT 12 us, so
 * BDP = 150000 B and a = b = 1; MSS 4096 B. Target 12 us; alpha = 4 MSS / 12 us,
 * fair increase 5 MSS per byte, eta = 0.15 MSS = 614.4 B, max window 225000 B.
 */
class NsccTest : public testing::Test
{
  protected:
    void
    SetUp() override
    {
        qp.baseRtt = MicroSeconds(12);
        qp.mtu = 4096;
        cc = CreateObject<CcNscc>();
        cc->Init(&qp);
    }

    void
    TearDown() override
    {
        Simulator::Destroy();
    }

    /** Acknowledge one MSS with this queueing delay (us) and mark. */
    void
    Ack(double delayUs, bool marked = false)
    {
        const Time rtt = MicroSeconds(12) + NanoSeconds(static_cast<int64_t>(delayUs * 1000));
        cc->OnAck(qp.Deliver(4096, rtt, marked));
    }

    static constexpr double kMss = 4096;
    static constexpr double kEta = 0.15 * kMss;
    FakeQueuePair qp;
    Ptr<CcNscc> cc;
};

} // namespace

TEST_F(NsccTest, ConstantsScaleFromThePath)
{
    EXPECT_EQ(cc->GetName(), "nscc");
    EXPECT_NEAR(cc->GetScale(), 1.0, 1e-12);
    EXPECT_EQ(cc->GetTarget(), MicroSeconds(12));
    EXPECT_NEAR(cc->GetMaxWindow(), 225000.0, 1e-6);
    EXPECT_NEAR(cc->GetCwnd(), 150000.0, 1e-6);
    EXPECT_EQ(qp.window, 150000u);
    EXPECT_EQ(qp.rate, qp.lineRate);

    // Twice the rate and RTT: a = 4, and the target follows the RTT.
    FakeQueuePair fast;
    fast.lineRate = 200'000'000'000ULL;
    fast.baseRtt = MicroSeconds(24);
    fast.mtu = 4096;
    Ptr<CcNscc> other = CreateObject<CcNscc>();
    other->Init(&fast);
    EXPECT_NEAR(other->GetScale(), 4.0, 1e-9);
    EXPECT_EQ(other->GetTarget(), MicroSeconds(24));
    EXPECT_NEAR(other->GetMaxWindow(), 900000.0, 1e-6);
}

TEST_F(NsccTest, BelowTargetIncreasesInProportionToTheHeadroom)
{
    for (int i = 0; i < 7; ++i)
    {
        Ack(6);
    }
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), 150000.0); // the period ends at 8 MSS acknowledged
    Ack(6);
    // inc = 8 x alpha x MSS x (12 - 6) us = 8 x 2 MSS^2; cwnd += inc / cwnd + eta.
    const double expected = 150000 + 8 * 2 * kMss * kMss / 150000 + kEta;
    EXPECT_NEAR(cc->GetCwnd(), expected, 1e-6);
    EXPECT_EQ(qp.window, static_cast<uint64_t>(std::ceil(expected)));
}

TEST_F(NsccTest, AboveTargetUnmarkedIncreasesFairly)
{
    for (int i = 0; i < 8; ++i)
    {
        Ack(15);
    }
    EXPECT_NEAR(cc->GetCwnd(), 150000 + 8 * 5 * kMss * kMss / 150000 + kEta, 1e-6);
}

TEST_F(NsccTest, MarkedBelowTargetHoldsTheWindow)
{
    for (int i = 0; i < 8; ++i)
    {
        Ack(3, true);
    }
    EXPECT_NEAR(cc->GetCwnd(), 150000 + kEta, 1e-9); // only the period's eta
}

TEST_F(NsccTest, MarkedAboveTargetDecreasesOncePerRtt)
{
    // avg = 24 us: factor max(1 - 0.8 (24 - 12) / 24, 0.5) = 0.6.
    Ack(24, true);
    EXPECT_NEAR(cc->GetCwnd(), 90000.0, 1e-9);
    Ack(24, true);
    EXPECT_NEAR(cc->GetCwnd(), 90000.0, 1e-9);
    // One unloaded RTT later it may decrease again; that ACK also ends the period.
    Simulator::Schedule(MicroSeconds(13), [this] { Ack(24, true); });
    Simulator::Run();
    EXPECT_NEAR(cc->GetCwnd(), 54000.0 + kEta, 1e-9);
    // A far larger delay decreases by at most half.
    Simulator::Schedule(MicroSeconds(13),
                        [this]
                        {
                            for (int i = 0; i < 200; ++i)
                            {
                                cc->OnAck(qp.Deliver(1, MicroSeconds(12 + 1000), true));
                            }
                        });
    const double before = cc->GetCwnd();
    Simulator::Run();
    EXPECT_GE(cc->GetCwnd(), 0.5 * before);
}

TEST_F(NsccTest, NackQuickAdaptsToWhatWasAchieved)
{
    for (int i = 0; i < 4; ++i)
    {
        Ack(6);
    }
    // 16384 B acknowledged this period, below max window / 2^3 = 28125 B.
    cc->OnNack(qp.Deliver(0));
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), 16384.0);
    // A second NACK within the RTT only takes one MSS off.
    cc->OnNack(qp.Deliver(0));
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), 16384.0 - kMss);
    cc->OnTimeout();
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), kMss);
}

TEST_F(NsccTest, WindowStaysBelowOneAndAHalfBdp)
{
    for (int i = 0; i < 8 * 200; ++i)
    {
        Ack(15);
    }
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), 225000.0);
    EXPECT_EQ(qp.window, 225000u);
}

/** An 8-to-1 incast of 2 MiB each through one switch (100 Gb/s, 1 us links) under NSCC. */
IncastResult
NsccIncast(const std::string& ecnMap)
{
    IncastConfig config;
    config.senders = 8;
    config.messageBytes = 2 << 20;
    config.cc.scheme = "nscc";
    config.cc.ecnMap = ecnMap;
    const IncastResult r = RunIncast(config);
    Simulator::Destroy();
    Config::Reset();
    return r;
}

// The target queueing delay is the unloaded RTT of the star's two hops (4 us of cable,
// two 4178-byte frames and two ACKs at 100 Gb/s): about 4.7 us, 58.5 kB of queue.
constexpr double kTargetBytes = 4.68e-6 * 100e9 / 8;

TEST(NsccIncastTest, HoldsTheQueueNearItsTargetWhenMarksStartThere)
{
    // ECN marking from 50 kB to 100 kB, every packet above: a mark means "above target".
    const IncastResult r = NsccIncast("100Gbps:50KB/100KB/1");
    ASSERT_EQ(r.bytesDelivered, r.bytesExpected);
    EXPECT_EQ(r.scheme, "nscc");
    EXPECT_GT(r.meanQueueBytes, 0.5 * kTargetBytes);
    EXPECT_LT(r.meanQueueBytes, 2.5 * kTargetBytes);
    EXPECT_GT(r.ecnMarks, 0u);
    EXPECT_EQ(r.drops, 0u);
    EXPECT_EQ(r.pfcPauseFrames, 0u);
}

TEST(NsccIncastTest, DelayAloneDoesNotDecrease)
{
    // The peers' map marks from 400 kB at 100 Gb/s: below it, delay over the target only
    // slows the increase (fair increase), so the queue climbs to where marks begin.
    const IncastResult r = NsccIncast("");
    ASSERT_EQ(r.bytesDelivered, r.bytesExpected);
    EXPECT_GT(r.meanQueueBytes, 4 * kTargetBytes);
    EXPECT_LT(r.meanQueueBytes, 400e3 * 1.25);
}
