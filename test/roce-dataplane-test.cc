/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The RoCEv2 data plane against analytical values and conservation of bytes.

#include "hand-fabric.h"
#include "latency-premise.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/enum.h"
#include "ns3/incast-scenario.h"
#include "ns3/nstime.h"
#include "ns3/roce-header.h"
#include "ns3/roce-network.h"
#include "ns3/roce-wire.h"
#include "ns3/simulator.h"
#include "ns3/switch-pipeline.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kRate = 100'000'000'000;
constexpr uint32_t kMtu = 4096;
const Time kDelay = MicroSeconds(1);

/** Serialization time of \p bytes at kRate, exactly. */
Time
Tx(uint64_t bytes, uint64_t rate = kRate)
{
    const unsigned __int128 bitPs =
        static_cast<unsigned __int128>(bytes) * 8 * 1'000'000'000'000ULL;
    return PicoSeconds(static_cast<int64_t>(bitPs / rate));
}

/** Records sender and receiver completions of every message on a network. */
struct Completions
{
    std::vector<Time> sent;              //!< sender-side completion times
    std::vector<uint64_t> sentBytes;     //!< their sizes
    std::vector<Time> received;          //!< receiver-side completion times
    std::vector<uint64_t> receivedBytes; //!< their sizes
    std::vector<uint64_t> receivedTags;  //!< their tags

    void
    Watch(Ptr<RdmaNic> nic)
    {
        nic->TraceConnectWithoutContext(
            "MessageSent",
            Callback<void, Ptr<RdmaQueuePair>, uint64_t, uint64_t, uint64_t, Time>(
                [this](Ptr<RdmaQueuePair>, uint64_t, uint64_t, uint64_t bytes, Time)
                {
                    sent.push_back(Simulator::Now());
                    sentBytes.push_back(bytes);
                }));
        nic->TraceConnectWithoutContext("MessageReceived",
                                        Callback<void, uint32_t, uint32_t, uint64_t, uint64_t>(
                                            [this](uint32_t, uint32_t, uint64_t tag, uint64_t bytes)
                                            {
                                                received.push_back(Simulator::Now());
                                                receivedBytes.push_back(bytes);
                                                receivedTags.push_back(tag);
                                            }));
    }
};

class DataPlaneTest : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

/** A chain host - k switches - host; returns {src, dst}. */
std::pair<uint32_t, uint32_t>
BuildChain(RoceNetwork& net, uint32_t switches)
{
    HandFabric hand;
    const uint32_t src = hand.AddHost();
    uint32_t prev = src;
    for (uint32_t i = 0; i < switches; ++i)
    {
        const uint32_t sw = hand.AddSwitch();
        hand.AddLink(prev, sw, kRate, kDelay);
        prev = sw;
    }
    const uint32_t dst = hand.AddHost();
    hand.AddLink(prev, dst, kRate, kDelay);
    hand.Install(net, kMtu);
    return {src, dst};
}

} // namespace

// Acceptance 1: store-and-forward latency across 0..3 switches, exact to 0.5 %.
TEST_F(DataPlaneTest, MessageLatencyMatchesStoreAndForward)
{
    // Switches and NICs without pipelines (doc/latency.md; test/latency-test.cc has them).
    WithoutSwitchAndNicLatency();
    for (uint32_t k = 0; k <= 3; ++k)
    {
        RoceNetwork net;
        auto [src, dst] = BuildChain(net, k);
        Completions done;
        done.Watch(net.GetNic(src));
        done.Watch(net.GetNic(dst));
        const uint64_t size = 1000 * 1000; // 244 full packets and a short one
        net.GetNic(src)->PostSend(net.Connect(src, dst, 3), size, 7);
        Simulator::Run();

        const uint64_t full = size / kMtu;
        const uint64_t lastPayload = size - full * kMtu;
        const uint64_t fullWire = kMtu + wire::kDataOverhead;
        const uint64_t lastWire = lastPayload + wire::kDataOverhead;
        // The source serializes every packet back to back. Each switch forwards the
        // train at line rate, so the short last packet leaves a switch one full
        // packet time after it left the previous hop: every switch adds one full
        // packet's serialization, and the train crosses k + 1 cables.
        const Time received = Tx(full * fullWire + lastWire) + Tx(fullWire) * k + kDelay * (k + 1);
        RoceHeader ack;
        ack.type = RoceHeader::ACK;
        const Time acked = received + (Tx(ack.GetWireBytes()) + kDelay) * (k + 1);

        ASSERT_EQ(done.received.size(), 1u) << k << " switches";
        ASSERT_EQ(done.sent.size(), 1u) << k << " switches";
        EXPECT_EQ(done.receivedBytes[0], size);
        EXPECT_NEAR(
            done.received[0].GetSeconds(), received.GetSeconds(), 0.005 * received.GetSeconds())
            << k << " switches";
        EXPECT_NEAR(done.sent[0].GetSeconds(), acked.GetSeconds(), 0.005 * acked.GetSeconds())
            << k << " switches";
        Simulator::Destroy();
    }
}

// Acceptance 1: a long flow's goodput is the line rate times payload / (payload + 82).
TEST_F(DataPlaneTest, LongFlowGoodputIsLineRateMinusWireOverhead)
{
    RoceNetwork net;
    auto [src, dst] = BuildChain(net, 1);
    Completions done;
    done.Watch(net.GetNic(dst));
    const uint64_t size = 64ULL << 20;
    net.GetNic(src)->PostSend(net.Connect(src, dst, 3), size, 1);
    Simulator::Run();
    ASSERT_EQ(done.received.size(), 1u);
    const double goodput = size * 8.0 / done.received[0].GetSeconds();
    const double expected = kRate * double(kMtu) / (kMtu + wire::kDataOverhead);
    EXPECT_NEAR(goodput, expected, 0.005 * expected);
    EXPECT_EQ(wire::kDataOverhead, 82u);
}

// Acceptance 2: incast with PFC is lossless and bounded by the buffer.
TEST_F(DataPlaneTest, IncastWithPfcIsLossless)
{
    for (uint32_t senders : {16u, 64u})
    {
        IncastConfig config;
        config.senders = senders;
        config.messageBytes = senders == 16 ? 2ULL << 20 : 1ULL << 20;
        config.bufferBytes = 8ULL << 20;
        const IncastResult r = RunIncast(config);
        EXPECT_EQ(r.drops, 0u) << senders;
        EXPECT_EQ(r.bytesDelivered, r.bytesExpected) << senders;
        EXPECT_GT(r.pfcPauseFrames, 0u) << senders;
        // Nothing is lost, so no retransmission timer may fire.
        EXPECT_EQ(r.timeouts, 0u) << senders;
        EXPECT_LE(r.maxBufferBytes, r.bufferBytes) << senders;
        for (const auto& f : r.flows)
        {
            EXPECT_EQ(f.timesReceived, 1u) << "sender " << f.sender;
            EXPECT_TRUE(f.completion.IsStrictlyPositive()) << "sender " << f.sender;
            EXPECT_EQ(f.retransmittedBytes, 0u) << "sender " << f.sender;
        }
        Config::Reset();
    }
}

// Acceptance 3: without PFC a small buffer drops; NACK, go-back-N and the timeout recover.
TEST_F(DataPlaneTest, IncastWithoutPfcRecoversFromDrops)
{
    // Timeouts of 4.2 ms (2^10 x 4.096 us), not NCCL's 4.3 s, to recover within the run.
    Config::SetDefault("ns3::RdmaNic::AckTimeout", UintegerValue(10));
    IncastConfig config;
    config.senders = 16;
    config.messageBytes = 512 * 1024;
    config.pfc = false;
    config.bufferBytes = 2ULL << 20;
    const IncastResult r = RunIncast(config);
    EXPECT_GT(r.drops, 0u);
    EXPECT_EQ(r.pfcPauseFrames, 0u);
    EXPECT_GT(r.nacks + r.timeouts, 0u);
    EXPECT_EQ(r.bytesDelivered, r.bytesExpected);
    uint64_t retransmitted = 0;
    for (const auto& f : r.flows)
    {
        EXPECT_EQ(f.timesReceived, 1u) << "sender " << f.sender;
        EXPECT_TRUE(f.completion.IsStrictlyPositive()) << "sender " << f.sender;
        retransmitted += f.retransmittedBytes;
    }
    EXPECT_GT(retransmitted, 0u);
}

// Acceptance 6: per-packet loss on every link; every message completes exactly once.
TEST_F(DataPlaneTest, RandomLossRecovers)
{
    Config::SetDefault("ns3::RdmaNic::AckTimeout", UintegerValue(10));
    IncastConfig config;
    config.senders = 4;
    config.messageBytes = 4ULL << 20;
    config.loss = 1e-3;
    const IncastResult r = RunIncast(config);
    EXPECT_GT(r.lostFrames, 0u);
    EXPECT_EQ(r.bytesDelivered, r.bytesExpected);
    for (const auto& f : r.flows)
    {
        EXPECT_EQ(f.timesReceived, 1u) << "sender " << f.sender;
        EXPECT_TRUE(f.completion.IsStrictlyPositive()) << "sender " << f.sender;
    }
}

// Acceptance 5: 64 flows over 4 equal-cost paths use all of them, none above twice its share.
TEST_F(DataPlaneTest, EcmpSpreadsFlowsOverEqualCostPaths)
{
    RoceNetwork net;
    HandFabric hand;
    const uint32_t leafA = hand.AddSwitch();
    const uint32_t leafB = hand.AddSwitch();
    std::vector<uint32_t> spines;
    for (int i = 0; i < 4; ++i)
    {
        spines.push_back(hand.AddSwitch());
        hand.AddLink(leafA, spines.back(), kRate, kDelay);
        hand.AddLink(leafB, spines.back(), kRate, kDelay);
    }
    std::vector<uint32_t> left;
    std::vector<uint32_t> right;
    for (int i = 0; i < 8; ++i)
    {
        left.push_back(hand.AddHost());
        hand.AddLink(left.back(), leafA, kRate, kDelay);
        right.push_back(hand.AddHost());
        hand.AddLink(right.back(), leafB, kRate, kDelay);
    }
    hand.Install(net, kMtu);
    const uint64_t size = 64 * 1024;
    for (int flow = 0; flow < 64; ++flow)
    {
        const uint32_t src = left[flow % 8];
        const uint32_t dst = right[(flow / 8 + flow) % 8];
        net.GetNic(src)->PostSend(net.Connect(src, dst, 3), size, flow);
    }
    Simulator::Run();

    // Leaf A's first four ports face the spines; count the data each carried.
    const auto ports = net.GetPorts(leafA);
    uint64_t total = 0;
    std::vector<uint64_t> perPath;
    for (int i = 0; i < 4; ++i)
    {
        perPath.push_back(ports[i]->GetCounters().txBytes);
        total += perPath.back();
    }
    for (int i = 0; i < 4; ++i)
    {
        EXPECT_GT(perPath[i], 0u) << "spine " << i << " unused";
        EXPECT_LE(perPath[i], 2 * total / 4) << "spine " << i << " overloaded";
    }
    uint64_t delivered = 0;
    for (uint32_t h : right)
    {
        delivered += net.GetNic(h)->GetCounters().deliveredBytes;
    }
    EXPECT_EQ(delivered, 64 * size);
}

// Acceptance 7: a 5 GiB message (beyond 32 bits) completes with exact byte counts.
TEST_F(DataPlaneTest, FiveGibMessageCompletes)
{
    const uint64_t rate = 400'000'000'000;
    RoceNetwork net;
    HandFabric hand;
    const uint32_t a = hand.AddHost();
    const uint32_t b = hand.AddHost();
    hand.AddLink(a, b, rate, kDelay);
    hand.Install(net, kMtu);
    Completions done;
    done.Watch(net.GetNic(a));
    done.Watch(net.GetNic(b));
    const uint64_t size = 5ULL << 30;
    net.GetNic(a)->PostSend(net.Connect(a, b, 3), size, 5);
    Simulator::Run();
    ASSERT_EQ(done.sentBytes.size(), 1u);
    ASSERT_EQ(done.receivedBytes.size(), 1u);
    EXPECT_EQ(done.sentBytes[0], size);
    EXPECT_EQ(done.receivedBytes[0], size);
    EXPECT_EQ(net.GetNic(b)->GetCounters().deliveredBytes, size);
    EXPECT_EQ(net.GetNic(a)->GetCounters().dataBytesTx, size);
    const uint64_t packets = (size + kMtu - 1) / kMtu;
    const Time expected = Tx(size + packets * wire::kDataOverhead, rate) + kDelay;
    EXPECT_NEAR(
        done.received[0].GetSeconds(), expected.GetSeconds(), 0.005 * expected.GetSeconds());
}

// Acceptance 8: a paused priority does not block another priority on the same port.
TEST_F(DataPlaneTest, PausedPriorityDoesNotBlockOthers)
{
    Config::SetDefault("ns3::SharedBufferMmu::LosslessPriorities", UintegerValue(0x0A));
    RoceNetwork net;
    HandFabric hand;
    const uint32_t sw = hand.AddSwitch();
    const uint32_t src = hand.AddHost();
    const uint32_t dst = hand.AddHost();
    hand.AddLink(src, sw, kRate, kDelay);
    hand.AddLink(dst, sw, kRate, kDelay);
    hand.Install(net, kMtu);
    Completions done;
    done.Watch(net.GetNic(dst));

    // The receiver holds priority 3 of the switch port facing it paused for 200 us.
    Ptr<RocePort> dstPort = net.GetNic(dst)->GetPort(0);
    Simulator::Schedule(Time(0), &RocePort::SetPfcXoff, dstPort, 3, true);
    Simulator::Schedule(MicroSeconds(200), &RocePort::SetPfcXoff, dstPort, 3, false);

    const uint64_t size = 256 * 1024;
    net.GetNic(src)->PostSend(net.Connect(src, dst, 3), size, 3);
    net.GetNic(src)->PostSend(net.Connect(src, dst, 1), size, 1);
    Simulator::Run();

    ASSERT_EQ(done.received.size(), 2u);
    // Priority 1 is not held back: it finishes first, long before the pause ends.
    EXPECT_EQ(done.receivedTags[0], 1u);
    EXPECT_LT(done.received[0], MicroSeconds(100));
    EXPECT_GT(done.received[1], MicroSeconds(200));
    Ptr<RocePort> swPort = net.GetSwitch(sw)->GetPort(1);
    const auto counters = swPort->GetCounters();
    EXPECT_GE(counters.pausedTime[3], MicroSeconds(199));
    EXPECT_EQ(counters.pausedTime[1], Time(0));
}
