/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// DCTCP for RoCE: alpha after given marked fractions, one cut per window, AI.
#include "cc-fake-qp.h"

#include "ns3/cc-dctcp.h"
#include "ns3/core-module.h"
#include "ns3/data-rate.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/** g = 1/16, alpha starts at 1, AI 1 Gb/s, 100 Gb/s line rate, 1000-byte ACKs. */
class DctcpTest : public testing::Test
{
  protected:
    void
    SetUp() override
    {
        cc = CreateObject<CcDctcp>();
        cc->SetAttribute("AiRate", DataRateValue(DataRate("1Gb/s")));
        cc->Init(&qp);
    }

    void
    TearDown() override
    {
        Simulator::Destroy();
    }

    /** Acknowledge the next 1000 bytes; snd_nxt is whatever the test set. */
    void
    Ack(bool ecn)
    {
        qp.sndUna += 1000;
        AckSample ack;
        ack.ackedSeq = qp.sndUna;
        ack.newlyAcked = 1000;
        ack.ecnEcho = ecn;
        cc->OnAck(ack);
    }

    FakeQueuePair qp;
    Ptr<CcDctcp> cc;
};

TEST_F(DctcpTest, AlphaFollowsTheMarkedFractionPerWindow)
{
    EXPECT_EQ(cc->GetName(), "dctcp");
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 1.0);
    qp.sndNxt = 10000; // window 1: bytes [0, 10000)
    for (int i = 0; i < 9; ++i)
    {
        Ack(i < 4); // 4 of 10 marked
    }
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 1.0); // not before the window ends
    qp.sndNxt = 20000;
    Ack(false);
    const double a1 = 15.0 / 16 + 0.4 / 16; // 0.9625
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), a1);

    qp.sndNxt = 30000; // window 2: [10000, 20000), no marks
    for (int i = 0; i < 10; ++i)
    {
        Ack(false);
    }
    const double a2 = 15.0 / 16 * a1;
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), a2);

    for (int i = 0; i < 10; ++i) // window 3: all marked
    {
        Ack(true);
    }
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 15.0 / 16 * a2 + 1.0 / 16);
}

TEST_F(DctcpTest, OneCutPerWindowThenAdditiveIncrease)
{
    qp.sndNxt = 10000;
    Ack(true); // alpha 1: 100 G (1 - 1/2), reduction until 10000 is acknowledged
    EXPECT_EQ(qp.rate, 50e9);
    EXPECT_TRUE(cc->InReduction());
    Ack(true);
    Ack(true);
    Ack(true); // no second cut in the same window
    EXPECT_EQ(qp.rate, 50e9);
    for (int i = 0; i < 5; ++i)
    {
        Ack(false);
    }
    qp.sndNxt = 20000;
    Ack(false); // 10000 acknowledged: the window ends (alpha 0.9625), reduction over: + AI
    EXPECT_FALSE(cc->InReduction());
    EXPECT_EQ(qp.rate, 51e9);
    qp.sndNxt = 30000; // the next window ends when 20000 is acknowledged
    for (int i = 0; i < 10; ++i)
    {
        Ack(false);
    }
    EXPECT_EQ(qp.rate, 52e9); // one AI per window, not per ACK
    const double alpha = 15.0 / 16 * (15.0 / 16 + 0.4 / 16);
    Ack(true); // mid-window: the cut uses alpha as of the last window end
    EXPECT_NEAR(qp.rate, 52e9 * (1 - alpha / 2), 1);
}

TEST_F(DctcpTest, RateFloorAndCeiling)
{
    for (int w = 0; w < 20; ++w)
    {
        qp.sndNxt = qp.sndUna + 1000;
        Ack(true);
    }
    EXPECT_EQ(qp.rate, 100e6);
    for (int w = 0; w < 200; ++w)
    {
        qp.sndNxt = qp.sndUna + 1000;
        Ack(false);
    }
    EXPECT_EQ(qp.rate, qp.lineRate);
}

} // namespace
