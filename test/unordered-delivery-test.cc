/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Unordered reliable delivery (UEC's RUD): the receiver's message tracking on its own;
// on one lossy link, messages of one queue pair complete in the order their last bytes
// arrive, where selective repeat completes them in the order they were posted; on
// fat-tree-k4 with per-packet spraying it keeps the line rate and delivers every byte
// exactly once.

#include "hand-fabric.h"
#include "latency-premise.h"

#include "ns3/config.h"
#include "ns3/load-balancer.h"
#include "ns3/nstime.h"
#include "ns3/rdma-nic.h"
#include "ns3/roce-network.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/traffic-scenario.h"
#include "ns3/unordered-messages.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const std::string kSource = MLFABRIC_SOURCE_DIR;

/** Message tags in the order the receiver and the sender completed them. */
struct Completions
{
    std::vector<uint64_t> received;     //!< MessageReceived at the receiver
    std::vector<uint64_t> acknowledged; //!< MessageSent at the sender
    uint64_t deliveredBytes{0};         //!< the receiver's deliveredBytes
    uint64_t lostFrames{0};             //!< frames lost on the two links
};

/**
 * \p messages messages of 16 KiB on one queue pair across a switch whose links lose
 * 1 % of frames, under \p transport.
 */
Completions
RunLossyMessages(const std::string& transport, uint32_t messages)
{
    Config::SetDefault("ns3::RdmaNic::Transport", StringValue(transport));
    Config::SetDefault("ns3::RdmaNic::RetransmitTimeout", TimeValue(MicroSeconds(50)));
    RoceNetwork net;
    HandFabric hand;
    const uint32_t sw = hand.AddSwitch();
    const uint32_t a = hand.AddHost();
    const uint32_t b = hand.AddHost();
    hand.AddLink(a, sw, 100'000'000'000, MicroSeconds(1), 0.01);
    hand.AddLink(b, sw, 100'000'000'000, MicroSeconds(1), 0.01);
    hand.Install(net, 4096);
    Completions c;
    net.GetNic(b)->TraceConnectWithoutContext(
        "MessageReceived",
        Callback<void, uint32_t, uint32_t, uint64_t, uint64_t>(
            [&c](uint32_t, uint32_t, uint64_t tag, uint64_t) { c.received.push_back(tag); }));
    net.GetNic(a)->TraceConnectWithoutContext(
        "MessageSent",
        Callback<void, Ptr<RdmaQueuePair>, uint64_t, uint64_t, uint64_t, Time>(
            [&c](Ptr<RdmaQueuePair>, uint64_t, uint64_t tag, uint64_t, Time)
            { c.acknowledged.push_back(tag); }));
    Ptr<RdmaQueuePair> qp = net.Connect(a, b, 3);
    for (uint32_t m = 0; m < messages; ++m)
    {
        net.GetNic(a)->PostSend(qp, 16 * 1024, m);
    }
    Simulator::Stop(MilliSeconds(100));
    Simulator::Run();
    c.deliveredBytes = net.GetNic(b)->GetCounters().deliveredBytes;
    EXPECT_EQ(qp->GetMessagesAcknowledged(), messages);
    Simulator::Destroy();
    Config::Reset();
    return c;
}

/** \return true if \p tags holds 0 .. n-1 once each */
bool
EachOnce(std::vector<uint64_t> tags, uint32_t n)
{
    std::sort(tags.begin(), tags.end());
    for (uint32_t i = 0; i < n; ++i)
    {
        if (tags.size() != n || tags[i] != i)
        {
            return false;
        }
    }
    return true;
}

} // namespace

TEST(UnorderedMessagesTest, CompletesAMessageWhenItsLastMissingByteArrives)
{
    UnorderedMessages m;
    UnorderedMessages::Completed done;
    // Message A is [0, 3000), B [3000, 5000); packets of 1000 bytes.
    EXPECT_FALSE(m.Arrive(0, 1000, 1000, false, 1, done));
    EXPECT_FALSE(m.Arrive(3000, 1000, 4000, false, 2, done));
    // B is whole while A still misses bytes: B completes first.
    ASSERT_TRUE(m.Arrive(3000, 1000, 5000, true, 2, done));
    EXPECT_EQ(done.begin, 3000u);
    EXPECT_EQ(done.end, 5000u);
    EXPECT_EQ(done.tag, 2u);
    EXPECT_FALSE(m.Arrive(0, 1000, 3000, true, 1, done)); // A's last; 1000..1999 missing
    EXPECT_EQ(m.GetPartial(), 1u);
    ASSERT_TRUE(m.Arrive(0, 1000, 2000, false, 1, done));
    EXPECT_EQ(done.begin, 0u);
    EXPECT_EQ(done.end, 3000u);
    EXPECT_EQ(done.tag, 1u);
    EXPECT_EQ(m.GetPartial(), 0u);
    // A copy of a complete message's bytes completes nothing again.
    EXPECT_FALSE(m.Arrive(3000, 0, 5000, true, 2, done));
    EXPECT_EQ(m.GetPartial(), 0u);
}

TEST(UnorderedDeliveryTest, MessagesCompleteAsTheirBytesArriveNotAsPosted)
{
    const uint32_t n = 100;
    const Completions sr = RunLossyMessages("SelectiveRepeat", n);
    const Completions rud = RunLossyMessages("Unordered", n);
    for (const auto* c : {&sr, &rud})
    {
        EXPECT_TRUE(EachOnce(c->received, n));
        EXPECT_TRUE(EachOnce(c->acknowledged, n));
        EXPECT_EQ(c->deliveredBytes, n * 16 * 1024ULL);
    }
    // Selective repeat hands messages over in the order they were posted; unordered
    // delivery as each is whole, so a message behind a lost packet comes later.
    EXPECT_TRUE(std::is_sorted(sr.received.begin(), sr.received.end()));
    EXPECT_TRUE(std::is_sorted(sr.acknowledged.begin(), sr.acknowledged.end()));
    EXPECT_FALSE(std::is_sorted(rud.received.begin(), rud.received.end()));
    EXPECT_FALSE(std::is_sorted(rud.acknowledged.begin(), rud.acknowledged.end()));
}

TEST(UnorderedDeliveryTest, KeepsLineRateUnderSprayingAndDeliversEveryByteOnce)
{
    WithoutSwitchAndNicLatency();
    Config::SetDefault("ns3::RoceSwitch::LoadBalancer", TypeIdValue(SprayBalancer::GetTypeId()));
    Config::SetDefault("ns3::SprayBalancer::Order", StringValue("RoundRobin"));
    Config::SetDefault("ns3::RdmaNic::Transport", StringValue("Unordered"));
    Config::SetDefault("ns3::RdmaNic::RetransmitTimeout", TimeValue(MicroSeconds(200)));
    TrafficConfig config;
    config.fabricPath = kSource + "/fabrics/fat-tree-k4.yaml";
    config.pattern = TrafficPattern::PERMUTATION;
    config.messageBytes = 512 * 1024;
    config.stopTime = MilliSeconds(100);
    const TrafficResult r = RunTraffic(config);
    Simulator::Destroy();
    Config::Reset();
    ASSERT_EQ(r.completedFlows, r.flows.size());
    EXPECT_EQ(r.bytesDelivered, r.bytesExpected);
    for (const auto& f : r.flows)
    {
        EXPECT_EQ(f.timesReceived, 1u) << f.srcRank << " -> " << f.dstRank;
    }
    // As for selective repeat (selective-repeat-test.cc): the busiest host link's bytes
    // at line rate against the tail less the unloaded latency between pods.
    const double latency = 6e-6 + 5 * 4178 * 8 / 100e9;
    EXPECT_GE(r.idealCompletionPs * 1e-12 / (r.completion.GetSeconds() - latency), 0.95);
    // Nothing is lost on this fabric: whatever was resent was taken for lost while late,
    // and arrived twice.
    EXPECT_EQ(r.drops + r.lostFrames, 0u);
    EXPECT_EQ(r.duplicateBytes, r.retransmittedBytes);
}
