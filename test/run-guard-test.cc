/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Runs that cannot finish end early with a report: PFC deadlocks and stalls.

#include "hand-fabric.h"

#include "ns3/config.h"
#include "ns3/roce-network.h"
#include "ns3/run-guard.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint64_t kRate = 100'000'000'000;
const Time kDelay = MicroSeconds(1);

class RunGuardTest : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

} // namespace

// A routing loop between two switches fills both buffers; PFC then holds each
// switch's port toward the other paused forever: a cyclic buffer dependency.
TEST_F(RunGuardTest, RoutingLoopDeadlockIsReported)
{
    Config::SetDefault("ns3::SharedBufferMmu::BufferBytes", UintegerValue(2 << 20));
    RoceNetwork net;
    HandFabric hand;
    const uint32_t h0 = hand.AddHost();
    const uint32_t s0 = hand.AddSwitch();
    const uint32_t s1 = hand.AddSwitch();
    const uint32_t h1 = hand.AddHost();
    hand.AddLink(h0, s0, kRate, kDelay);
    const auto [s0ToS1, s1ToS0] = hand.AddLink(s0, s1, kRate, kDelay);
    hand.AddLink(s1, h1, kRate, kDelay);
    hand.Install(net, 4096);
    Ptr<RdmaQueuePair> qp = net.Connect(h0, h1, 3);
    net.GetSwitch(s1)->SetRoute(h1, {s1ToS0}); // misconfigured: back toward s0, which sends to s1
    net.GetNic(h0)->PostSend(qp, 64ULL << 20, 1);

    RunGuard guard(net, MilliSeconds(20), MilliSeconds(2));
    guard.Start();
    Simulator::Stop(Seconds(1));
    Simulator::Run();

    EXPECT_EQ(guard.GetVerdict(), RunGuard::Verdict::PFC_DEADLOCK) << guard.GetReport();
    const std::string& report = guard.GetReport();
    EXPECT_NE(report.find("switch " + std::to_string(s0) + " port " + std::to_string(s0ToS1)),
              std::string::npos)
        << report;
    EXPECT_NE(report.find("switch " + std::to_string(s1) + " port " + std::to_string(s1ToS0)),
              std::string::npos)
        << report;
    EXPECT_NE(report.find("priority 3"), std::string::npos) << report;
    // Stopped soon after the threshold, not at the time limit.
    EXPECT_LT(Simulator::Now(), MilliSeconds(50));
}

// A dead link: every frame is lost, retransmissions never help, the run stops with the
// stuck queue pair named.
TEST_F(RunGuardTest, StallNamesTheStuckQueuePair)
{
    RoceNetwork net;
    HandFabric hand;
    const uint32_t a = hand.AddHost();
    const uint32_t sw = hand.AddSwitch();
    const uint32_t b = hand.AddHost();
    hand.AddLink(a, sw, kRate, kDelay);
    hand.AddLink(sw, b, kRate, kDelay, 1.0);
    hand.Install(net, 4096);
    net.GetNic(a)->PostSend(net.Connect(a, b, 3), 1 << 20, 1);

    RunGuard guard(net, MilliSeconds(10), MilliSeconds(10));
    guard.Start();
    Simulator::Stop(Seconds(10));
    Simulator::Run();

    EXPECT_EQ(guard.GetVerdict(), RunGuard::Verdict::STALL);
    EXPECT_NE(guard.GetReport().find("node " + std::to_string(a) + " QP 0 -> node " +
                                     std::to_string(b) + ": 0 of 1048576 bytes acknowledged"),
              std::string::npos)
        << guard.GetReport();
    EXPECT_LT(Simulator::Now(), MilliSeconds(20));
}

// A run that finishes is left alone, and the guard does not keep it alive.
TEST_F(RunGuardTest, HealthyRunFinishesUntouched)
{
    RoceNetwork net;
    HandFabric hand;
    const uint32_t sw = hand.AddSwitch();
    const uint32_t dst = hand.AddHost();
    hand.AddLink(dst, sw, kRate, kDelay);
    std::vector<uint32_t> senders;
    for (int i = 0; i < 8; ++i)
    {
        senders.push_back(hand.AddHost());
        hand.AddLink(senders.back(), sw, kRate, kDelay);
    }
    hand.Install(net, 4096);
    for (uint32_t src : senders)
    {
        net.GetNic(src)->PostSend(net.Connect(src, dst, 3), 1 << 20, src);
    }
    RunGuard guard(net, MicroSeconds(100), MicroSeconds(100));
    guard.Start();
    Simulator::Run(); // no stop time: ends when the traffic and the guard are done
    EXPECT_EQ(guard.GetVerdict(), RunGuard::Verdict::NONE);
    EXPECT_EQ(net.GetNic(dst)->GetCounters().deliveredBytes, 8u << 20);
    EXPECT_LT(Simulator::Now(), MilliSeconds(2));
}
