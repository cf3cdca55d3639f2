/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// What DCTCP, HPCC and TIMELY do on a NACK and a retransmission timeout, and TIMELY's
// minRTT and hyper-active count (Algorithm 1).
#include "cc-fake-qp.h"

#include "ns3/cc-dctcp.h"
#include "ns3/cc-hpcc.h"
#include "ns3/cc-timely.h"
#include "ns3/core-module.h"
#include "ns3/data-rate.h"

#include <gtest/gtest.h>

#include <array>

using namespace ns3;

namespace
{

class LossReactionTest : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
    }

    /** An ACK or NACK for the next \p bytes, with an RTT sample of \p us microseconds. */
    AckSample
    Sample(uint64_t bytes, double us = 0)
    {
        return qp.Deliver(bytes, NanoSeconds(static_cast<int64_t>(us * 1000)));
    }

    FakeQueuePair qp;
};

} // namespace

TEST_F(LossReactionTest, DctcpHalvesOncePerWindowOnLoss)
{
    Ptr<CcDctcp> cc = CreateObject<CcDctcp>();
    cc->Init(&qp);
    qp.sndNxt = 100000;
    cc->OnNack(Sample(0));
    EXPECT_EQ(qp.rate, 50000000000ULL); // RFC 8257 3.5: as TCP, half
    EXPECT_TRUE(cc->InReduction());
    // A second NACK from the same window changes nothing.
    cc->OnNack(Sample(1000));
    EXPECT_EQ(qp.rate, 50000000000ULL);
    // Once everything sent before the cut is acknowledged, the next loss halves again.
    qp.sndUna = 100000;
    cc->OnNack(qp.Deliver(0));
    EXPECT_EQ(qp.rate, 25000000000ULL);
    // The window follows: rate x base RTT (10 us).
    EXPECT_EQ(qp.window, 25000000000ULL / 8 * 10 / 1000000);
}

TEST_F(LossReactionTest, DctcpTimeoutRestartsFromOneMtuAndSlowStarts)
{
    Ptr<CcDctcp> cc = CreateObject<CcDctcp>();
    cc->SetAttribute("MinRate", DataRateValue(DataRate("100Mb/s")));
    cc->Init(&qp);
    cc->OnTimeout();
    // One 1000-byte MTU per 10 us base RTT: 800 Mb/s; ssthresh half of 100 Gb/s.
    EXPECT_EQ(qp.rate, 800000000U);
    EXPECT_EQ(cc->GetSlowStartThreshold(), 50000000000ULL);
    EXPECT_EQ(qp.window, 1000U);
    // Each unmarked window doubles the rate until the threshold.
    uint64_t expected = 800000000U;
    for (int i = 0; i < 5; ++i)
    {
        qp.sndNxt = qp.sndUna + 1000;
        cc->OnAck(Sample(0));    // opens the window
        cc->OnAck(Sample(1000)); // ends it
        expected *= 2;
        EXPECT_EQ(qp.rate, expected) << "window " << i;
    }
    // 51.2 Gb/s would pass the threshold: clamped to it, then additive increase.
    qp.sndNxt = qp.sndUna + 1000;
    cc->OnAck(Sample(1000));
    EXPECT_EQ(qp.rate, 50000000000ULL);
    qp.sndNxt = qp.sndUna + 1000;
    cc->OnAck(Sample(1000));
    EXPECT_EQ(qp.rate, 51000000000ULL); // + AiRate 1 Gb/s
    EXPECT_EQ(cc->GetSlowStartThreshold(), 0U);
}

TEST_F(LossReactionTest, HpccReadsTheIntOfANackAndHalvesOnTimeout)
{
    Ptr<CcHpcc> cc = CreateObject<CcHpcc>();
    cc->SetAttribute("FastReact", BooleanValue(true));
    cc->Init(&qp);
    const uint64_t bdp = qp.window; // 100 Gb/s x 10 us = 125000 bytes
    EXPECT_EQ(bdp, 125000U);
    // Two NACKs whose INT shows a full link and a 125 KB queue: U = 2, as from ACKs.
    std::array<IntHop, 1> hop{};
    hop[0].rateBps = qp.lineRate;
    hop[0].qlenBytes = 125000;
    AckSample nack = Sample(0);
    nack.nHops = 1;
    nack.hops = hop.data();
    cc->OnNack(nack);
    hop[0].timestamp = MicroSeconds(10);
    hop[0].txBytes = 125000;
    cc->OnNack(nack);
    EXPECT_GT(cc->GetUtilization(), 1.0);
    EXPECT_LT(qp.window, bdp);
    // A timeout halves the reference window and forgets the INT reference.
    const uint64_t wc = cc->GetReferenceWindow();
    cc->OnTimeout();
    EXPECT_EQ(cc->GetReferenceWindow(), wc / 2);
    EXPECT_EQ(qp.window, wc / 2);
    EXPECT_EQ(cc->GetIncreaseStage(), 0U);
}

TEST_F(LossReactionTest, TimelyNormalisesByTheBaseRttUnlessSet)
{
    qp.baseRtt = MicroSeconds(12);
    Ptr<CcTimely> cc = CreateObject<CcTimely>();
    cc->SetAttribute("SegmentBytes", UintegerValue(0));
    cc->Init(&qp);
    EXPECT_EQ(cc->GetMinRtt(), MicroSeconds(12));
    cc->OnAck(Sample(10000, 100));
    cc->OnAck(Sample(10000, 104)); // rtt_diff 3.5 us: gradient 3.5 / 12
    EXPECT_NEAR(qp.rate, 100e9 * (1 - 0.8 * 3.5 / 12), 2);
    Ptr<CcTimely> fixed = CreateObject<CcTimely>();
    fixed->SetAttribute("MinRtt", TimeValue(MicroSeconds(20)));
    fixed->Init(&qp);
    EXPECT_EQ(fixed->GetMinRtt(), MicroSeconds(20));
}

TEST_F(LossReactionTest, TimelyHyperActiveCountsNonPositiveGradientsOnly)
{
    for (const bool peer : {false, true})
    {
        FakeQueuePair q;
        Ptr<CcTimely> cc = CreateObject<CcTimely>();
        cc->SetAttribute("SegmentBytes", UintegerValue(0));
        cc->SetAttribute("CountLowRttIncreases", BooleanValue(peer));
        cc->Init(&q);
        auto rtt = [&](double us)
        {
            cc->OnAck(q.Deliver(10000, NanoSeconds(static_cast<int64_t>(us * 1000))));
        };
        rtt(100);
        rtt(120); // a positive gradient: cut, both counts reset
        const uint64_t cut = q.rate;
        // Five RTTs below T_low, each + delta: the fall to 20 us and the next sample
        // have gradients <= 0, then the rises turn rtt_diff positive (from 30 us on).
        for (double us : {20.0, 25.0, 30.0, 35.0, 40.0})
        {
            rtt(us);
        }
        EXPECT_EQ(q.rate, cut + 5 * 10000000ULL) << peer;
        EXPECT_EQ(cc->GetNonPositiveGradientCount(), 0U) << peer;
        EXPECT_EQ(cc->GetIncreaseCount(), 5U) << peer;
        // Without T_low, a slight fall (gradient <= 0) is an increase: the simulator's
        // count of five increases makes it hyper-active, Algorithm 1's count of one not.
        cc->SetAttribute("TLow", TimeValue(Time(0)));
        rtt(39);
        EXPECT_EQ(cc->GetNonPositiveGradientCount(), 1U) << peer;
        const uint64_t step = q.rate - (cut + 5 * 10000000ULL);
        EXPECT_EQ(step, peer ? 50000000U : 10000000U) << peer;
    }
}

TEST_F(LossReactionTest, TimelyUsesNackTimestampsAndCutsByBetaOnTimeout)
{
    Ptr<CcTimely> cc = CreateObject<CcTimely>();
    cc->SetAttribute("SegmentBytes", UintegerValue(0));
    cc->SetAttribute("MinRtt", TimeValue(MicroSeconds(20)));
    cc->Init(&qp);
    cc->OnNack(Sample(10000, 100));
    cc->OnNack(Sample(10000, 120)); // rtt_diff 17.5 us, gradient 0.875
    EXPECT_EQ(qp.rate, 30e9);
    cc->OnTimeout();
    EXPECT_EQ(qp.rate, 6e9); // 30 G (1 - 0.8)
    EXPECT_EQ(cc->GetNonPositiveGradientCount(), 0U);
    // The gradient restarts: the next sample is only remembered.
    cc->OnAck(Sample(10000, 500));
    EXPECT_EQ(qp.rate, 6e9);
}
