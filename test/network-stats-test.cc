/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Network-wide figures agree with the counters they sum.

#include "hand-fabric.h"

#include "ns3/config.h"
#include "ns3/network-stats.h"
#include "ns3/queue-monitor.h"
#include "ns3/roce-network.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(NetworkStats, SumsAnIncastsCounters)
{
    Config::SetDefault("ns3::SharedBufferMmu::BufferBytes", UintegerValue(4 << 20));
    RoceNetwork net;
    HandFabric hand;
    const uint32_t sw = hand.AddSwitch();
    const uint32_t dst = hand.AddHost();
    hand.AddLink(dst, sw, 100'000'000'000, MicroSeconds(1));
    std::vector<uint32_t> senders;
    for (int i = 0; i < 8; ++i)
    {
        senders.push_back(hand.AddHost());
        hand.AddLink(senders.back(), sw, 100'000'000'000, MicroSeconds(1));
    }
    hand.Install(net, 4096);
    QueueMonitor queues(net);
    for (uint32_t src : senders)
    {
        net.GetNic(src)->PostSend(net.Connect(src, dst, 3), 2 << 20, src);
    }
    Simulator::Run();
    const NetworkStats s = CollectNetworkStats(net, &queues);
    const auto& c = net.GetSwitch(sw)->GetCounters();
    uint64_t pauses = 0;
    for (const auto& port : net.GetPorts(sw))
    {
        pauses += port->GetCounters().pfcPauseTx;
    }
    EXPECT_GT(pauses, 0u);
    EXPECT_EQ(s.pfcPauseFrames, pauses); // only the switch pauses here
    EXPECT_GT(s.pfcPausedTime, Time(0));
    EXPECT_EQ(s.drops, 0u);
    EXPECT_EQ(s.timeouts, 0u);
    EXPECT_EQ(s.peakQueueBytes, c.peakQueueBytes);
    EXPECT_LE(s.peakBufferBytes, 4u << 20);
    // The receiver's port is the bottleneck: its mean queue is a large part of its peak.
    EXPECT_GT(s.meanQueueBytes, 0.3 * s.peakQueueBytes);
    EXPECT_LE(s.meanQueueBytes, double(s.peakQueueBytes));
    const auto json = s.ToJson();
    EXPECT_EQ(json["pfc_pause_frames"].get<uint64_t>(), pauses);
    EXPECT_EQ(json["peak_queue_bytes"].get<uint64_t>(), c.peakQueueBytes);
    Simulator::Destroy();
    Config::Reset();
}
