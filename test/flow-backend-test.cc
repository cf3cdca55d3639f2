/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The flow-level backend against closed forms: one flow is its wire bytes (MTU packets
// with 82 bytes of RoCEv2 headers each) over the line rate, plus propagation, the
// default switch and NIC pipelines and one packet's store-and-forward per further hop; flows on one
// bottleneck share it equally; max-min fairness on two bottlenecks; bytes are conserved through
// starts and stops; re-solving only the touched component gives the rates of a full re-solve;
// the starts and stops of one instant share one re-solve.
#include "ns3/boolean.h"
#include "ns3/callback.h"
#include "ns3/fabric.h"
#include "ns3/flow-backend.h"
#include "ns3/input-error.h"
#include "ns3/max-min-solver.h"
#include "ns3/shortest-path-routing.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kGbps = 1'000'000'000ULL;
constexpr uint64_t kMiB = 1 << 20;
/** Wire bytes of 1 MiB: 256 packets of 4096 + 82. */
constexpr int64_t kMiBWire = 256 * 4178;
/** The default pipelines one way through a switch: NIC transmit, switch, NIC receive. */
constexpr int64_t kPipelinesPs = 400'000 + 300'000 + 400'000;

/** A star: \p hosts NPUs on one switch, 100 Gb/s and 1 us per link unless given. */
Fabric
Star(uint32_t hosts, const std::map<uint32_t, uint64_t>& rates = {})
{
    Fabric f("star");
    const uint32_t sw = f.AddSwitch("sw", "leaf", 1);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        const uint32_t n = f.AddNpu();
        LinkSettings s;
        s.rateBps = rates.count(h) ? rates.at(h) : 100 * kGbps;
        s.delayPs = 1'000'000;
        f.AddLink(n, sw, s);
    }
    f.SetNpuForwarding(false);
    return f;
}

Ptr<FlowBackend>
Backend(const Fabric& fabric, bool incremental = true, bool qpPerMessage = false)
{
    auto b = CreateObject<FlowBackend>();
    b->SetAttribute("Incremental", BooleanValue(incremental));
    b->SetAttribute("QpPerMessage", BooleanValue(qpPerMessage));
    b->SetFabric(fabric, ComputeShortestPathRouting(fabric));
    return b;
}

/** Arrival and sent times of every message, ps, by tag. */
struct Times
{
    std::map<uint64_t, int64_t> arrived;
    std::map<uint64_t, int64_t> sent;
};

void
Post(Ptr<FlowBackend> b, Times& t, uint32_t src, uint32_t dst, uint64_t bytes, uint64_t tag)
{
    b->Send(
        {src, dst, bytes, tag},
        [&t](const NetworkBackend::Message& m)
        { t.sent[m.tag] = Simulator::Now().GetPicoSeconds(); },
        [&t](const NetworkBackend::Message& m)
        { t.arrived[m.tag] = Simulator::Now().GetPicoSeconds(); });
}

/** Resolved trace sink: the flows of each re-solve, in \p sizes. */
void
RecordResolve(std::vector<uint32_t>* sizes, uint32_t flows)
{
    sizes->push_back(flows);
}

} // namespace

TEST(FlowBackend, OneFlowIsWireBytesOverRatePlusLatency)
{
    auto b = Backend(Star(2));
    Times t;
    Post(b, t, 0, 1, kMiB, 7);
    Simulator::Run();
    // 1 MiB as 256 packets of 4178 wire bytes at 80 ps a byte, two 1 us links, the last
    // packet stored by the receiving NIC, and the pipelines.
    const int64_t arrival = kMiBWire * 80 + 2'000'000 + 4178 * 80 + kPipelinesPs;
    EXPECT_EQ(t.arrived.at(7), arrival);
    // Its ACK (86 wire bytes) back over both links: the switch cuts through after 64.
    EXPECT_EQ(t.sent.at(7), arrival + 64 * 80 + 86 * 80 + 2'000'000 + kPipelinesPs);
    EXPECT_EQ(b->GetDeliveredBytes(), kMiB);
    Simulator::Destroy();
}

TEST(FlowBackend, ShortLastPacketPaysItsOwnHeaders)
{
    auto b = Backend(Star(2));
    Times t;
    Post(b, t, 0, 1, kMiB + 100, 1);
    Simulator::Run();
    EXPECT_EQ(t.arrived.at(1), (kMiBWire + 182) * 80 + 2'000'000 + 182 * 80 + kPipelinesPs);
    EXPECT_DOUBLE_EQ(b->GetWireBytesSent(), kMiBWire + 182.0);
    Simulator::Destroy();
}

TEST(FlowBackend, IncastSharesTheBottleneckEqually)
{
    auto b = Backend(Star(5));
    Times t;
    for (uint32_t s = 1; s <= 4; ++s)
    {
        Post(b, t, s, 0, kMiB, s);
    }
    Simulator::Stop(NanoSeconds(1));
    Simulator::Run();
    for (uint32_t qp = 0; qp < 4; ++qp)
    {
        EXPECT_DOUBLE_EQ(b->GetAllocator().GetRate(qp), 25e9);
    }
    Simulator::Run();
    for (uint32_t s = 1; s <= 4; ++s)
    {
        EXPECT_EQ(t.arrived.at(s), 4 * kMiBWire * 80 + 2'000'000 + 4178 * 80 + kPipelinesPs);
    }
    Simulator::Destroy();
}

TEST(FlowBackend, StartsAndStopsOfOneInstantShareOneResolve)
{
    // Four flows start together and, with equal shares, drain at the same picosecond:
    // one solve of 4 rates for the four starts; the four stops leave no flow to solve.
    // The trace reports both instants, 4 flows each (the stopped ones at rate 0).
    auto b = Backend(Star(5));
    Times t;
    std::vector<uint32_t> resolves;
    b->TraceConnectWithoutContext("Resolved", MakeBoundCallback(&RecordResolve, &resolves));
    for (uint32_t s = 1; s <= 4; ++s)
    {
        Post(b, t, s, 0, kMiB, s);
    }
    Simulator::Run();
    EXPECT_EQ(b->GetAllocator().GetSolveCount(), 1U);
    EXPECT_EQ(b->GetAllocator().GetSolvedFlowCount(), 4U);
    EXPECT_EQ(resolves, (std::vector<uint32_t>{4, 4}));
    EXPECT_EQ(b->GetDeliveredBytes(), 4 * kMiB);
    Simulator::Destroy();
}

TEST(FlowBackend, QueuePairStoppedAndRestartedAtOneInstantSendsAgain)
{
    // The second message is posted at the picosecond the first has left, after the
    // drain: the queue pair stops and starts again at one instant, with the same rate.
    auto b = Backend(Star(2));
    Times t;
    Post(b, t, 0, 1, kMiB, 1);
    const int64_t drained = kMiBWire * 80;
    Simulator::Schedule(
        PicoSeconds(1),
        [&]()
        { Simulator::Schedule(PicoSeconds(drained - 1), [&]() { Post(b, t, 0, 1, kMiB, 2); }); });
    Simulator::Run();
    const int64_t fixed = 2'000'000 + 4178 * 80 + kPipelinesPs;
    EXPECT_EQ(t.arrived.at(1), drained + fixed);
    EXPECT_EQ(t.arrived.at(2), 2 * drained + fixed);
    Simulator::Destroy();
}

TEST(FlowBackend, MaxMinOnTwoBottlenecks)
{
    // Host 1's uplink is 60 Gb/s: flows 1->2 and 1->3 share it at 30 each; flow 0->2
    // takes what is left of host 2's downlink, 70.
    auto b = Backend(Star(4, {{1, 60 * kGbps}}));
    Times t;
    Post(b, t, 0, 2, 8 * kMiB, 0);
    Post(b, t, 1, 2, 8 * kMiB, 1);
    Post(b, t, 1, 3, 8 * kMiB, 2);
    Simulator::Stop(NanoSeconds(1));
    Simulator::Run();
    EXPECT_NEAR(b->GetAllocator().GetRate(0), 70e9, 1);
    EXPECT_NEAR(b->GetAllocator().GetRate(1), 30e9, 1);
    EXPECT_NEAR(b->GetAllocator().GetRate(2), 30e9, 1);
    Simulator::Run();
    Simulator::Destroy();
}

TEST(MaxMinSolver, TwoBottlenecksAndWeights)
{
    MaxMinSolver solver({10, 4, 12});
    const std::vector<FlowLinkUse> f0{{0, 1}};
    const std::vector<FlowLinkUse> f1{{0, 1}, {1, 1}};
    const std::vector<FlowLinkUse> f2{{1, 1}};
    std::vector<double> rates;
    solver.Solve({&f0, &f1, &f2}, rates);
    EXPECT_DOUBLE_EQ(rates[1], 2);
    EXPECT_DOUBLE_EQ(rates[2], 2);
    EXPECT_DOUBLE_EQ(rates[0], 8);
    // Weight 2 on link 2: that flow uses twice its rate there, 12 = 2 r + r.
    const std::vector<FlowLinkUse> g0{{2, 2}};
    const std::vector<FlowLinkUse> g1{{2, 1}};
    solver.Solve({&g0, &g1}, rates);
    EXPECT_DOUBLE_EQ(rates[0], 4);
    EXPECT_DOUBLE_EQ(rates[1], 4);
}

// A staircase of 41 levels over 101 links, long enough for the solver to go on from its
// scans to its heap: 100 flows, flow i alone on a link of i + 1 Gb/s and all of them on a
// shared link. The first 40 flows freeze at their own links' rates, one level each; the
// shared link holds the other 60 to an equal share of what is left, 40.5 Gb/s.
TEST(MaxMinSolver, ManyLevelsOverManyLinks)
{
    constexpr uint32_t n = 100;
    constexpr uint32_t alone = 40;
    std::vector<double> capacity;
    double shared = (n - alone) * 40.5e9;
    for (uint32_t i = 0; i < n; ++i)
    {
        capacity.push_back((i + 1) * 1e9);
        shared += i < alone ? (i + 1) * 1e9 : 0;
    }
    capacity.push_back(shared);
    MaxMinSolver solver(capacity);
    std::vector<std::vector<FlowLinkUse>> paths;
    for (uint32_t i = 0; i < n; ++i)
    {
        paths.push_back({{i, 1}, {n, 1}});
    }
    std::vector<const std::vector<FlowLinkUse>*> flows;
    for (const auto& path : paths)
    {
        flows.push_back(&path);
    }
    std::vector<double> rates;
    solver.Solve(flows, rates);
    for (uint32_t i = 0; i < n; ++i)
    {
        EXPECT_DOUBLE_EQ(rates[i], i < alone ? (i + 1) * 1e9 : 40.5e9) << "flow " << i;
    }
}

TEST(FlowBackend, BytesAreConservedThroughStartsAndStops)
{
    // Three senders into host 0, starting at 0, 10 and 20 us: host 0's downlink never
    // idles, so the last byte leaves it after all their wire bytes at the line rate.
    auto b = Backend(Star(4));
    Times t;
    Post(b, t, 1, 0, kMiB, 1);
    Simulator::Schedule(MicroSeconds(10), [&]() { Post(b, t, 2, 0, 3 * kMiB, 2); });
    Simulator::Schedule(MicroSeconds(20), [&]() { Post(b, t, 3, 0, kMiB / 2, 3); });
    Simulator::Run();
    const int64_t wire = kMiBWire * (1 + 3) + kMiBWire / 2;
    int64_t last = 0;
    for (const auto& [tag, at] : t.arrived)
    {
        last = std::max(last, at);
    }
    EXPECT_NEAR(static_cast<double>(last), wire * 80 + 2'000'000 + 4178 * 80 + kPipelinesPs, 10);
    EXPECT_EQ(b->GetDeliveredBytes(), kMiB * 4 + kMiB / 2);
    EXPECT_EQ(b->GetDeliveredMessages(), 3U);
    EXPECT_DOUBLE_EQ(b->GetWireBytesSent(), static_cast<double>(wire));
    Simulator::Destroy();
}

TEST(FlowBackend, QueuePairSendsItsMessagesInOrder)
{
    Times perPeer;
    auto b = Backend(Star(2));
    Post(b, perPeer, 0, 1, kMiB, 0);
    Post(b, perPeer, 0, 1, kMiB, 1);
    Simulator::Run();
    const int64_t fixed = 2'000'000 + 4178 * 80 + kPipelinesPs;
    EXPECT_EQ(perPeer.arrived.at(0), kMiBWire * 80 + fixed);
    EXPECT_EQ(perPeer.arrived.at(1), 2 * kMiBWire * 80 + fixed);
    Simulator::Destroy();

    // A queue pair per message: the two share the link and finish together.
    Times perMessage;
    b = Backend(Star(2), true, true);
    Post(b, perMessage, 0, 1, kMiB, 0);
    Post(b, perMessage, 0, 1, kMiB, 1);
    Simulator::Run();
    EXPECT_EQ(perMessage.arrived.at(0), 2 * kMiBWire * 80 + fixed);
    EXPECT_EQ(perMessage.arrived.at(1), 2 * kMiBWire * 80 + fixed);
    EXPECT_EQ(b->GetQueuePairCount(), 2U);
    Simulator::Destroy();
}

TEST(FlowBackend, ComponentsGiveTheRatesOfAFullResolve)
{
    // Two leaves of four hosts under two spines (ECMP), random messages at random times.
    Fabric f("clos");
    const uint32_t leaf0 = f.AddSwitch("leaf0", "leaf", 1);
    const uint32_t leaf1 = f.AddSwitch("leaf1", "leaf", 1);
    const uint32_t spine0 = f.AddSwitch("spine0", "spine", 2);
    const uint32_t spine1 = f.AddSwitch("spine1", "spine", 2);
    LinkSettings s;
    s.rateBps = 100 * kGbps;
    s.delayPs = 1'000'000;
    for (uint32_t h = 0; h < 8; ++h)
    {
        f.AddLink(f.AddNpu(), h < 4 ? leaf0 : leaf1, s);
    }
    for (uint32_t leaf : {leaf0, leaf1})
    {
        for (uint32_t spine : {spine0, spine1})
        {
            f.AddLink(leaf, spine, s);
        }
    }
    f.SetNpuForwarding(false);
    std::mt19937 rng(5);
    std::vector<std::tuple<int64_t, uint32_t, uint32_t, uint64_t>> posts;
    for (uint64_t i = 0; i < 60; ++i)
    {
        const uint32_t src = rng() % 8;
        const uint32_t dst = (src + 1 + rng() % 7) % 8;
        posts.emplace_back(rng() % 200'000'000, src, dst, 4096 + rng() % (2 * kMiB));
    }
    std::vector<Times> times(2);
    std::vector<uint64_t> solved(2);
    for (int incremental = 0; incremental < 2; ++incremental)
    {
        auto b = Backend(f, incremental == 1);
        Times& t = times[incremental];
        for (uint64_t i = 0; i < posts.size(); ++i)
        {
            const auto [at, src, dst, bytes] = posts[i];
            Simulator::Schedule(PicoSeconds(at),
                                [&, src = src, dst = dst, bytes = bytes, i]()
                                { Post(b, t, src, dst, bytes, i); });
        }
        Simulator::Run();
        solved[incremental] = b->GetAllocator().GetSolvedFlowCount();
        Simulator::Destroy();
    }
    ASSERT_EQ(times[0].arrived.size(), posts.size());
    ASSERT_EQ(times[1].arrived.size(), posts.size());
    for (uint64_t i = 0; i < posts.size(); ++i)
    {
        EXPECT_NEAR(times[0].arrived.at(i), times[1].arrived.at(i), 2) << "message " << i;
    }
    EXPECT_LT(solved[1], solved[0]);
}

TEST(FlowBackend, BadRankAndMissingRouteAreInputErrors)
{
    auto b = Backend(Star(2));
    EXPECT_THROW(b->Send({0, 2, 10, 0}, nullptr, nullptr), InputError);
    Fabric f("split");
    LinkSettings s;
    s.rateBps = 100 * kGbps;
    const uint32_t a = f.AddNpu();
    const uint32_t c = f.AddNpu();
    const uint32_t sw = f.AddSwitch("sw", "leaf", 1);
    f.AddLink(a, sw, s);
    f.AddNpu();
    f.AddLink(c, sw, s);
    f.SetNpuForwarding(false);
    auto split = CreateObject<FlowBackend>();
    split->SetFabric(f, ComputeShortestPathRouting(f, true));
    try
    {
        split->Send({0, 2, 10, 0}, nullptr, nullptr);
        FAIL() << "no error for a missing route";
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find("fabric 'split': the route from NPU 0 to NPU 2"),
                  std::string::npos)
            << e.what();
    }
    Simulator::Destroy();
}

// The allocator reports the flows it re-solved in flow order, whatever order they were
// started in and its components walked in: the backend sets their drains in that order,
// so drains due at one picosecond go in the order of their queue pairs.
TEST(FlowRateAllocator, ResolvedFlowsComeInFlowOrder)
{
    FlowRateAllocator rates({100 * kGbps, 100 * kGbps, 100 * kGbps}, true);
    const uint32_t f0 = rates.AddFlow({{0, 1}});
    const uint32_t f1 = rates.AddFlow({{0, 1}, {1, 1}});
    const uint32_t f2 = rates.AddFlow({{1, 1}});
    const uint32_t f3 = rates.AddFlow({{2, 1}});
    for (uint32_t f : {f3, f2, f1, f0})
    {
        rates.SetActive(f, true);
    }
    EXPECT_EQ(rates.Resolve(), (std::vector<uint32_t>{f0, f1, f2, f3}));
    // f0 and f1 share link 0 at 50 Gb/s, and f2 takes the rest of link 1.
    EXPECT_DOUBLE_EQ(rates.GetRate(f0), 50 * kGbps);
    EXPECT_DOUBLE_EQ(rates.GetRate(f2), 50 * kGbps);
    rates.SetActive(f2, false);
    rates.SetActive(f0, false);
    EXPECT_EQ(rates.Resolve(), (std::vector<uint32_t>{f0, f1, f2}));
    EXPECT_DOUBLE_EQ(rates.GetRate(f1), 100 * kGbps);
}
