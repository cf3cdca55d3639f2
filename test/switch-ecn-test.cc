/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ECN marking at switch ports: per-priority thresholds, marking at enqueue or dequeue,
// and the defaults of a switch nothing configures.

#include "hand-fabric.h"

#include "ns3/cc-setup.h"
#include "ns3/config.h"
#include "ns3/ecn-priority-thresholds.h"
#include "ns3/ecn-threshold-map.h"
#include "ns3/egress-marking.h"
#include "ns3/egress-queues.h"
#include "ns3/enum.h"
#include "ns3/input-error.h"
#include "ns3/roce-header.h"
#include "ns3/roce-network.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>

#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kRate = 100'000'000'000;
constexpr uint32_t kMtu = 4096;
const Time kDelay = MicroSeconds(1);

class SwitchEcnTest : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

/** An ECN-capable data frame of \p bytes on the wire, numbered by its sequence. */
QueuedFrame
DataFrame(uint32_t bytes, uint64_t number)
{
    QueuedFrame q;
    q.frame.header = MakeRoceHeader();
    q.frame.header->type = RoceHeader::DATA;
    q.frame.header->priority = 3;
    q.frame.header->seq = number;
    q.frame.header->Set(RoceHeader::ECT);
    q.frame.wireBytes = bytes;
    q.frame.priority = 3;
    q.flags = q.frame.header->flags;
    q.isData = true;
    return q;
}

/** A step at K: nothing marked at or below it, everything above. */
EcnThresholds
Step(uint64_t k)
{
    return EcnThresholds{k, k, 1.0};
}

} // namespace

// n frames of b bytes arrive back to back, then drain. At enqueue, frame i is marked iff
// i b > K: frames floor(K/b) + 1 .. n. At dequeue, frame i is marked iff the (n - i) b
// bytes behind it exceed K: frames 1 .. n - floor(K/b) - 1.
TEST_F(SwitchEcnTest, EnqueueMarksThePacketThatCrossesTheThreshold)
{
    const uint32_t n = 50;
    const uint32_t b = 1000;
    const EcnThresholds ecn = Step(10'500);
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    Ptr<RocePort> port = CreateObject<RocePort>();

    EgressQueues atEnqueue;
    atEnqueue.Configure(0, 9216);
    std::vector<uint64_t> markedOnArrival;
    for (uint32_t i = 1; i <= n; ++i)
    {
        QueuedFrame q = DataFrame(b, i);
        if (MarkArrivingFrame(q, ecn, *rng, atEnqueue.GetBytes(3) + b))
        {
            markedOnArrival.push_back(i);
        }
        atEnqueue.Enqueue(std::move(q));
    }
    ASSERT_EQ(markedOnArrival.size(), n - 10);
    EXPECT_EQ(markedOnArrival.front(), 11u);
    EXPECT_EQ(markedOnArrival.back(), n);
    // The mark travels with the frame: the drained frames carry CE from 11 on.
    QueuedFrame out;
    for (uint32_t i = 1; i <= n; ++i)
    {
        ASSERT_TRUE(atEnqueue.Dequeue(*port, out));
        EXPECT_EQ(out.frame.header->Has(RoceHeader::CE), i >= 11) << i;
    }

    EgressQueues atDequeue;
    atDequeue.Configure(0, 9216);
    for (uint32_t i = 1; i <= n; ++i)
    {
        atDequeue.Enqueue(DataFrame(b, i));
    }
    std::vector<uint64_t> markedOnDeparture;
    while (atDequeue.Dequeue(*port, out))
    {
        if (EditDepartingFrame(out, *port, &ecn, *rng, atDequeue.GetBytes(3), 0).marked)
        {
            markedOnDeparture.push_back(out.frame.header->seq);
        }
    }
    ASSERT_EQ(markedOnDeparture.size(), n - 10 - 1);
    EXPECT_EQ(markedOnDeparture.front(), 1u);
    EXPECT_EQ(markedOnDeparture.back(), n - 11);
}

TEST_F(SwitchEcnTest, PriorityThresholdsParseWithUnitsAndRefuseBadEntries)
{
    const EcnPriorityThresholds t =
        ParseEcnPriorityThresholds("3:100KB/400KB/0.2, 1:20KiB/80KiB/1", "test");
    ASSERT_TRUE(t[3].has_value());
    EXPECT_EQ(t[3]->kminBytes, 100'000u);
    EXPECT_EQ(t[3]->kmaxBytes, 400'000u);
    EXPECT_DOUBLE_EQ(t[3]->pmax, 0.2);
    ASSERT_TRUE(t[1].has_value());
    EXPECT_EQ(t[1]->kmaxBytes, 80u * 1024);
    EXPECT_FALSE(t[0].has_value());
    EXPECT_FALSE(ParseEcnPriorityThresholds("", "test")[3].has_value());
    for (const std::string bad : {"8:1KB/2KB/0.1",
                                  "3:2KB/1KB/0.1",
                                  "3:1KB/2KB/1.5",
                                  "3:1KB/2KB",
                                  "3:1XB/2KB/0.1",
                                  "3:1KB/2KB/0.1,3:1KB/2KB/0.1"})
    {
        EXPECT_THROW(ParseEcnPriorityThresholds(bad, "test"), InputError) << bad;
    }
    try
    {
        ParseEcnPriorityThresholds("3:1KB/2KB/0.1,9:1KB/2KB/0.1", "ns3::RoceSwitch::X");
        FAIL();
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find("ns3::RoceSwitch::X: entry 2 '9:1KB/2KB/0.1': "
                                             "priority 9 is not 0..7"),
                  std::string::npos)
            << e.what();
    }
}

namespace
{

/** Two line-rate senders on priority 3 into one 100 Gb/s port: the marks there. */
uint64_t
MarksWithPriorityThresholds(const std::string& priorities, EcnMarkPoint point)
{
    Config::SetDefault("ns3::RoceSwitch::EcnPriorityThresholds", StringValue(priorities));
    Config::SetDefault("ns3::RoceSwitch::EcnMarkPoint", EnumValue(point));
    CcSettings cc;
    cc.scheme = "none";
    cc.ecnMap = "100Gbps:1GB/1GB/1"; // the ports' own thresholds never mark
    RoceNetwork net;
    HandFabric hand;
    const uint32_t sw = hand.AddSwitch();
    const uint32_t receiver = hand.AddHost();
    hand.AddLink(receiver, sw, kRate, kDelay);
    std::vector<uint32_t> senders = {hand.AddHost(), hand.AddHost()};
    for (uint32_t s : senders)
    {
        hand.AddLink(s, sw, kRate, kDelay);
    }
    hand.Install(net, kMtu);
    InstallCongestionControl(net, cc);
    for (uint32_t s : senders)
    {
        net.GetNic(s)->PostSend(net.Connect(s, receiver, 3), 1 << 20, s);
    }
    Simulator::Run();
    const uint64_t marks = net.GetSwitch(sw)->GetCounters().ecnMarks;
    Simulator::Destroy();
    return marks;
}

} // namespace

TEST_F(SwitchEcnTest, MarksHappenAtTheThresholdOfThePacketsPriority)
{
    // Priority 3 has its own 10 KB step: the queue of hundreds of KB is marked.
    EXPECT_GT(MarksWithPriorityThresholds("3:10KB/10KB/1", MARK_AT_DEQUEUE), 100u);
    EXPECT_GT(MarksWithPriorityThresholds("3:10KB/10KB/1", MARK_AT_ENQUEUE), 100u);
    // Another priority's thresholds leave priority 3 to its port's, which never mark.
    EXPECT_EQ(MarksWithPriorityThresholds("0:10KB/10KB/1", MARK_AT_DEQUEUE), 0u);
    EXPECT_EQ(MarksWithPriorityThresholds("", MARK_AT_ENQUEUE), 0u);
}

TEST_F(SwitchEcnTest, BareSwitchDefaultsAreTheEcnMapsDefaults)
{
    RoceNetwork net;
    HandFabric hand;
    const uint32_t sw = hand.AddSwitch();
    hand.AddLink(hand.AddHost(), sw, kRate, kDelay);
    hand.AddLink(hand.AddHost(), sw, 25'000'000'000, kDelay);
    hand.Install(net, kMtu); // no congestion control installed: no map applied
    const EcnThresholdMap map = EcnThresholdMap::PeerDefault();
    Ptr<RoceSwitch> s = net.GetSwitch(sw);
    for (uint32_t port = 0; port < s->GetNPorts(); ++port)
    {
        const EcnMapEntry entry = map.Lookup(s->GetPort(port)->GetRateBps());
        EXPECT_EQ(s->GetEcnThresholds(port).kminBytes, entry.kminBytes) << port;
        EXPECT_EQ(s->GetEcnThresholds(port).kmaxBytes, entry.kmaxBytes) << port;
        EXPECT_DOUBLE_EQ(s->GetEcnThresholds(port).pmax, entry.pmax) << port;
    }
    EXPECT_EQ(s->GetEcnThresholds(0).kminBytes, 400'000u); // 100 Gb/s
    EXPECT_EQ(s->GetEcnThresholds(1).kminBytes, 100'000u); // 25 Gb/s
}

TEST_F(SwitchEcnTest, BadPriorityThresholdsAreAnInputErrorAtInstall)
{
    Config::SetDefault("ns3::RoceSwitch::EcnPriorityThresholds", StringValue("3:10KB/1KB/1"));
    RoceNetwork net;
    HandFabric hand;
    const uint32_t sw = hand.AddSwitch();
    hand.AddLink(hand.AddHost(), sw, kRate, kDelay);
    hand.AddLink(hand.AddHost(), sw, kRate, kDelay);
    try
    {
        hand.Install(net, kMtu);
        FAIL() << "Kmin above Kmax was accepted";
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find("ns3::RoceSwitch::EcnPriorityThresholds: entry 1 "
                                             "'3:10KB/1KB/1': Kmin is above Kmax"),
                  std::string::npos)
            << e.what();
    }
}
