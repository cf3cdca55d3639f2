/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Swift: target delay with hop and flow scaling, and its increase/decrease decisions.
#include "cc-fake-qp.h"

#include "ns3/cc-swift.h"
#include "ns3/core-module.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ns3;

namespace
{

/**
 * 100 Gb/s, 1000-byte packets, unloaded RTT 10 us, 2 hops; base target 5 us, 1 us per
 * hop, flow scaling up to 10 us between 0.1 and 100 packets; ai 1, beta 0.8,
 * max_mdf 0.5. cwnd starts at one BDP, 125 packets; its ceiling is line rate x 17 us.
 */
class SwiftTest : public testing::Test
{
  protected:
    void
    SetUp() override
    {
        cc = CreateObject<CcSwift>();
        cc->Init(&qp);
    }

    void
    TearDown() override
    {
        Simulator::Destroy();
    }

    /** Acknowledge one packet with this RTT (us). */
    void
    Ack(double us, uint64_t bytes = 1000)
    {
        cc->OnAck(qp.Deliver(bytes, NanoSeconds(static_cast<int64_t>(us * 1000))));
    }

    /** Flow scaling for a window of cwnd packets, seconds (hand-derived). */
    static double
    FlowScaling(double cwnd)
    {
        const double a = 10e-6 / (1 / std::sqrt(0.1) - 1 / std::sqrt(100.0));
        const double b = -a / std::sqrt(100.0);
        return std::clamp(a / std::sqrt(cwnd) + b, 0.0, 10e-6);
    }

    FakeQueuePair qp;
    Ptr<CcSwift> cc;
};

TEST_F(SwiftTest, StartsAtOneBdp)
{
    EXPECT_TRUE(cc->NeedsTimestamp());
    EXPECT_EQ(cc->GetName(), "swift");
    EXPECT_NEAR(cc->GetCwnd(), 125, 1e-9);
    EXPECT_EQ(qp.window, 125000U);
    EXPECT_EQ(qp.rate, qp.lineRate);
}

TEST_F(SwiftTest, TargetWithHopAndFlowScaling)
{
    // Large windows: no flow scaling; 10 + 5 + 2 x 1 us.
    EXPECT_EQ(cc->GetTargetDelay(125), MicroSeconds(17));
    EXPECT_EQ(cc->GetTargetDelay(100), MicroSeconds(17));
    // At and below fs_min_cwnd the full range.
    EXPECT_EQ(cc->GetTargetDelay(0.1), MicroSeconds(27));
    EXPECT_EQ(cc->GetTargetDelay(0.01), MicroSeconds(27));
    // In between: a / sqrt(cwnd) + b, a = 10 us / (1/sqrt(0.1) - 1/10) = 3.2655 us.
    EXPECT_NEAR(cc->GetTargetDelay(25).GetSeconds(), 17e-6 + 0.326554e-6, 1e-12);
    EXPECT_NEAR(cc->GetTargetDelay(1).GetSeconds(), 17e-6 + FlowScaling(1), 1e-12);

    // Hop scaling: three more hops, three more microseconds.
    FakeQueuePair far;
    far.hops = 5;
    Ptr<CcSwift> other = CreateObject<CcSwift>();
    other->Init(&far);
    EXPECT_EQ(other->GetTargetDelay(125), MicroSeconds(20));
}

TEST_F(SwiftTest, AdditiveIncreaseBelowTarget)
{
    Ack(12); // 12 us < 17 us: cwnd += ai / cwnd per packet
    EXPECT_NEAR(cc->GetCwnd(), 125 + 1.0 / 125, 1e-9);
    Ack(16.9, 3000); // three packets at once
    EXPECT_NEAR(cc->GetCwnd(), 125.008 + 3 / 125.008, 1e-9);
    EXPECT_EQ(qp.window, static_cast<uint64_t>(std::ceil(cc->GetCwnd() * 1000)));
}

TEST_F(SwiftTest, MultiplicativeDecreaseOncePerRtt)
{
    Ack(34); // 34 us >= 17 us: factor max(1 - 0.8 (34 - 17)/34, 0.5) = 0.6
    EXPECT_NEAR(cc->GetCwnd(), 125 * 0.6, 1e-9);
    Ack(34); // within an RTT of the last decrease: no change, and no increase
    EXPECT_NEAR(cc->GetCwnd(), 75, 1e-9);

    Simulator::Schedule(MicroSeconds(34), [this] { Ack(34); });
    Simulator::Run();
    const double target = 17e-6 + FlowScaling(75);
    EXPECT_NEAR(cc->GetTargetDelay(75).GetSeconds(), target, 1e-12);
    // The target is a Time, exact to the picosecond.
    EXPECT_NEAR(cc->GetCwnd(), 75 * (1 - 0.8 * (34e-6 - target) / 34e-6), 1e-5);
}

TEST_F(SwiftTest, DecreaseBoundedByMaxMdf)
{
    Ack(1000); // 1 - 0.8 x 983/1000 = 0.2136 < 1 - max_mdf
    EXPECT_NEAR(cc->GetCwnd(), 62.5, 1e-9);
}

TEST_F(SwiftTest, BelowOnePacketThePairIsPaced)
{
    for (int i = 0; i < 5; ++i)
    {
        cc->OnTimeout(); // the fifth timeout in a row resets cwnd to min_cwnd
    }
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), 0.001);
    EXPECT_EQ(qp.window, 1U);
    // Paced at cwnd MTU / RTT = 1 byte per 10 us.
    EXPECT_EQ(qp.rate, 800000U);
    Ack(12, 100); // below one packet: cwnd += ai x acked packets
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), 0.101);
    EXPECT_EQ(qp.rate, static_cast<uint64_t>(std::llround(0.101 * 8000 / 12e-6)));
}

TEST_F(SwiftTest, LossCutsByMaxMdfOncePerRtt)
{
    AckSample nack;
    cc->OnNack(nack);
    EXPECT_NEAR(cc->GetCwnd(), 62.5, 1e-9);
    cc->OnTimeout(); // same instant: no second cut
    EXPECT_NEAR(cc->GetCwnd(), 62.5, 1e-9);
}

TEST_F(SwiftTest, CwndCeiling)
{
    for (int i = 0; i < 100000; ++i)
    {
        Ack(11);
    }
    EXPECT_NEAR(cc->GetCwnd(), 212.5, 1e-9); // 100 Gb/s x 17 us / 8000 bits
    EXPECT_EQ(qp.rate, qp.lineRate);
}

} // namespace
