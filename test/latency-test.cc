/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Switch pipeline, NIC pipelines and ACK turnaround: one packet across a two-tier Clos
// arrives, and is acknowledged, at the closed-form time in both forwarding modes.

#include "hand-fabric.h"

#include "ns3/config.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/roce-header.h"
#include "ns3/roce-network.h"
#include "ns3/simulator.h"
#include "ns3/switch-pipeline.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint64_t kRate = 100'000'000'000;
constexpr uint32_t kMtu = 4096;
const Time kCable = NanoSeconds(700);
const Time kSwitch = NanoSeconds(310);
const Time kTx = NanoSeconds(230);
const Time kRx = NanoSeconds(170);
const Time kTurnaround = NanoSeconds(90);
constexpr uint32_t kCutBytes = 64;

/** \return the serialization of \p bytes at kRate, as the ports compute it */
Time
Wire(uint64_t bytes)
{
    return PicoSeconds(static_cast<int64_t>(bytes * 8 * 1'000'000'000'000ULL / kRate));
}

/** When one packet of \p payload bytes arrived at its receiver, and its ACK at the sender. */
struct OnePacket
{
    Time arrived;
    Time acknowledged;
    Time baseRtt;
};

class LatencyTest : public testing::Test
{
  protected:
    void
    SetUp() override
    {
        Config::SetDefault("ns3::SwitchPipeline::Latency", TimeValue(kSwitch));
        Config::SetDefault("ns3::SwitchPipeline::CutThroughBytes", UintegerValue(kCutBytes));
        Config::SetDefault("ns3::RdmaNic::TransmitLatency", TimeValue(kTx));
        Config::SetDefault("ns3::RdmaNic::ReceiveLatency", TimeValue(kRx));
        Config::SetDefault("ns3::RdmaNic::AckTurnaround", TimeValue(kTurnaround));
    }

    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }

    /**
     * Two leaves under two spines, one host on each leaf; a message of \p payload bytes
     * from one host to the other crosses leaf, spine and leaf.
     */
    OnePacket
    Send(SwitchPipeline::Mode mode, uint32_t payload)
    {
        Config::SetDefault("ns3::SwitchPipeline::Mode", EnumValue(mode));
        HandFabric hand;
        const uint32_t leaf0 = hand.AddSwitch();
        const uint32_t leaf1 = hand.AddSwitch();
        const uint32_t spine0 = hand.AddSwitch();
        const uint32_t spine1 = hand.AddSwitch();
        const uint32_t a = hand.AddHost();
        const uint32_t b = hand.AddHost();
        hand.AddLink(a, leaf0, kRate, kCable);
        hand.AddLink(b, leaf1, kRate, kCable);
        for (uint32_t spine : {spine0, spine1})
        {
            hand.AddLink(leaf0, spine, kRate, kCable);
            hand.AddLink(leaf1, spine, kRate, kCable);
        }
        RoceNetwork net;
        hand.Install(net, kMtu);
        OnePacket result;
        net.GetNic(b)->TraceConnectWithoutContext(
            "MessageReceived",
            Callback<void, uint32_t, uint32_t, uint64_t, uint64_t>(
                [&result](uint32_t, uint32_t, uint64_t, uint64_t)
                { result.arrived = Simulator::Now(); }));
        net.GetNic(a)->TraceConnectWithoutContext(
            "MessageSent",
            Callback<void, Ptr<RdmaQueuePair>, uint64_t, uint64_t, uint64_t, Time>(
                [&result](Ptr<RdmaQueuePair>, uint64_t, uint64_t, uint64_t, Time)
                { result.acknowledged = Simulator::Now(); }));
        Ptr<RdmaQueuePair> qp = net.Connect(a, b, 3);
        result.baseRtt = qp->GetBaseRtt();
        net.GetNic(a)->PostSend(qp, payload, 1);
        Simulator::Run();
        Simulator::Destroy();
        return result;
    }
};

/** \return the wire bytes of a data packet of \p payload bytes and of its ACK */
std::pair<uint32_t, uint32_t>
Frames(uint32_t payload)
{
    RoceHeader data;
    data.payload = payload;
    RoceHeader ack;
    ack.type = RoceHeader::ACK;
    return {data.GetWireBytes(), ack.GetWireBytes()};
}

} // namespace

// Store-and-forward: each of the three switches waits for the whole frame, so a frame
// pays its serialization on all four cables, then the switch's pipeline.
TEST_F(LatencyTest, StoreAndForwardOnePacketAcrossTwoTierClos)
{
    for (uint32_t payload : {1000u, kMtu})
    {
        const auto [data, ack] = Frames(payload);
        const OnePacket p = Send(SwitchPipeline::STORE_AND_FORWARD, payload);
        const Time arrival = kTx + (Wire(data) + kCable) * 4 + kSwitch * 3 + kRx;
        EXPECT_EQ(p.arrived, arrival) << payload;
        const Time ackWay = kTx + (Wire(ack) + kCable) * 4 + kSwitch * 3 + kRx;
        EXPECT_EQ(p.acknowledged, arrival + kTurnaround + ackWay) << payload;
        if (payload == kMtu)
        {
            // The base RTT congestion control sees is this round trip of a full packet.
            EXPECT_EQ(p.baseRtt, p.acknowledged);
        }
    }
}

// Cut-through: a switch forwards once the first 64 bytes are in, so only the last cable
// (into the NIC, which stores the frame) charges the whole serialization.
TEST_F(LatencyTest, CutThroughOnePacketAcrossTwoTierClos)
{
    for (uint32_t payload : {1000u, kMtu})
    {
        const auto [data, ack] = Frames(payload);
        const OnePacket p = Send(SwitchPipeline::CUT_THROUGH, payload);
        const Time header = Wire(data) * kCutBytes / data; // as the port scales it
        const Time arrival = kTx + (header + kCable + kSwitch) * 3 + Wire(data) + kCable + kRx;
        EXPECT_EQ(p.arrived, arrival) << payload;
        const Time ackHeader = Wire(ack) * kCutBytes / ack;
        const Time ackWay = kTx + (ackHeader + kCable + kSwitch) * 3 + Wire(ack) + kCable + kRx;
        EXPECT_EQ(p.acknowledged, arrival + kTurnaround + ackWay) << payload;
        // Cut-through saves three serializations less three header times each way.
        const OnePacket sf = Send(SwitchPipeline::STORE_AND_FORWARD, payload);
        EXPECT_EQ(sf.arrived - p.arrived, (Wire(data) - header) * 3) << payload;
        if (payload == kMtu)
        {
            EXPECT_EQ(p.baseRtt, p.acknowledged);
        }
    }
}

// A switch with a faster port forwards its slower ports' frames store-and-forward (a
// faster egress would finish a frame before its last bit arrived); the faster port
// itself cuts through.
TEST_F(LatencyTest, CutThroughFallsBackFromSlowToFastPorts)
{
    Config::SetDefault("ns3::SwitchPipeline::Mode", EnumValue(SwitchPipeline::CUT_THROUGH));
    HandFabric hand;
    const uint32_t sw = hand.AddSwitch();
    const uint32_t slow = hand.AddHost();
    const uint32_t fast = hand.AddHost();
    hand.AddLink(slow, sw, kRate, kCable);
    hand.AddLink(fast, sw, 4 * kRate, kCable);
    RoceNetwork net;
    hand.Install(net, kMtu);
    const auto ports = net.GetPorts(sw);
    ASSERT_EQ(ports.size(), 2u);
    EXPECT_EQ(ports[0]->GetCutThroughBytes(), 0u);
    EXPECT_EQ(ports[1]->GetCutThroughBytes(), kCutBytes);
    EXPECT_EQ(ports[0]->GetPipelineLatency(), kSwitch);
    EXPECT_EQ(ports[1]->GetPipelineLatency(), kSwitch);
}
