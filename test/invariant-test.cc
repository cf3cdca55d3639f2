/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The data plane keeps its books: conservation of payload, buffer accounting, PFC
// consistency and exactly-once delivery, checked during and after demanding runs.

#include "hand-fabric.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-installer.h"
#include "ns3/fabric-routing.h"
#include "ns3/invariant-checker.h"
#include "ns3/multi-dim-builder.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-channel.h"
#include "ns3/roce-network.h"
#include "ns3/roce-wire.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint64_t kRate = 100'000'000'000;
const Time kDelay = MicroSeconds(1);

class InvariantTest : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }

    /** N senders to one receiver through one switch; every sender posts two messages. */
    void
    RunIncast(uint32_t senders, uint64_t bytes, double loss = 0)
    {
        HandFabric hand;
        const uint32_t sw = hand.AddSwitch();
        const uint32_t dst = hand.AddHost();
        hand.AddLink(dst, sw, kRate, kDelay, loss);
        std::vector<uint32_t> hosts;
        for (uint32_t i = 0; i < senders; ++i)
        {
            hosts.push_back(hand.AddHost());
            hand.AddLink(hosts.back(), sw, kRate, kDelay, loss);
        }
        hand.Install(m_net, 4096);
        for (uint32_t src : hosts)
        {
            Ptr<RdmaQueuePair> qp = m_net.Connect(src, dst, 3);
            m_net.GetNic(src)->PostSend(qp, bytes, 1);
            m_net.GetNic(src)->PostSend(qp, bytes / 3 + 1, 2);
        }
        CheckWhileRunning();
    }

    /** Run to the end with periodic checks, then check the finished run. */
    void
    CheckWhileRunning()
    {
        InvariantChecker checker(m_net);
        checker.StartPeriodic(MicroSeconds(20));
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        for (const auto& v : checker.GetPeriodicViolations())
        {
            ADD_FAILURE() << "at " << Simulator::Now().As(Time::US) << ": " << v;
        }
        for (const auto& v : checker.CheckFinished())
        {
            ADD_FAILURE() << "at the end: " << v;
        }
    }

    RoceNetwork m_net;
};

} // namespace

TEST_F(InvariantTest, HoldThroughALosslessIncast)
{
    Config::SetDefault("ns3::SharedBufferMmu::BufferBytes", UintegerValue(4 << 20));
    RunIncast(16, 1 << 20);
    uint64_t pauses = 0;
    for (const auto& port : m_net.GetPorts(m_net.GetSwitches()[0]))
    {
        pauses += port->GetCounters().pfcPauseTx;
    }
    EXPECT_GT(pauses, 0u);
}

TEST_F(InvariantTest, HoldThroughDropsAndRetransmissions)
{
    // Timeouts of 4.2 ms (2^10 x 4.096 us), not NCCL's 4.3 s, to recover within the run.
    Config::SetDefault("ns3::RdmaNic::AckTimeout", UintegerValue(10));
    Config::SetDefault("ns3::SharedBufferMmu::PfcEnabled", BooleanValue(false));
    Config::SetDefault("ns3::SharedBufferMmu::BufferBytes", UintegerValue(2 << 20));
    RunIncast(16, 256 * 1024);
    EXPECT_GT(m_net.GetSwitch(m_net.GetSwitches()[0])->GetCounters().drops, 0u);
}

TEST_F(InvariantTest, HoldThroughRandomLoss)
{
    Config::SetDefault("ns3::RdmaNic::AckTimeout", UintegerValue(10));
    RunIncast(4, 1 << 20, 2e-3);
}

TEST_F(InvariantTest, HoldWithASlowReceiverPausingItsSwitch)
{
    Config::SetDefault("ns3::RdmaNic::RxProcessingRate", DataRateValue(DataRate("40Gbps")));
    Config::SetDefault("ns3::RdmaNic::PfcEnabled", BooleanValue(true));
    RunIncast(2, 1 << 20);
}

TEST_F(InvariantTest, HoldWhenNpusForwardOnARing)
{
    LinkSettings link;
    link.rateBps = kRate;
    link.delayPs = 1'000'000;
    const Fabric fabric = BuildMultiDim("ring", {DimensionSpec{DimensionTopology::Ring, 6, link}});
    const auto rankNode =
        InstallFabric(fabric, ComputeRouting(fabric, RoutingAlgorithm::ShortestPath), m_net, 4096);
    for (uint32_t a = 0; a < rankNode.size(); ++a)
    {
        const uint32_t b = (a + 3) % rankNode.size();
        m_net.GetNic(rankNode[a])->PostSend(m_net.Connect(rankNode[a], rankNode[b], 3), 1 << 20, a);
    }
    CheckWhileRunning();
    uint64_t forwarded = 0;
    for (uint32_t node : rankNode)
    {
        forwarded += m_net.GetNic(node)->GetCounters().forwardedFrames;
    }
    EXPECT_GT(forwarded, 0u);
}

// The checks can fail: a pause nobody holds, bytes the MMU charges to no queue, and
// payload on a cable that no NIC sent.
TEST_F(InvariantTest, ViolationsAreReported)
{
    HandFabric hand;
    const uint32_t sw = hand.AddSwitch();
    const uint32_t host = hand.AddHost();
    hand.AddLink(host, sw, kRate, kDelay);
    hand.Install(m_net, 4096);
    Ptr<RocePort> hostPort = m_net.GetNic(host)->GetPort(0);
    hostPort->SetAttribute("PauseExpires", BooleanValue(false));
    // A pause frame that the switch port never sent on its own (it holds no XOFF).
    PfcHeader pfc;
    pfc.SetQuanta(3, 100);
    Ptr<Packet> frame = Create<Packet>();
    frame->AddHeader(pfc);
    Ptr<RocePort> switchPort = m_net.GetSwitch(sw)->GetPort(0);
    DynamicCast<RoceChannel>(switchPort->GetChannel())
        ->Transmit(PeekPointer(switchPort), frame, wire::kPfcWireBytes, 0, true, NanoSeconds(7));
    m_net.GetSwitch(sw)->GetMmu()->Admit(0, 0, 3, 1000);
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();
    PfcHeader other;
    other.SetQuanta(5, 1);
    Ptr<Packet> stray = Create<Packet>();
    stray->AddHeader(other);
    DynamicCast<RoceChannel>(switchPort->GetChannel())
        ->Transmit(PeekPointer(switchPort), stray, wire::kPfcWireBytes, 500, true, NanoSeconds(7));
    Simulator::Stop(NanoSeconds(500)); // the stray frame is still on the cable
    Simulator::Run();

    InvariantChecker checker(m_net);
    const auto violations = checker.Check();
    ASSERT_EQ(violations.size(), 3u);
    EXPECT_NE(violations[0].find("payload not conserved: 0 B sent, 500 B accounted for"),
              std::string::npos)
        << violations[0];
    EXPECT_NE(violations[1].find("accounts 1000 B but queues 0 B"), std::string::npos)
        << violations[1];
    EXPECT_NE(violations[2].find("priority 3 paused since"), std::string::npos) << violations[2];
}
