/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Selective repeat (IRN): the receive bitmap and the sender's scoreboard on their own,
// then on fat-tree-k4 with per-packet spraying: selective repeat keeps at least 95 % of
// the line rate where go-back-N, which drops every packet that overtakes another,
// collapses; under reordering and loss every byte arrives exactly once.

#include "hand-fabric.h"
#include "latency-premise.h"

#include "ns3/config.h"
#include "ns3/congestion-ops.h"
#include "ns3/data-rate.h"
#include "ns3/load-balancer.h"
#include "ns3/nstime.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/receive-bitmap.h"
#include "ns3/roce-network.h"
#include "ns3/roce-wire.h"
#include "ns3/sack-scoreboard.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/traffic-scenario.h"

#include <gtest/gtest.h>

#include <string>

using namespace ns3;

namespace
{

const std::string kSource = MLFABRIC_SOURCE_DIR;

/**
 * A fixed pacing rate and a window that drops from 32 to 2 packets at the first loss;
 * at every send it checks that the packet was allowed: fewer bytes in flight than the
 * window before it, and one packet time at the rate since the one before.
 */
class WindowProbeCc : public RdmaCongestionOps
{
  public:
    static TypeId
    GetTypeId()
    {
        static TypeId tid = TypeId("ns3::TestWindowProbeCc")
                                .SetParent<RdmaCongestionOps>()
                                .AddConstructor<WindowProbeCc>();
        return tid;
    }

    std::string
    GetName() const override
    {
        return "window-probe";
    }

    void
    Init(CcQueuePairView* qp) override
    {
        RdmaCongestionOps::Init(qp);
        ApplyRate(kRateBps);
        ApplyWindow(32 * qp->GetMtuBytes());
    }

    void
    OnSend(uint32_t payloadBytes) override
    {
        const auto* qp = dynamic_cast<const RdmaQueuePair*>(m_qp);
        ++sends;
        if (qp->GetBytesInFlight() - payloadBytes >= m_qp->GetWindowBytes())
        {
            ++overWindow;
        }
        const Time now = Simulator::Now();
        if (lastWireBytes > 0 &&
            now - lastSend < DataRate(kRateBps).CalculateBytesTxTime(lastWireBytes))
        {
            ++tooSoon;
        }
        lastSend = now;
        lastWireBytes = payloadBytes + wire::kDataOverhead;
    }

    void
    OnNack(const AckSample&) override
    {
        Shrink();
    }

    void
    OnTimeout() override
    {
        Shrink();
    }

    static constexpr uint64_t kRateBps = 40'000'000'000;
    static uint64_t sends;
    static uint64_t overWindow;
    static uint64_t tooSoon;
    static uint64_t losses;

  private:
    void
    Shrink()
    {
        ++losses;
        ApplyWindow(2 * m_qp->GetMtuBytes());
    }

    Time lastSend;
    uint32_t lastWireBytes{0};
};

uint64_t WindowProbeCc::sends = 0;
uint64_t WindowProbeCc::overWindow = 0;
uint64_t WindowProbeCc::tooSoon = 0;
uint64_t WindowProbeCc::losses = 0;

NS_OBJECT_ENSURE_REGISTERED(WindowProbeCc);

TEST(ReceiveBitmapTest, HoldsWhatOvertakesAndCompletesMessagesInOrder)
{
    ReceiveBitmap b;
    b.SetCapacity(4000);
    // Message 0 is bytes 0..2999 (three packets), message 1 is 3000..3499.
    EXPECT_EQ(b.Receive(1000, 1000, false, 0), ReceiveBitmap::OUT_OF_ORDER);
    EXPECT_EQ(b.Receive(3000, 500, true, 11), ReceiveBitmap::OUT_OF_ORDER);
    EXPECT_EQ(b.Receive(2000, 1000, true, 10), ReceiveBitmap::OUT_OF_ORDER);
    EXPECT_EQ(b.GetHeldBytes(), 2500u);
    EXPECT_TRUE(b.TakeCompleted().empty());
    EXPECT_EQ(b.Receive(1000, 1000, false, 0), ReceiveBitmap::DUPLICATE);
    EXPECT_EQ(b.Receive(5000, 100, false, 0), ReceiveBitmap::BEYOND); // 5000 - 0 >= 4000
    EXPECT_EQ(b.Receive(0, 1000, false, 0), ReceiveBitmap::IN_ORDER);
    EXPECT_EQ(b.GetExpected(), 3500u);
    EXPECT_EQ(b.GetAdvance(), 3500u);
    EXPECT_EQ(b.GetNewBytes(), 1000u);
    EXPECT_EQ(b.GetHeldBytes(), 0u);
    const auto done = b.TakeCompleted();
    ASSERT_EQ(done.size(), 2u);
    EXPECT_EQ(done[0].end, 3000u);
    EXPECT_EQ(done[0].tag, 10u);
    EXPECT_EQ(done[1].end, 3500u);
    EXPECT_EQ(done[1].tag, 11u);
    EXPECT_EQ(b.Receive(0, 1000, false, 0), ReceiveBitmap::DUPLICATE);
}

TEST(SackScoreboardTest, ResendsOnlyTheGapsOnceTheyAreLost)
{
    SackScoreboard s;
    s.SetReorderBytes(2000);
    // Sent 0..9999 in packets of 1000; 1000..1999 and 4000..4999 are missing.
    s.Sack(0, 1000);
    s.Acknowledge(1000);
    s.Sack(2000, 3000);
    s.Sack(3000, 4000);
    EXPECT_EQ(s.GetSackedBytes(), 2000u);
    EXPECT_FALSE(s.DetectLoss()); // 2000 bytes past the gap: not more than ReorderBytes
    s.Sack(5000, 6000);
    EXPECT_TRUE(s.DetectLoss()); // 3000 past 1000..1999: lost; 1000 past 4000: not yet
    uint64_t seq = 0;
    uint64_t end = 0;
    ASSERT_TRUE(s.NextResend(seq, end));
    EXPECT_EQ(seq, 1000u);
    EXPECT_EQ(end, 2000u);
    s.Resent(1000, 2000);
    EXPECT_FALSE(s.NextResend(seq, end)); // 4000..4999 may still be late
    s.Sack(6000, 9000);
    EXPECT_TRUE(s.DetectLoss());
    ASSERT_TRUE(s.NextResend(seq, end));
    EXPECT_EQ(seq, 4000u);
    EXPECT_EQ(end, 5000u);
    s.Resent(4000, 5000);
    EXPECT_FALSE(s.NextResend(seq, end));
    // A timeout resends every gap again, never what was reported.
    s.LoseAll(10000);
    ASSERT_TRUE(s.NextResend(seq, end));
    EXPECT_EQ(seq, 1000u);
    EXPECT_EQ(end, 2000u);
    s.Resent(1000, 2000);
    ASSERT_TRUE(s.NextResend(seq, end));
    EXPECT_EQ(seq, 4000u);
    EXPECT_EQ(end, 5000u);
    s.Resent(4000, 5000);
    ASSERT_TRUE(s.NextResend(seq, end));
    EXPECT_EQ(seq, 9000u);
    EXPECT_EQ(end, 10000u);
    s.Acknowledge(10000);
    EXPECT_FALSE(s.NextResend(seq, end));
    EXPECT_EQ(s.GetSackedBytes(), 0u);
}

TEST(SackScoreboardTest, ResendsANamedLossAtOnceAndOnlyOnce)
{
    SackScoreboard s;
    s.SetReorderBytes(2000);
    // Sent 0..9999 in packets of 1000; 3000..3999 was trimmed, the rest arrives.
    s.Sack(0, 3000);
    s.Acknowledge(3000);
    EXPECT_TRUE(s.MarkLost(3000, 4000)); // no data past it reported yet: lost at once
    EXPECT_EQ(s.GetLostPendingBytes(), 1000u);
    uint64_t seq = 0;
    uint64_t end = 0;
    ASSERT_TRUE(s.NextResend(seq, end));
    EXPECT_EQ(seq, 3000u);
    EXPECT_EQ(end, 4000u);
    s.Resent(3000, 4000);
    EXPECT_FALSE(s.NextResend(seq, end));
    EXPECT_EQ(s.GetLostPendingBytes(), 0u);
    EXPECT_TRUE(s.MarkLost(3000, 4000)); // the resend was trimmed too: once more
    ASSERT_TRUE(s.NextResend(seq, end));
    EXPECT_EQ(seq, 3000u);
    s.Resent(3000, 4000);
    EXPECT_FALSE(s.NextResend(seq, end));
    // The data after it overtakes the resend: the gap detector must not send it again.
    s.Sack(4000, 9000);
    s.DetectLoss();
    EXPECT_FALSE(s.NextResend(seq, end));
    EXPECT_EQ(s.GetLostPendingBytes(), 0u);
    EXPECT_TRUE(s.Covers(4000, 9000));
    EXPECT_FALSE(s.Covers(3000, 9000)); // the resend is not acknowledged yet
    // A named loss below a detected gap goes first, and bytes held are never named.
    s.Sack(9500, 10000);
    EXPECT_TRUE(s.MarkLost(9000, 10000));
    ASSERT_TRUE(s.NextResend(seq, end));
    EXPECT_EQ(seq, 9000u);
    EXPECT_EQ(end, 9500u);
    s.Resent(9000, 9500);
    EXPECT_FALSE(s.NextResend(seq, end));
    // A timeout resends what is unacknowledged and not held, resent or not.
    s.LoseAll(10000);
    EXPECT_EQ(s.GetLostPendingBytes(), 1500u); // 3000..3999 and 9000..9499
    ASSERT_TRUE(s.NextResend(seq, end));
    EXPECT_EQ(seq, 3000u);
    EXPECT_EQ(end, 4000u);
    s.Acknowledge(10000);
    EXPECT_FALSE(s.NextResend(seq, end));
    EXPECT_EQ(s.GetSackedBytes(), 0u);
}

class SelectiveRepeatTest : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }

    static TrafficResult
    Run(const std::string& transport,
        const std::string& order,
        TrafficPattern pattern,
        uint64_t bytes,
        double loss)
    {
        // The closed forms below count cables and store-and-forward serialization only.
        WithoutSwitchAndNicLatency();
        Config::SetDefault("ns3::RoceSwitch::LoadBalancer",
                           TypeIdValue(SprayBalancer::GetTypeId()));
        Config::SetDefault("ns3::SprayBalancer::Order", StringValue(order));
        Config::SetDefault("ns3::RdmaNic::Transport", StringValue(transport));
        Config::SetDefault("ns3::RdmaNic::RetransmitTimeout", TimeValue(MicroSeconds(200)));
        TrafficConfig config;
        config.fabricPath = kSource + "/fabrics/fat-tree-k4.yaml";
        config.pattern = pattern;
        config.messageBytes = bytes;
        config.loss = loss;
        config.stopTime = MilliSeconds(100);
        TrafficResult r = RunTraffic(config);
        Config::Reset();
        return r;
    }
};

TEST_F(SelectiveRepeatTest, KeepsLineRateUnderSprayingWhereGoBackNCollapses)
{
    const uint64_t bytes = 512 * 1024;
    const TrafficResult sr =
        Run("SelectiveRepeat", "RoundRobin", TrafficPattern::PERMUTATION, bytes, -1);
    const TrafficResult gbn = Run("GoBackN", "RoundRobin", TrafficPattern::PERMUTATION, bytes, -1);
    ASSERT_EQ(sr.bytesDelivered, sr.bytesExpected);
    const double ideal = sr.idealCompletionPs * 1e-12;
    // The busiest host link's bytes at line rate against the tail less the unloaded
    // latency between pods (six 1 us links, five store-and-forward 4178 B frames at
    // 100 Gb/s): at least 95 % of the line rate.
    const double latency = 6e-6 + 5 * 4178 * 8 / 100e9;
    EXPECT_GE(ideal / (sr.completion.GetSeconds() - latency), 0.95);
    EXPECT_EQ(sr.outOfOrderBytes, 0u);
    // Go-back-N drops what overtakes and resends from the gap: it moves far more bytes
    // than it delivers and finishes at a fraction of the line rate, if at all.
    EXPECT_GT(gbn.outOfOrderBytes, gbn.bytesExpected / 4);
    const double gbnShare =
        gbn.completedFlows == gbn.flows.size() ? ideal / gbn.completion.GetSeconds() : 0.0;
    EXPECT_LT(gbnShare, 0.5);
}

TEST_F(SelectiveRepeatTest, DeliversEveryByteOnceUnderReorderingAndLoss)
{
    const TrafficResult r =
        Run("SelectiveRepeat", "Random", TrafficPattern::ALL_TO_ALL, 64 * 1024, 0.002);
    EXPECT_GT(r.lostFrames, 0u);
    EXPECT_GT(r.retransmittedBytes, 0u);
    EXPECT_EQ(r.bytesDelivered, r.bytesExpected);
    ASSERT_EQ(r.completedFlows, r.flows.size());
    for (const auto& f : r.flows)
    {
        EXPECT_EQ(f.timesReceived, 1u) << f.srcRank << " -> " << f.dstRank;
    }
}

} // namespace

TEST_F(SelectiveRepeatTest, ResendsKeepToTheWindowAndThePacingRate)
{
    // 1 MiB over a switch, 1 % of frames lost each way: resends take their turn in the
    // window (shrunk to 2 packets at the first loss) and at the pacing rate, as new
    // data does.
    WindowProbeCc::sends = 0;
    WindowProbeCc::overWindow = 0;
    WindowProbeCc::tooSoon = 0;
    WindowProbeCc::losses = 0;
    Config::SetDefault("ns3::RdmaNic::Transport", StringValue("SelectiveRepeat"));
    Config::SetDefault("ns3::RdmaNic::RetransmitTimeout", TimeValue(MicroSeconds(50)));
    Config::SetDefault("ns3::RdmaNic::CongestionControl", TypeIdValue(WindowProbeCc::GetTypeId()));
    const uint32_t mtu = 4096;
    RoceNetwork net;
    HandFabric hand;
    const uint32_t sw = hand.AddSwitch();
    const uint32_t a = hand.AddHost();
    const uint32_t b = hand.AddHost();
    hand.AddLink(a, sw, 100'000'000'000, MicroSeconds(1), 0.01);
    hand.AddLink(b, sw, 100'000'000'000, MicroSeconds(1), 0.01);
    hand.Install(net, mtu);
    Ptr<RdmaQueuePair> qp = net.Connect(a, b, 3);
    net.GetNic(a)->PostSend(qp, 1 << 20, 7);
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    EXPECT_TRUE(qp->IsIdle());
    EXPECT_EQ(net.GetNic(b)->GetCounters().deliveredBytes, 1u << 20);
    EXPECT_GT(net.GetNic(a)->GetCounters().retransmittedBytes, 0u);
    EXPECT_GT(WindowProbeCc::losses, 0u);
    EXPECT_GT(WindowProbeCc::sends, (1u << 20) / mtu);
    EXPECT_EQ(WindowProbeCc::overWindow, 0u);
    EXPECT_EQ(WindowProbeCc::tooSoon, 0u);
}
