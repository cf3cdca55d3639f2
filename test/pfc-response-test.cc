/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// When a pause takes hold at its sender (the PFC response time), and what the PFC
// watchdog does with a stuck queue.

#include "hand-fabric.h"

#include "ns3/boolean.h"
#include "ns3/cc-setup.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/node.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-channel.h"
#include "ns3/roce-network.h"
#include "ns3/roce-port.h"
#include "ns3/roce-wire.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kRate = 100'000'000'000;
const Time kDelay = MicroSeconds(1);
constexpr uint32_t kFrame = 1000; // 80 ns at 100 Gb/s

/** An owner with frames of priority 3 always ready; it records when each one starts. */
class BusySender : public RocePortOwner
{
  public:
    bool
    DequeueFrame(RocePort& port, RoceFrame& frame) override
    {
        if (!port.CanSend(3))
        {
            return false;
        }
        frame.packet = Create<Packet>(kFrame);
        frame.wireBytes = kFrame;
        frame.priority = 3;
        starts.push_back(Simulator::Now());
        return true;
    }

    void
    ReceiveFrame(RocePort&, RoceFrame&&) override
    {
    }

    std::vector<Time> starts; //!< start of each frame
};

class PfcResponseTest : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

/** \return ceil(t / step) */
int64_t
StepsUpTo(Time t, Time step)
{
    return (t.GetPicoSeconds() + step.GetPicoSeconds() - 1) / step.GetPicoSeconds();
}

} // namespace

// A sender busy from time 0 starts a frame every s = 80 ns. A pause arriving at Ta acts at
// Ta + R: the frames starting in [Ta, Ta + R) still go, ceil((Ta + R)/s) - ceil(Ta/s) of
// them, and the priority counts as paused from Ta + R.
TEST_F(PfcResponseTest, PauseTakesHoldOneResponseTimeAfterItArrives)
{
    for (const Time response : {Time(0), NanoSeconds(300), NanoSeconds(500), MicroSeconds(1)})
    {
        Ptr<RocePort> ports[2];
        for (auto& p : ports)
        {
            p = CreateObject<RocePort>();
            p->SetAttribute("DataRate", DataRateValue(DataRate(kRate)));
            p->SetAttribute("PfcResponseTime", TimeValue(response));
            CreateObject<Node>()->AddDevice(p);
        }
        Ptr<RoceChannel> channel = CreateObject<RoceChannel>();
        channel->SetAttribute("Delay", TimeValue(kDelay));
        channel->Connect(ports[0], ports[1]);
        BusySender sender;
        BusySender idle;
        ports[0]->SetOwner(&sender, 0);
        ports[1]->SetOwner(&idle, 0);
        ASSERT_EQ(ports[0]->GetPfcResponseTime(), response);

        const Time sentAt = MicroSeconds(10) + NanoSeconds(7); // off the 80 ns grid
        const Time pfcTx = ports[1]->SerializationTime(wire::kPfcWireBytes);
        Simulator::Schedule(sentAt,
                            [&]
                            {
                                PfcHeader pfc;
                                pfc.SetQuanta(3, 65535); // 335 us: no expiry in the run
                                Ptr<Packet> p = Create<Packet>();
                                p->AddHeader(pfc);
                                channel->Transmit(
                                    PeekPointer(ports[1]), p, wire::kPfcWireBytes, 0, true, pfcTx);
                            });
        Simulator::Schedule(Time(0), &RocePort::NotifyWork, ports[0]);
        const Time end = MicroSeconds(20);
        Simulator::Stop(end);
        Simulator::Run();

        const Time arrival = sentAt + pfcTx + kDelay;
        const Time s = ports[0]->SerializationTime(kFrame);
        ASSERT_EQ(s, NanoSeconds(80));
        int64_t afterArrival = 0;
        for (const Time& t : sender.starts)
        {
            afterArrival += t >= arrival;
        }
        const int64_t expected = StepsUpTo(arrival + response, s) - StepsUpTo(arrival, s);
        EXPECT_EQ(afterArrival, expected) << response;
        EXPECT_EQ(afterArrival * kFrame,
                  (StepsUpTo(arrival + response, s) - StepsUpTo(arrival, s)) * kFrame);
        EXPECT_LT(sender.starts.back(), arrival + response) << response;
        EXPECT_EQ(ports[0]->GetCounters().pausedTime[3], end - arrival - response) << response;
        Simulator::Destroy();
    }
}

// The switch headroom budgets the upstream port's own response time: one attribute.
TEST_F(PfcResponseTest, HeadroomGrowsWithTheUpstreamResponseTime)
{
    uint64_t headroom[2];
    for (int i = 0; i < 2; ++i)
    {
        Config::SetDefault("ns3::RocePort::PfcResponseTime",
                           TimeValue(i == 0 ? NanoSeconds(500) : NanoSeconds(1500)));
        RoceNetwork net;
        HandFabric hand;
        const uint32_t sw = hand.AddSwitch();
        hand.AddLink(hand.AddHost(), sw, kRate, kDelay);
        hand.AddLink(hand.AddHost(), sw, kRate, kDelay);
        hand.Install(net, 4096);
        headroom[i] = net.GetSwitch(sw)->GetMmu()->GetHeadroomBytes(0);
        Simulator::Destroy();
    }
    // 1 us more at 100 Gb/s: 12,500 bytes more in flight after the pause.
    EXPECT_EQ(headroom[1] - headroom[0], 12'500u);
}

// A receiver's pause that never lifts strands a whole message at the switch. The
// watchdog, in drop mode, drops the stuck queue (every one of the message's 256
// packets), ignores pauses while it restores, and the sender's retransmission delivers.
TEST_F(PfcResponseTest, WatchdogDropModeFreesADeadlockedQueue)
{
    Config::SetDefault("ns3::RdmaNic::AckTimeout", UintegerValue(10)); // 4.2 ms
    CcSettings cc;
    cc.scheme = "none";
    RoceNetwork net;
    HandFabric hand;
    const uint32_t sw = hand.AddSwitch();
    const uint32_t a = hand.AddHost();
    const uint32_t b = hand.AddHost();
    hand.AddLink(a, sw, kRate, kDelay);
    const uint32_t toB = hand.AddLink(b, sw, kRate, kDelay).second;
    hand.Install(net, 4096);
    InstallCongestionControl(net, cc);
    Ptr<RocePort> switchPort = net.GetSwitch(sw)->GetPort(toB);
    Ptr<RocePort> bPort = net.GetNic(b)->GetPort(0);
    switchPort->SetAttribute("PauseExpires", BooleanValue(false)); // a storm: never lifts
    switchPort->SetAttribute("PfcWatchdogTimeout", TimeValue(MicroSeconds(200)));
    switchPort->SetAttribute("PfcWatchdogRestore", TimeValue(MicroSeconds(50)));
    switchPort->SetAttribute("PfcWatchdogAction", EnumValue(RocePort::WATCHDOG_DROP));

    // b pauses the switch before anything is sent and never resumes it.
    PfcHeader pfc;
    pfc.SetQuanta(3, 65535);
    Ptr<Packet> frame = Create<Packet>();
    frame->AddHeader(pfc);
    DynamicCast<RoceChannel>(bPort->GetChannel())
        ->Transmit(PeekPointer(bPort),
                   frame,
                   wire::kPfcWireBytes,
                   0,
                   true,
                   bPort->SerializationTime(wire::kPfcWireBytes));
    const uint64_t bytes = 1ULL << 20;
    net.GetNic(a)->PostSend(net.Connect(a, b, 3), bytes, 1);

    Time firedAt;
    uint64_t queuedBefore = 0;
    uint64_t queuedAfter = 1;
    switchPort->TraceConnectWithoutContext(
        "PfcWatchdog",
        Callback<void, uint8_t>(
            [&](uint8_t)
            {
                firedAt = Simulator::Now();
                queuedBefore = net.GetSwitch(sw)->GetQueueBytes(toB);
                Simulator::ScheduleNow([&]
                                       { queuedAfter = net.GetSwitch(sw)->GetQueueBytes(toB); });
            }));
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();

    const RocePort::Counters c = switchPort->GetCounters();
    EXPECT_EQ(c.watchdogTriggers, 1u);
    // Paused from its arrival plus the response time, broken 200 us later.
    const Time pausedAt =
        bPort->SerializationTime(wire::kPfcWireBytes) + kDelay + switchPort->GetPfcResponseTime();
    EXPECT_EQ(firedAt, pausedAt + MicroSeconds(200));
    EXPECT_GT(queuedBefore, bytes); // the whole message waited there, headers included
    EXPECT_EQ(queuedAfter, 0u);
    EXPECT_EQ(c.watchdogDrops, bytes / 4096);
    EXPECT_EQ(c.watchdogDroppedPayload, bytes);
    EXPECT_EQ(net.GetSwitch(sw)->GetMmu()->GetUsedBytes(), 0u);
    EXPECT_EQ(net.GetNic(b)->GetCounters().deliveredBytes, bytes);
    EXPECT_GE(net.GetNic(a)->GetCounters().timeouts, 1u);
}
