/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Time series of switch queues and pauses.

#include "hand-fabric.h"

#include "ns3/config.h"
#include "ns3/network-sampler.h"
#include "ns3/roce-network.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace ns3;

TEST(NetworkSampler, TracksTheIncastQueueAndStopsWithTheRun)
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
    for (uint32_t src : senders)
    {
        net.GetNic(src)->PostSend(net.Connect(src, dst, 3), 1 << 20, src);
    }
    Time lastDelivery;
    net.GetNic(dst)->TraceConnectWithoutContext(
        "MessageReceived",
        Callback<void, uint32_t, uint32_t, uint64_t, uint64_t>(
            [&lastDelivery](uint32_t, uint32_t, uint64_t, uint64_t)
            { lastDelivery = Simulator::Now(); }));
    NetworkSampler sampler(net, MicroSeconds(10));
    sampler.Start();
    Simulator::Run();
    const Time end = Simulator::Now();
    Simulator::Destroy();
    Config::Reset();

    const auto& samples = sampler.GetSamples();
    ASSERT_GT(samples.size(), 10u);
    // 8 MiB through one 100 Gb/s port: the traffic ends near 8 MiB x 4178/4096 / 100 Gb/s;
    // sampling stops with the last event (the senders' idle retransmission timers).
    EXPECT_NEAR(lastDelivery.GetSeconds(), 8.0 * (1 << 20) * 8 * 4178 / 4096 / 1e11, 10e-6);
    EXPECT_LE(samples.back().time, end);
    EXPECT_GE(samples.back().time, end - MicroSeconds(10));
    uint64_t peak = 0;
    for (const auto& s : samples)
    {
        EXPECT_EQ(s.node, sw);
        EXPECT_LE(s.longestQueue, s.queuedBytes);
        peak = std::max(peak, s.queuedBytes);
    }
    // Seven senders' worth of line rate piles up at the one output: megabytes of queue.
    EXPECT_GT(peak, 1u << 20);
    EXPECT_EQ(samples.front().queuedBytes, 0u);
    EXPECT_EQ(samples.back().queuedBytes, 0u);
    EXPECT_GE(samples.back().pauseFrames, samples.front().pauseFrames);

    const std::string path = testing::TempDir() + "sampler.csv";
    sampler.WriteCsv(path);
    std::ifstream in(path);
    std::string header;
    std::getline(in, header);
    EXPECT_EQ(header, "time_ns,switch,queued_bytes,longest_queue_bytes,pause_frames,name,role");
    size_t rows = 0;
    const FabricNode& node = net.GetFabric().GetNode(sw);
    ASSERT_FALSE(node.name.empty());
    for (std::string line; std::getline(in, line);)
    {
        // Each row ends with the switch's fabric name and role.
        EXPECT_EQ(line.substr(line.size() - node.name.size() - node.role.size() - 1),
                  node.name + "," + node.role);
        ++rows;
    }
    EXPECT_EQ(rows, samples.size());
}
