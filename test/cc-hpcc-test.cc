/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// HPCC: U and the window from given INT samples, against hand-computed values.
#include "cc-fake-qp.h"

#include "ns3/boolean.h"
#include "ns3/cc-hpcc.h"
#include "ns3/core-module.h"
#include "ns3/data-rate.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

using namespace ns3;

namespace
{

/**
 * 100 Gb/s NIC and hops, base RTT 10 us: the window tops at one BDP, 125000 bytes;
 * W_AI = 40 Mb/s x 10 us = 50 bytes; eta = 0.95.
 */
class HpccTest : public testing::Test
{
  protected:
    void
    SetUp() override
    {
        cc = CreateObject<CcHpcc>();
        cc->SetAttribute("TargetUtilization", DoubleValue(0.95));
        cc->SetAttribute("MaxStage", UintegerValue(5));
        cc->SetAttribute("AiRate", DataRateValue(DataRate("40Mb/s")));
    }

    void
    TearDown() override
    {
        Simulator::Destroy();
    }

    /** One hop's record: time (us), cumulative bytes sent, queue bytes, 100 Gb/s. */
    static IntHop
    Hop(double us, uint64_t txBytes, uint64_t qlen)
    {
        IntHop h;
        h.timestamp = NanoSeconds(static_cast<int64_t>(us * 1000));
        h.txBytes = txBytes;
        h.qlenBytes = qlen;
        h.rateBps = 100000000000ULL;
        return h;
    }

    /** Deliver an ACK for acked with the two hop records, snd_nxt already at sndNxt. */
    void
    Ack(uint64_t acked, uint64_t sndNxt, IntHop h0, IntHop h1)
    {
        hops = {h0, h1};
        qp.sndNxt = sndNxt;
        qp.sndUna = acked;
        AckSample ack;
        ack.ackedSeq = acked;
        ack.nHops = 2;
        ack.hops = hops.data();
        cc->OnAck(ack);
    }

    FakeQueuePair qp;
    Ptr<CcHpcc> cc;
    std::array<IntHop, 2> hops;
};

TEST_F(HpccTest, StartsAtLineRateWithOneBdp)
{
    cc->Init(&qp);
    EXPECT_TRUE(cc->NeedsInt());
    EXPECT_EQ(cc->GetName(), "hpcc");
    EXPECT_EQ(qp.window, 125000U);
    EXPECT_EQ(qp.rate, qp.lineRate);
    EXPECT_DOUBLE_EQ(cc->GetUtilization(), 1.0);
}

TEST_F(HpccTest, TwoHopsFastReactThenPerRttUpdate)
{
    cc->Init(&qp);
    // The first INT is only a reference; the update point becomes snd_nxt.
    Ack(1000, 100000, Hop(1, 1000000, 0), Hop(1, 5000000, 10000));
    EXPECT_EQ(qp.window, 125000U);

    // 2 us later. Hop 0: 20000 B -> 80 Gb/s, queue min(5000, 0) = 0: u = 0.8.
    // Hop 1: 25000 B -> 100 Gb/s, queue min(50000, 10000) = 10000 B = 0.08 BDP: u = 1.08.
    // U = (1 - 2/10) 1 + (2/10) 1.08 = 1.016 >= eta: W = Wc / (U / eta) + W_AI.
    Ack(2000, 100000, Hop(3, 1020000, 5000), Hop(3, 5025000, 50000));
    EXPECT_NEAR(cc->GetUtilization(), 1.016, 1e-12);
    const double w1 = 125000 * 0.95 / 1.016 + 50;
    EXPECT_EQ(qp.window, static_cast<uint64_t>(std::llround(w1)));
    EXPECT_NEAR(qp.rate, std::llround(w1) * 8 / 10e-6, 1);
    // Fast reaction leaves the reference window and the stage alone.
    EXPECT_EQ(cc->GetReferenceWindow(), 125000U);
    EXPECT_EQ(cc->GetIncreaseStage(), 0U);

    // Past lastUpdateSeq: the per-RTT update. Hop 1 queue min(30000, 50000): u = 1.24.
    Ack(100001, 200000, Hop(5, 1040000, 0), Hop(5, 5050000, 30000));
    const double u2 = 0.8 * 1.016 + 0.2 * 1.24;
    EXPECT_NEAR(cc->GetUtilization(), u2, 1e-12);
    const double w2 = 125000 * 0.95 / u2 + 50;
    EXPECT_NEAR(cc->GetReferenceWindow(), w2, 0.5);
    EXPECT_EQ(qp.window, static_cast<uint64_t>(std::llround(w2)));

    // Light load on both hops (20 Gb/s, empty queues): U = 0.8 u2 + 0.2 x 0.2 < eta,
    // so additive increase from Wc and stage 1.
    Ack(200001, 300000, Hop(7, 1045000, 0), Hop(7, 5055000, 0));
    const double u3 = 0.8 * u2 + 0.2 * 0.2;
    EXPECT_NEAR(cc->GetUtilization(), u3, 1e-12);
    EXPECT_LT(u3, 0.95);
    EXPECT_NEAR(cc->GetReferenceWindow(), w2 + 50, 1);
    EXPECT_EQ(cc->GetIncreaseStage(), 1U);
}

TEST_F(HpccTest, MostLoadedHopDecidesWhicheverItsPosition)
{
    cc->Init(&qp);
    Ack(1000, 100000, Hop(1, 0, 20000), Hop(1, 0, 0));
    // Hop 0 now carries the load: 100 Gb/s and queue min(40000, 20000) = 0.16 BDP.
    // Hop 1 is idle. tau = 10 us = T, so U = u of hop 0 = 1.16.
    Ack(100001, 200000, Hop(11, 125000, 40000), Hop(11, 0, 0));
    EXPECT_NEAR(cc->GetUtilization(), 1.16, 1e-12);
    EXPECT_NEAR(cc->GetReferenceWindow(), 125000 * 0.95 / 1.16 + 50, 0.5);
}

TEST_F(HpccTest, MaxStageForcesMultiplicativeIncrease)
{
    cc->SetAttribute("MaxStage", UintegerValue(0));
    cc->Init(&qp);
    Ack(1000, 100000, Hop(1, 0, 50000), Hop(1, 0, 0));
    // Hop at 100 Gb/s with a standing queue of 50000 B (0.4 BDP), tau = T: U = 1.4.
    Ack(100001, 200000, Hop(11, 125000, 50000), Hop(11, 0, 0));
    const double w1 = 125000 * 0.95 / 1.4 + 50;
    EXPECT_NEAR(cc->GetReferenceWindow(), w1, 0.5);
    // Then 80 Gb/s and the queue gone (min(0, 50000) = 0): U = 0.8 < eta, but with
    // maxStage 0 the step is multiplicative: W = Wc eta / U + W_AI.
    Ack(200001, 300000, Hop(21, 225000, 0), Hop(21, 0, 0));
    EXPECT_NEAR(cc->GetUtilization(), 0.8, 1e-12);
    EXPECT_NEAR(cc->GetReferenceWindow(), w1 * 0.95 / 0.8 + 50, 1);
}

TEST_F(HpccTest, WindowStaysWithinMinRateAndOneBdp)
{
    cc->Init(&qp);
    Ack(1000, 100000, Hop(1, 0, 1000000000), Hop(1, 0, 0));
    // A standing 1 GB queue (u = 8001): the window falls to MinRate x T = 125 B.
    Ack(100001, 200000, Hop(11, 125000, 1000000000), Hop(11, 0, 0));
    EXPECT_EQ(qp.window, 125U);
    EXPECT_EQ(qp.rate, 100000000U);
    // An idle path (U = 0) lets it grow, additively for MaxStage updates, then to the
    // largest window, one BDP, and never past it.
    for (int i = 0; i < 20; ++i)
    {
        Ack(200001 + 100000 * i,
            300000 + 100000 * i,
            Hop(21 + 10 * i, 125000, 0),
            Hop(21 + 10 * i, 0, 0));
    }
    EXPECT_EQ(qp.window, 125000U);
    EXPECT_EQ(qp.rate, qp.lineRate);
}

TEST_F(HpccTest, WithoutFastReactOnlyThePerRttUpdateActs)
{
    cc->SetAttribute("FastReact", BooleanValue(false));
    cc->Init(&qp);
    Ack(1000, 100000, Hop(1, 1000000, 0), Hop(1, 5000000, 10000));
    Ack(2000, 100000, Hop(3, 1020000, 5000), Hop(3, 5025000, 50000));
    EXPECT_NEAR(cc->GetUtilization(), 1.016, 1e-12); // measured all the same
    EXPECT_EQ(qp.window, 125000U);
    EXPECT_EQ(qp.rate, qp.lineRate);
}

TEST_F(HpccTest, PathChangeRestartsTheReference)
{
    cc->Init(&qp);
    Ack(1000, 100000, Hop(1, 0, 0), Hop(1, 0, 0));
    IntHop one[1] = {Hop(11, 10000000, 1000000)};
    AckSample ack;
    ack.ackedSeq = 100001;
    ack.nHops = 1;
    ack.hops = one;
    cc->OnAck(ack); // a different path: no sample against the old records
    EXPECT_DOUBLE_EQ(cc->GetUtilization(), 1.0);
    EXPECT_EQ(qp.window, 125000U);
}

} // namespace
