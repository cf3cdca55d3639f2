/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// What the NIC feeds back and how fast it obeys: pacing follows every rate change at
// once; a coalescing receiver acknowledges when CE changes (RFC 8257); a NACK echoes
// the ECN mark and the INT stack of the packet that found the gap.

#include "hand-fabric.h"

#include "ns3/config.h"
#include "ns3/congestion-ops.h"
#include "ns3/integer.h"
#include "ns3/packet.h"
#include "ns3/roce-network.h"
#include "ns3/roce-wire.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kRate = 100'000'000'000;
constexpr uint32_t kMtu = 4096;

/** Records what each ACK and NACK told it; sends at whatever rate the test sets. */
class RecordingCc : public RdmaCongestionOps
{
  public:
    static TypeId
    GetTypeId()
    {
        static TypeId tid = TypeId("ns3::TestRecordingCc")
                                .SetParent<RdmaCongestionOps>()
                                .AddConstructor<RecordingCc>();
        return tid;
    }

    std::string
    GetName() const override
    {
        return "recording";
    }

    void
    OnAck(const AckSample& ack) override
    {
        acks.push_back(ack);
    }

    void
    OnNack(const AckSample& ack) override
    {
        nacks.push_back(ack);
        nackHops = ack.nHops;
    }

    static std::vector<AckSample> acks;
    static std::vector<AckSample> nacks;
    static uint32_t nackHops;
};

std::vector<AckSample> RecordingCc::acks;
std::vector<AckSample> RecordingCc::nacks;
uint32_t RecordingCc::nackHops = 0;

NS_OBJECT_ENSURE_REGISTERED(RecordingCc);

/** \return the wire time of one full data packet at \p bps */
Time
PacketTime(uint64_t bps)
{
    const uint64_t bits = static_cast<uint64_t>(kMtu + wire::kDataOverhead) * 8;
    return PicoSeconds(static_cast<int64_t>(bits * 1'000'000'000'000ULL / bps));
}

class RdmaFeedbackTest : public testing::Test
{
  public:
    void
    SetUp() override
    {
        RecordingCc::acks.clear();
        RecordingCc::nacks.clear();
        RecordingCc::nackHops = 0;
        Config::SetDefault("ns3::RdmaNic::CongestionControl",
                           TypeIdValue(RecordingCc::GetTypeId()));
    }

    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }

    void
    Build()
    {
        HandFabric hand;
        const uint32_t sw = hand.AddSwitch();
        m_a = hand.AddHost();
        m_b = hand.AddHost();
        hand.AddLink(m_a, sw, kRate, MicroSeconds(1));
        hand.AddLink(m_b, sw, kRate, MicroSeconds(1));
        hand.Install(m_net, kMtu);
        m_net.GetNic(m_b)->TraceConnectWithoutContext(
            "MessageReceived",
            Callback<void, uint32_t, uint32_t, uint64_t, uint64_t>(
                [this](uint32_t, uint32_t, uint64_t, uint64_t)
                { m_receivedAt.push_back(Simulator::Now()); }));
    }

    /** Hand node b a data packet of \p qp as if it had just arrived. */
    void
    Inject(Ptr<RdmaQueuePair> qp, uint64_t seq, bool ce, bool last, uint8_t hops = 0)
    {
        InjectWith(qp, seq, ce, last, hops, false);
    }

    /** As Inject; \p wantCnp asks the receiver for CNPs. */
    void
    InjectWith(Ptr<RdmaQueuePair> qp, uint64_t seq, bool ce, bool last, uint8_t hops, bool wantCnp)
    {
        RoceFrame frame;
        frame.header = MakeRoceHeader();
        RoceHeader& h = *frame.header;
        h.type = RoceHeader::DATA;
        h.priority = 3;
        h.flags = RoceHeader::ECT;
        if (ce)
        {
            h.Set(RoceHeader::CE);
        }
        if (last)
        {
            h.Set(RoceHeader::LAST);
        }
        if (wantCnp)
        {
            h.Set(RoceHeader::WANT_CNP);
        }
        if (hops > 0)
        {
            h.Set(RoceHeader::WANT_INT);
            for (uint8_t i = 0; i < hops; ++i)
            {
                IntHop hop;
                hop.rateBps = kRate;
                hop.qlenBytes = 1000 * (i + 1);
                h.PushHop(hop);
            }
        }
        h.src = m_a;
        h.dst = m_b;
        h.srcQp = qp->GetQpn();
        h.dstQp = qp->GetPeerQpn();
        h.seq = seq;
        h.payload = kMtu;
        frame.wireBytes = h.GetWireBytes();
        frame.priority = 3;
        frame.payload = kMtu;
        Ptr<RdmaNic> nic = m_net.GetNic(m_b);
        nic->ReceiveFrame(*nic->GetPort(0), std::move(frame));
    }

    /**
     * Two one-packet messages at 100 Mb/s; at 10 us the rate becomes \p newRate.
     * \return when the second arrives
     */
    Time
    SecondPacketArrival(uint64_t newRate)
    {
        Build();
        Ptr<RdmaQueuePair> qp = m_net.Connect(m_a, m_b, 3);
        qp->SetRateBps(100'000'000);
        m_net.GetNic(m_a)->PostSend(qp, kMtu, 1);
        m_net.GetNic(m_a)->PostSend(qp, kMtu, 2);
        Simulator::Schedule(MicroSeconds(10), &RdmaQueuePair::SetRateBps, qp, newRate);
        Simulator::Run();
        EXPECT_EQ(m_receivedAt.size(), 2U);
        return m_receivedAt.empty() ? Time(0) : m_receivedAt.back();
    }

    /**
     * A CE-marked last packet asking for a CNP arrives at b, with AckPriority
     * \p ackPriority. \return the kind and class of each frame b sends
     */
    std::vector<std::pair<RoceHeader::Type, uint8_t>>
    ControlClasses(int32_t ackPriority)
    {
        Config::SetDefault("ns3::RdmaNic::AckPriority", IntegerValue(ackPriority));
        Build();
        std::vector<std::pair<RoceHeader::Type, uint8_t>> sent;
        m_net.GetNic(m_b)->GetPort(0)->TraceConnectWithoutContext("Tx",
                                                                  Callback<void, Ptr<const Packet>>(
                                                                      [&sent](Ptr<const Packet> p)
                                                                      {
                                                                          RoceHeader h;
                                                                          p->PeekHeader(h);
                                                                          sent.emplace_back(
                                                                              h.type, h.priority);
                                                                      }));
        Ptr<RdmaQueuePair> qp = m_net.Connect(m_a, m_b, 3);
        Simulator::Schedule(
            NanoSeconds(1), &RdmaFeedbackTest::InjectWith, this, qp, 0, true, true, 0, true);
        Simulator::Run();
        return sent;
    }

    RoceNetwork m_net;
    uint32_t m_a{0};
    uint32_t m_b{0};
    std::vector<Time> m_receivedAt;
};

} // namespace

TEST_F(RdmaFeedbackTest, PacingFollowsARateIncreaseAtOnce)
{
    // 100 Mb/s puts the second packet 334 us after the first; at 10 us the rate
    // returns to line rate and the packet leaves then.
    EXPECT_GT(PacketTime(100'000'000), MicroSeconds(334));
    const Time arrival = SecondPacketArrival(kRate);
    EXPECT_GT(arrival, MicroSeconds(10));
    EXPECT_LT(arrival, MicroSeconds(14));
}

TEST_F(RdmaFeedbackTest, PacingFollowsARateDecreaseAtOnce)
{
    // At 50 Mb/s the gap after the first packet (sent at 0) is 668 us, not 334.
    const Time arrival = SecondPacketArrival(50'000'000);
    EXPECT_GT(arrival, PacketTime(50'000'000));
    EXPECT_LT(arrival, PacketTime(50'000'000) + MicroSeconds(4));
}

TEST_F(RdmaFeedbackTest, CoalescedAcksSplitWhereCeChanges)
{
    Config::SetDefault("ns3::RdmaNic::AckInterval", UintegerValue(4));
    Build();
    Ptr<RdmaQueuePair> qp = m_net.Connect(m_a, m_b, 3);
    // Marked, unmarked, unmarked, marked (last): half the bytes carried CE.
    const std::vector<bool> marks = {true, false, false, true};
    for (size_t i = 0; i < marks.size(); ++i)
    {
        Simulator::Schedule(NanoSeconds(400 * i),
                            &RdmaFeedbackTest::Inject,
                            this,
                            qp,
                            i * kMtu,
                            marks[i],
                            i + 1 == marks.size(),
                            0);
    }
    Simulator::Run();
    ASSERT_EQ(RecordingCc::acks.size(), 3U);
    uint64_t marked = 0;
    uint64_t acked = 0;
    for (const AckSample& a : RecordingCc::acks)
    {
        acked += a.newlyAcked;
        marked += a.ecnEcho ? a.newlyAcked : 0;
    }
    EXPECT_EQ(acked, 4U * kMtu);
    EXPECT_EQ(marked, 2U * kMtu);
    EXPECT_TRUE(RecordingCc::acks[0].ecnEcho);
    EXPECT_EQ(RecordingCc::acks[0].newlyAcked, kMtu);
    EXPECT_FALSE(RecordingCc::acks[1].ecnEcho);
    EXPECT_EQ(RecordingCc::acks[1].newlyAcked, 2U * kMtu);
}

TEST_F(RdmaFeedbackTest, NackEchoesEcnAndInt)
{
    Build();
    Ptr<RdmaQueuePair> qp = m_net.Connect(m_a, m_b, 3);
    // Byte 0 never arrives: the packet at 4096 finds the gap, marked, with two hops.
    Simulator::Schedule(NanoSeconds(1), &RdmaFeedbackTest::Inject, this, qp, kMtu, true, true, 2);
    Simulator::Run();
    ASSERT_EQ(RecordingCc::nacks.size(), 1U);
    EXPECT_TRUE(RecordingCc::nacks[0].ecnEcho);
    EXPECT_EQ(RecordingCc::nackHops, 2U);
    EXPECT_EQ(RecordingCc::nacks[0].ackedSeq, 0U);
}

TEST_F(RdmaFeedbackTest, AcksTravelInTheDataClassAndCnpsInTheirOwn)
{
    const auto sent = ControlClasses(-1);
    ASSERT_EQ(sent.size(), 2U);
    EXPECT_EQ(sent[0], std::make_pair(RoceHeader::CNP, uint8_t{6})); // ConnectX's CNP class
    EXPECT_EQ(sent[1], std::make_pair(RoceHeader::ACK, uint8_t{3})); // the queue pair's
}

TEST_F(RdmaFeedbackTest, AckPriorityKeepsTheOldSingleControlClass)
{
    Config::SetDefault("ns3::RdmaNic::CnpPriority", UintegerValue(7));
    const auto sent = ControlClasses(7);
    ASSERT_EQ(sent.size(), 2U);
    EXPECT_EQ(sent[0], std::make_pair(RoceHeader::CNP, uint8_t{7}));
    EXPECT_EQ(sent[1], std::make_pair(RoceHeader::ACK, uint8_t{7}));
}

namespace
{

/** Feedback under the transports that keep what overtakes a gap. */
class HeldReportTest : public RdmaFeedbackTest
{
  protected:
    /**
     * Packets 0, 2 (CE), 3 (CE), 1 of one message arrive at b: 2 and 3 overtake 1. Their
     * reports must give the congestion control their bytes and marks (DCTCP counts the
     * marked fraction of the acknowledged bytes), not leave them to the ACK of packet 1.
     */
    void
    ExpectHeldBytesAndMarksReported(const std::string& transport)
    {
        Config::SetDefault("ns3::RdmaNic::Transport", StringValue(transport));
        Build();
        Ptr<RdmaQueuePair> qp = m_net.Connect(m_a, m_b, 3);
        const std::vector<std::pair<uint64_t, bool>> arrivals = {
            {0, false}, {2, true}, {3, true}, {1, false}};
        for (size_t i = 0; i < arrivals.size(); ++i)
        {
            Simulator::Schedule(NanoSeconds(400 * i),
                                &RdmaFeedbackTest::Inject,
                                this,
                                qp,
                                arrivals[i].first * kMtu,
                                arrivals[i].second,
                                arrivals[i].first == 3,
                                0);
        }
        Simulator::Run();
        uint64_t acked = 0;
        uint64_t marked = 0;
        for (const auto& a : RecordingCc::acks)
        {
            acked += a.newlyAcked;
            marked += a.ecnEcho ? a.newlyAcked : 0;
        }
        EXPECT_TRUE(RecordingCc::nacks.empty()); // reordering, not loss
        EXPECT_EQ(acked, 4 * kMtu);
        EXPECT_EQ(marked, 2 * kMtu);
        EXPECT_EQ(qp->GetSndUna(), 4 * kMtu);
        EXPECT_EQ(m_receivedAt.size(), 1u);
    }
};

} // namespace

TEST_F(HeldReportTest, SelectiveRepeatReportsHeldBytesAndMarks)
{
    ExpectHeldBytesAndMarksReported("SelectiveRepeat");
}

TEST_F(HeldReportTest, UnorderedDeliveryReportsHeldBytesAndMarks)
{
    ExpectHeldBytesAndMarksReported("Unordered");
}
