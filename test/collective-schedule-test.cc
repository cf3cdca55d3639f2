/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Collective schedules executed on the analytical networks: closed-form completion
// times of every algorithm, chunk pipelining and queues, scheduling policies, and
// conservation of bytes.
#include "ns3/collective-double-binary-tree.h"
#include "ns3/collective-planner.h"
#include "ns3/collective-runner.h"
#include "ns3/congestion-aware-backend.h"
#include "ns3/congestion-unaware-backend.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>

using namespace ns3;

namespace
{

constexpr uint64_t kMiB = 1048576;
constexpr uint64_t kE = 10;      // endpoint-delay, ns
constexpr double kMemBw = 1600;  // local-mem-bw, GB/s = B/ns
constexpr double kGbps = 50;     // link bandwidth, GB/s
constexpr double kLatency = 500; // link latency, ns

/** Local reduction of \p bytes: one write and two reads at local-mem-bw. */
uint64_t
Red(uint64_t bytes)
{
    return 3 * static_cast<uint64_t>(static_cast<double>(bytes) / kMemBw);
}

/** One-hop delay of \p bytes on a kGbps / kLatency link. */
uint64_t
Delta(uint64_t bytes, uint32_t hops = 1, double gbps = kGbps, double latency = kLatency)
{
    return static_cast<uint64_t>(hops * latency + static_cast<double>(bytes) /
                                                      AnalyticalTopology::ToBytesPerNs(gbps));
}

SystemConfig
Config(const std::string& algorithm, uint32_t splits = 1, uint32_t active = 1, size_t dims = 1)
{
    SystemConfig c;
    c.endpointDelayNs = kE;
    c.localMemBwGBps = kMemBw;
    c.preferredDatasetSplits = splits;
    c.activeChunksPerDimension = active;
    c.collectiveOptimization = CollectiveOptimization::LocalBwAware;
    c.allReduceImplementation.assign(dims, ParseAlgorithmSpec(algorithm, "test"));
    c.reduceScatterImplementation = c.allReduceImplementation;
    c.allGatherImplementation = c.allReduceImplementation;
    c.allToAllImplementation = c.allReduceImplementation;
    return c;
}

template <typename Backend>
Ptr<Backend>
Network(std::vector<AnalyticalDimension> dims)
{
    auto b = CreateObject<Backend>();
    b->SetTopology(AnalyticalTopology(std::move(dims)));
    return b;
}

Ptr<NetworkBackend>
FullyConnected(uint32_t n)
{
    return Network<CongestionUnawareBackend>(
        {{AnalyticalBlock::FullyConnected, n, kGbps, kLatency}});
}

/** What one run of collectives produced. */
struct Outcome
{
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> finishNs; //!< (rank, id) -> ns
    std::vector<uint64_t> sent;                                 //!< bytes per rank
    std::vector<uint64_t> received;                             //!< bytes per rank
    uint64_t messages{0};                                       //!< messages

    uint64_t
    Finish(uint32_t rank, uint32_t id = 0) const
    {
        return finishNs.at({rank, id});
    }

    uint64_t
    Last() const
    {
        uint64_t last = 0;
        for (const auto& [key, t] : finishNs)
        {
            last = std::max(last, t);
        }
        return last;
    }

    uint64_t
    TotalSent() const
    {
        return std::accumulate(sent.begin(), sent.end(), uint64_t{0});
    }
};

/**
 * Start every plan (ids 0, 1, ...) on each of its ranks at t = 0, run to the end, and
 * check that every rank finished every collective and that every byte sent arrived.
 */
Outcome
RunCollectives(Ptr<NetworkBackend> backend,
               const SystemConfig& config,
               const std::vector<std::shared_ptr<const CollectivePlan>>& plans)
{
    Outcome out;
    CollectiveRunner runner(backend, config);
    runner.SetFinishedCallback(
        [&](uint32_t rank, uint32_t id)
        {
            EXPECT_TRUE(
                out.finishNs.emplace(std::make_pair(rank, id), Simulator::Now().GetNanoSeconds())
                    .second);
        });
    size_t expected = 0;
    for (uint32_t id = 0; id < plans.size(); ++id)
    {
        for (uint32_t rank = 0; rank < backend->GetRankCount(); ++rank)
        {
            if (plans[id]->topology->Contains(rank))
            {
                runner.Start(rank, id, plans[id]);
                ++expected;
            }
        }
    }
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_EQ(out.finishNs.size(), expected);
    for (uint32_t r = 0; r < backend->GetRankCount(); ++r)
    {
        out.sent.push_back(runner.GetBytesSent(r));
        out.received.push_back(runner.GetBytesReceived(r));
    }
    out.messages = runner.GetMessageCount();
    EXPECT_EQ(out.TotalSent(),
              std::accumulate(out.received.begin(), out.received.end(), uint64_t{0}));
    return out;
}

std::shared_ptr<const CollectivePlan>
Plan(const SystemConfig& config,
     std::vector<uint32_t> dims,
     CollectiveType type,
     uint64_t bytes,
     uint32_t root = 0,
     std::shared_ptr<const CommGroup> group = nullptr)
{
    CollectivePlanner planner(config, std::move(dims));
    CollectivePlanner::Request r;
    r.type = type;
    r.bytes = bytes;
    r.root = root;
    r.group = std::move(group);
    r.where = "test";
    return planner.Plan(r);
}

/** A ring phase of s steps of m bytes: E + s (delta + E) plus the reductions. */
uint64_t
RingPhaseNs(uint32_t steps, uint64_t delta, uint64_t reductions)
{
    return kE + steps * (delta + kE) + reductions;
}

} // namespace

TEST(CollectiveSchedule, RingAllReduce)
{
    const uint32_t n = 8;
    const auto config = Config("ring");
    auto out = RunCollectives(
        FullyConnected(n), config, {Plan(config, {n}, CollectiveType::AllReduce, kMiB)});
    const uint64_t m = kMiB / n;
    const uint64_t expected = RingPhaseNs(2 * (n - 1), Delta(m), (n - 1) * Red(m));
    EXPECT_EQ(expected, 43025U);
    for (uint32_t r = 0; r < n; ++r)
    {
        EXPECT_EQ(out.Finish(r), expected);
        EXPECT_EQ(out.sent[r], 2 * (n - 1) * m);
        EXPECT_EQ(out.received[r], 2 * (n - 1) * m);
    }
    EXPECT_EQ(out.messages, n * 2 * (n - 1));
}

TEST(CollectiveSchedule, RingReduceScatterAllGatherAllToAll)
{
    const uint32_t n = 4;
    const auto config = Config("ring");
    const uint64_t d = 4 * kMiB;
    auto rs = RunCollectives(
        FullyConnected(n), config, {Plan(config, {n}, CollectiveType::ReduceScatter, d)});
    EXPECT_EQ(rs.Last(), RingPhaseNs(n - 1, Delta(d / n), (n - 1) * Red(d / n)));
    EXPECT_EQ(rs.TotalSent(), n * (n - 1) * (d / n));

    auto ag = RunCollectives(
        FullyConnected(n), config, {Plan(config, {n}, CollectiveType::AllGather, d)});
    EXPECT_EQ(ag.Last(), RingPhaseNs(n - 1, Delta(d), 0));
    EXPECT_EQ(ag.TotalSent(), n * (n - 1) * d);

    auto a2a =
        RunCollectives(FullyConnected(n), config, {Plan(config, {n}, CollectiveType::AllToAll, d)});
    EXPECT_EQ(a2a.Last(), RingPhaseNs(n * (n - 1) / 2, Delta(d / n), 0));
    EXPECT_EQ(a2a.messages, n * n * (n - 1) / 2);
}

TEST(CollectiveSchedule, ChunksShareTheQueueByActiveChunks)
{
    const uint32_t n = 4;
    const uint64_t m = kMiB / 4 / n;
    const uint64_t oneChunk = RingPhaseNs(2 * (n - 1), Delta(m), (n - 1) * Red(m));
    for (uint32_t active : {1U, 2U, 4U})
    {
        SCOPED_TRACE("active chunks " + std::to_string(active));
        const auto config = Config("ring", 4, active);
        auto out = RunCollectives(
            FullyConnected(n), config, {Plan(config, {n}, CollectiveType::AllReduce, kMiB)});
        // The unaware network has no contention: 'active' chunks run side by side.
        EXPECT_EQ(out.Last(), (4 / active) * oneChunk);
        EXPECT_EQ(out.TotalSent(), n * 4 * 2 * (n - 1) * m);
    }
}

TEST(CollectiveSchedule, AstraMicrobenchmarkSettings)
{
    // Ring_4npus.yml with Ring_4chunks.json: 4 chunks of 256 KiB, one at a time.
    auto ring = Network<CongestionUnawareBackend>({{AnalyticalBlock::Ring, 4, 50.0, 500.0}});
    auto config = Config("ring", 4, 1);
    auto out = RunCollectives(ring, config, {Plan(config, {4}, CollectiveType::AllReduce, kMiB)});
    EXPECT_EQ(out.Last(), 4 * (10 + 6 * (1720 + 10) + 3 * 120));

    // HGX-H100-validated: Switch of 8, 400 GB/s, 936.25 ns per link, two chunks at a time.
    auto hgx = Network<CongestionUnawareBackend>({{AnalyticalBlock::Switch, 8, 400.0, 936.25}});
    auto hgxConfig = Config("ring", 4, 2);
    hgxConfig.localMemBwGBps = 3350;
    auto hgxOut =
        RunCollectives(hgx, hgxConfig, {Plan(hgxConfig, {8}, CollectiveType::AllReduce, kMiB)});
    const uint64_t delta = Delta(kMiB / 4 / 8, 2, 400.0, 936.25);
    EXPECT_EQ(delta, 1948U);
    EXPECT_EQ(hgxOut.Last(), 2 * (10 + 14 * (delta + 10) + 7 * 3 * (32768 / 3350)));
}

TEST(CollectiveSchedule, DirectAllToAllWindows)
{
    const uint32_t n = 8;
    const uint64_t m = kMiB / n;
    for (const std::string name : {"direct", "direct2", "direct3"})
    {
        SCOPED_TRACE(name);
        const auto config = Config(name);
        auto out = RunCollectives(
            FullyConnected(n), config, {Plan(config, {n}, CollectiveType::AllToAll, kMiB)});
        const uint32_t window = name == "direct" ? n - 1 : std::stoul(name.substr(6));
        const uint32_t rounds = (n - 1 + window - 1) / window;
        EXPECT_EQ(out.Last(), kE + rounds * (Delta(m) + kE));
        // Every rank sends one message to every other rank.
        EXPECT_EQ(out.messages, n * (n - 1));
        for (uint32_t r = 0; r < n; ++r)
        {
            EXPECT_EQ(out.received[r], (n - 1) * m);
        }
    }
}

TEST(CollectiveSchedule, DirectAllReduceWaitsForTheWholeReduceScatter)
{
    const uint32_t n = 8;
    const uint64_t m = kMiB / n;
    const auto config = Config("direct");
    auto out = RunCollectives(
        FullyConnected(n), config, {Plan(config, {n}, CollectiveType::AllReduce, kMiB)});
    EXPECT_EQ(out.Last(), 3 * kE + 2 * Delta(m) + Red(m));
    EXPECT_EQ(out.TotalSent(), n * 2 * (n - 1) * m);
}

TEST(CollectiveSchedule, HalvingDoubling)
{
    const uint32_t n = 8;
    const auto config = Config("halvingDoubling");
    // Messages D/2, D/4, D/8 going out, D/8, D/4, D/2 coming back; the packets prepared
    // after the first two receives reduce the next message's bytes.
    const std::vector<uint64_t> bytes = {
        kMiB / 2, kMiB / 4, kMiB / 8, kMiB / 8, kMiB / 4, kMiB / 2};
    uint64_t ar = 7 * kE + Red(kMiB / 4) + Red(kMiB / 8);
    for (auto b : bytes)
    {
        ar += Delta(b);
    }
    auto out = RunCollectives(
        FullyConnected(n), config, {Plan(config, {n}, CollectiveType::AllReduce, kMiB)});
    EXPECT_EQ(out.Last(), ar);
    EXPECT_EQ(out.TotalSent(), n * 2 * (kMiB / 2 + kMiB / 4 + kMiB / 8));

    auto rs = RunCollectives(
        FullyConnected(n), config, {Plan(config, {n}, CollectiveType::ReduceScatter, kMiB)});
    EXPECT_EQ(rs.Last(),
              4 * kE + Delta(kMiB / 2) + Delta(kMiB / 4) + Delta(kMiB / 8) + Red(kMiB / 4) +
                  Red(kMiB / 8));

    auto ag = RunCollectives(
        FullyConnected(n), config, {Plan(config, {n}, CollectiveType::AllGather, kMiB)});
    EXPECT_EQ(ag.Last(), 4 * kE + Delta(kMiB) + Delta(2 * kMiB) + Delta(4 * kMiB));
    EXPECT_EQ(ag.TotalSent(), n * 7 * kMiB);
}

TEST(CollectiveSchedule, DoubleBinaryTreeNodes)
{
    // Chunk 0: the root is position 7, its child 3, then 1 and 5, leaves 0 2 4 6.
    auto root = DoubleBinaryTreePhase::Locate(7, 8, true);
    EXPECT_EQ(root.parent, -1);
    EXPECT_EQ(root.left, 3);
    auto three = DoubleBinaryTreePhase::Locate(3, 8, true);
    EXPECT_EQ(three.parent, 7);
    EXPECT_EQ(three.left, 1);
    EXPECT_EQ(three.right, 5);
    auto six = DoubleBinaryTreePhase::Locate(6, 8, true);
    EXPECT_EQ(six.parent, 5);
    EXPECT_EQ(six.left, -1);
    EXPECT_EQ(six.right, -1);
    // Chunk 1: the root is position 0, its child 4, then 2 and 6, leaves 1 3 5 7.
    auto first = DoubleBinaryTreePhase::Locate(0, 8, false);
    EXPECT_EQ(first.right, 4);
    auto two = DoubleBinaryTreePhase::Locate(2, 8, false);
    EXPECT_EQ(two.parent, 4);
    EXPECT_EQ(two.left, 1);
    EXPECT_EQ(two.right, 3);
}

TEST(CollectiveSchedule, DoubleBinaryTreeAllReduce)
{
    const uint32_t n = 8;
    const uint64_t delta = Delta(kMiB);
    const uint64_t r = Red(kMiB);
    const auto one = Config("doubleBinaryTree");
    auto out =
        RunCollectives(FullyConnected(n), one, {Plan(one, {n}, CollectiveType::AllReduce, kMiB)});
    for (uint32_t leaf : {0U, 2U, 4U, 6U})
    {
        EXPECT_EQ(out.Finish(leaf), 7 * kE + 6 * delta + 5 * r);
    }
    EXPECT_EQ(out.Finish(1), 6 * kE + 5 * delta + 5 * r);
    EXPECT_EQ(out.Finish(5), 6 * kE + 5 * delta + 5 * r);
    EXPECT_EQ(out.Finish(3), 5 * kE + 4 * delta + 4 * r);
    EXPECT_EQ(out.Finish(7), 4 * kE + 3 * delta + 3 * r);
    // Every tree edge carries the chunk up and down.
    EXPECT_EQ(out.TotalSent(), 2 * (n - 1) * kMiB);

    // Two chunks side by side use both trees: every rank is a leaf of one of them.
    const auto two = Config("doubleBinaryTree", 2, 2);
    auto both = RunCollectives(
        FullyConnected(n), two, {Plan(two, {n}, CollectiveType::AllReduce, 2 * kMiB)});
    for (uint32_t rank = 0; rank < n; ++rank)
    {
        EXPECT_EQ(both.Finish(rank), 7 * kE + 6 * delta + 5 * r);
    }
}

TEST(CollectiveSchedule, LocalBwAwarePipelinesChunksAcrossDimensions)
{
    // Dimension 0: 4 NPUs at 50 GB/s; dimension 1: 2 NPUs at 100 GB/s, 200 ns.
    auto network =
        Network<CongestionUnawareBackend>({{AnalyticalBlock::FullyConnected, 4, 50.0, 500.0},
                                           {AnalyticalBlock::FullyConnected, 2, 100.0, 200.0}});
    const uint64_t d = kMiB;
    const uint64_t a = RingPhaseNs(3, Delta(d / 4), 3 * Red(d / 4));
    const uint64_t b = RingPhaseNs(2, Delta(d / 8, 1, 100.0, 200.0), Red(d / 8));
    const uint64_t c = RingPhaseNs(3, Delta(d / 4), 0);

    const auto single = Config("ring", 1, 1, 2);
    auto one =
        RunCollectives(network, single, {Plan(single, {4, 2}, CollectiveType::AllReduce, d)});
    EXPECT_EQ(one.Last(), a + b + c);

    // Two chunks, one per queue at a time: the second chunk's reduce-scatter follows
    // the first's, and each later phase waits for its queue.
    auto network2 =
        Network<CongestionUnawareBackend>({{AnalyticalBlock::FullyConnected, 4, 50.0, 500.0},
                                           {AnalyticalBlock::FullyConnected, 2, 100.0, 200.0}});
    const auto split = Config("ring", 2, 1, 2);
    auto two =
        RunCollectives(network2, split, {Plan(split, {4, 2}, CollectiveType::AllReduce, 2 * d)});
    const uint64_t secondAllReduceEnd = std::max(2 * a, a + b) + b;
    EXPECT_EQ(two.Last(), std::max(secondAllReduceEnd, a + b + c) + c);
}

TEST(CollectiveSchedule, SchedulingPolicyOrdersWaitingCollectives)
{
    const uint32_t n = 4;
    for (auto policy : {SchedulingPolicy::Lifo, SchedulingPolicy::Fifo})
    {
        auto config = Config("ring", 2, 1);
        config.schedulingPolicy = policy;
        auto plan = Plan(config, {n}, CollectiveType::AllReduce, kMiB);
        auto out = RunCollectives(FullyConnected(n), config, {plan, plan});
        const uint64_t chunk =
            RingPhaseNs(2 * (n - 1), Delta(kMiB / 2 / n), (n - 1) * Red(kMiB / 2 / n));
        // Collective 0's first chunk starts before collective 1 is issued; what waits is
        // ordered by the policy.
        const uint64_t first = out.Finish(0, 0);
        const uint64_t second = out.Finish(0, 1);
        if (policy == SchedulingPolicy::Lifo)
        {
            EXPECT_EQ(second, 3 * chunk);
            EXPECT_EQ(first, 4 * chunk);
        }
        else
        {
            EXPECT_EQ(first, 2 * chunk);
            EXPECT_EQ(second, 4 * chunk);
        }
    }
}

TEST(CollectiveSchedule, SubGroupRingUsesMemberOrderAndLocalHandoff)
{
    auto ring = Network<CongestionUnawareBackend>({{AnalyticalBlock::Ring, 8, kGbps, kLatency}});
    auto config = Config("ring");
    config.groupDecomposition = GroupDecompositionMode::MemberRing;
    config.endpointDelayNs = 25; // not used: group rings hand off in a fixed 10 ns
    auto group = std::make_shared<const CommGroup>("1", std::vector<uint32_t>{7, 1, 5, 3});
    auto out = RunCollectives(
        ring, config, {Plan(config, {8}, CollectiveType::AllReduce, kMiB, 0, group)});
    const uint64_t m = kMiB / 4;
    const uint64_t local = 10;
    const uint64_t expected = local + 6 * (Delta(m, 2) + local) + 3 * Red(m);
    for (uint32_t r : {1U, 3U, 5U, 7U})
    {
        EXPECT_EQ(out.Finish(r), expected);
        EXPECT_EQ(out.sent[r], 6 * m);
    }
    for (uint32_t r : {0U, 2U, 4U, 6U})
    {
        EXPECT_EQ(out.sent[r] + out.received[r], 0U);
    }
}

TEST(CollectiveSchedule, GroupOnTheDimensionsItSpansRunsHierarchically)
{
    // Dimension 0: 4 NPUs at 50 GB/s, 500 ns; dimension 1: 4 at 100 GB/s, 200 ns. The
    // group {0,1} x {0,1} reduce-scatters inside, all-reduces across and all-gathers
    // inside, each a two-rank ring, with the configured endpoint delay.
    auto network =
        Network<CongestionUnawareBackend>({{AnalyticalBlock::FullyConnected, 4, 50.0, 500.0},
                                           {AnalyticalBlock::FullyConnected, 4, 100.0, 200.0}});
    const auto config = Config("ring", 1, 1, 2);
    auto group = std::make_shared<const CommGroup>("1", std::vector<uint32_t>{0, 1, 4, 5});
    const uint64_t d = kMiB;
    auto out = RunCollectives(
        network, config, {Plan(config, {4, 4}, CollectiveType::AllReduce, d, 0, group)});
    const uint64_t a = RingPhaseNs(1, Delta(d / 2), Red(d / 2));
    const uint64_t b = RingPhaseNs(2, Delta(d / 4, 1, 100.0, 200.0), Red(d / 4));
    const uint64_t c = RingPhaseNs(1, Delta(d / 2), 0);
    for (uint32_t r : {0U, 1U, 4U, 5U})
    {
        EXPECT_EQ(out.Finish(r), a + b + c);
        EXPECT_EQ(out.sent[r], d / 2 + 2 * (d / 4) + d / 2);
    }
    for (uint32_t r : {2U, 3U, 6U, 7U, 8U, 15U})
    {
        EXPECT_EQ(out.sent[r] + out.received[r], 0U);
    }
    // The same group as one ring over its members (ASTRA-sim 2.0) crosses dimension 1
    // on two of its four steps' links and takes longer.
    auto flat = config;
    flat.groupDecomposition = GroupDecompositionMode::MemberRing;
    auto network2 =
        Network<CongestionUnawareBackend>({{AnalyticalBlock::FullyConnected, 4, 50.0, 500.0},
                                           {AnalyticalBlock::FullyConnected, 4, 100.0, 200.0}});
    auto ring = RunCollectives(
        network2, flat, {Plan(flat, {4, 4}, CollectiveType::AllReduce, d, 0, group)});
    EXPECT_GT(ring.Last(), a + b + c);
}

TEST(CollectiveSchedule, GroupAlgorithmsMatchTheSameAlgorithmOnAWorldOfTheirSize)
{
    // Four NPUs of a fully connected dimension of 8 run what a world of 4 runs: the
    // group's algorithm is the configured one, on its members alone.
    const uint32_t n = 4;
    const uint64_t m = kMiB / n;
    auto group = std::make_shared<const CommGroup>("1", std::vector<uint32_t>{2, 3, 6, 7});
    for (const std::string name : {"ring", "halvingDoubling", "doubleBinaryTree", "direct"})
    {
        SCOPED_TRACE(name);
        const auto config = Config(name);
        auto world = RunCollectives(
            FullyConnected(n), config, {Plan(config, {n}, CollectiveType::AllReduce, kMiB)});
        auto sub = RunCollectives(FullyConnected(8),
                                  config,
                                  {Plan(config, {8}, CollectiveType::AllReduce, kMiB, 0, group)});
        EXPECT_EQ(sub.Last(), world.Last());
        EXPECT_EQ(sub.TotalSent(), world.TotalSent());
        EXPECT_EQ(sub.sent[0] + sub.sent[1] + sub.sent[4] + sub.sent[5], 0U);
    }
    // Direct all-to-all of the group: one round of n - 1 messages, closed form.
    const auto direct = Config("direct");
    auto a2a = RunCollectives(
        FullyConnected(8), direct, {Plan(direct, {8}, CollectiveType::AllToAll, kMiB, 0, group)});
    EXPECT_EQ(a2a.Last(), kE + Delta(m) + kE);
    EXPECT_EQ(a2a.messages, n * (n - 1));
    EXPECT_EQ(a2a.TotalSent(), n * (n - 1) * m);
}

TEST(CollectiveSchedule, GroupAllToAllHierarchicalOverTwoDimensions)
{
    // Direct on both dimensions: an all-to-all inside the server, then one across.
    auto network =
        Network<CongestionUnawareBackend>({{AnalyticalBlock::FullyConnected, 4, 50.0, 500.0},
                                           {AnalyticalBlock::FullyConnected, 4, 100.0, 200.0}});
    const auto config = Config("direct", 1, 1, 2);
    auto group = std::make_shared<const CommGroup>("1", std::vector<uint32_t>{0, 1, 4, 5});
    const uint64_t d = kMiB;
    auto out = RunCollectives(
        network, config, {Plan(config, {4, 4}, CollectiveType::AllToAll, d, 0, group)});
    EXPECT_EQ(out.Last(), (kE + Delta(d / 2) + kE) + (kE + Delta(d / 2, 1, 100.0, 200.0) + kE));
    EXPECT_EQ(out.messages, 4U * 2U);
}

TEST(CollectiveSchedule, RootedCollectivesAndBarrier)
{
    const uint32_t n = 4;
    const auto config = Config("ring");
    const uint64_t d = kMiB;
    auto bcast = RunCollectives(
        FullyConnected(n), config, {Plan(config, {n}, CollectiveType::Broadcast, d, 1)});
    EXPECT_EQ(bcast.Finish(1), kE);
    EXPECT_EQ(bcast.Finish(0), 4 * kE + 3 * Delta(d));
    EXPECT_EQ(bcast.TotalSent(), 3 * d);

    auto reduce = RunCollectives(
        FullyConnected(n), config, {Plan(config, {n}, CollectiveType::Reduce, d, 1)});
    EXPECT_EQ(reduce.Finish(2), kE);
    EXPECT_EQ(reduce.Finish(1), 4 * kE + 3 * Delta(d) + 3 * Red(d));
    EXPECT_EQ(reduce.received[1], d);

    auto gather = RunCollectives(
        FullyConnected(n), config, {Plan(config, {n}, CollectiveType::Gather, d, 0)});
    EXPECT_EQ(gather.Finish(0), 2 * kE + Delta(d));
    EXPECT_EQ(gather.received[0], 3 * d);

    auto scatter = RunCollectives(
        FullyConnected(n), config, {Plan(config, {n}, CollectiveType::Scatter, d, 2)});
    EXPECT_EQ(scatter.Finish(0), 2 * kE + Delta(d / n));
    EXPECT_EQ(scatter.sent[2], 3 * (d / n));

    const uint32_t eight = 8;
    auto barrier = RunCollectives(
        FullyConnected(eight), config, {Plan(config, {eight}, CollectiveType::Barrier, 0)});
    EXPECT_EQ(barrier.Last(), kE + 3 * (Delta(1) + kE));
    EXPECT_EQ(barrier.messages, eight * 3);
}

TEST(CollectiveSchedule, RingAllReduceIsUncongestedOnACongestionAwareRing)
{
    const uint32_t n = 8;
    auto run = [&](const SystemConfig& config, bool aware)
    {
        auto plan = Plan(config, {n}, CollectiveType::AllReduce, 4 * kMiB);
        const AnalyticalDimension ring{AnalyticalBlock::Ring, n, kGbps, kLatency};
        return aware ? RunCollectives(Network<CongestionAwareBackend>({ring}), config, {plan})
                     : RunCollectives(Network<CongestionUnawareBackend>({ring}), config, {plan});
    };
    // One chunk at a time: every link carries one message at a time, nothing waits.
    const auto lone = Config("ring", 4, 1);
    EXPECT_EQ(run(lone, true).finishNs, run(lone, false).finishNs);
    // Two chunks at a time share every link: only the congestion-aware model sees it.
    const auto pair = Config("ring", 4, 2);
    auto aware = run(pair, true);
    auto unaware = run(pair, false);
    EXPECT_GT(aware.Last(), unaware.Last());
    EXPECT_EQ(aware.TotalSent(), unaware.TotalSent());
}

TEST(CollectiveSchedule, TwoQueuesRunTheirRingsInOppositeDirections)
{
    // Two queues per dimension, one chunk each: the second queue's ring turns the other
    // way, so on a congestion-aware ring the two chunks never share a link.
    const uint32_t n = 8;
    auto config = Config("ring", 2, 2);
    config.collectiveOptimization = CollectiveOptimization::Baseline;
    config.queuesPerDimension = 2;
    auto plan = Plan(config, {n}, CollectiveType::AllReduce, 2 * kMiB);
    const AnalyticalDimension ring{AnalyticalBlock::Ring, n, kGbps, kLatency};
    auto aware = RunCollectives(Network<CongestionAwareBackend>({ring}), config, {plan});
    auto unaware = RunCollectives(Network<CongestionUnawareBackend>({ring}), config, {plan});
    const uint64_t m = kMiB / n;
    EXPECT_EQ(unaware.Last(), RingPhaseNs(2 * (n - 1), Delta(m), (n - 1) * Red(m)));
    EXPECT_EQ(aware.finishNs, unaware.finishNs);

    // localBWAware all-reduce phases are first visits: they use the first half only,
    // one chunk at a time.
    config.collectiveOptimization = CollectiveOptimization::LocalBwAware;
    auto firstHalf = RunCollectives(Network<CongestionUnawareBackend>({ring}),
                                    config,
                                    {Plan(config, {n}, CollectiveType::AllReduce, 2 * kMiB)});
    EXPECT_EQ(firstHalf.Last(), 2 * unaware.Last());
}

TEST(CollectiveSchedule, RanksThatSkipACollectiveAreVisible)
{
    // Rank 3 never starts the collective: the others cannot finish, and rank 3 holds
    // the messages sent to it, which a replay can report.
    const uint32_t n = 4;
    const auto config = Config("ring");
    auto plan = Plan(config, {n}, CollectiveType::AllReduce, kMiB);
    auto backend = FullyConnected(n);
    struct Driver : CollectiveRank::Output
    {
        Ptr<NetworkBackend> net;
        std::vector<std::unique_ptr<CollectiveRank>> ranks;
        uint32_t finished{0};

        void
        SendMessage(uint32_t src, uint32_t dst, uint64_t bytes, uint64_t tag) override
        {
            net->Send({src, dst, bytes, tag},
                      nullptr,
                      [this](const NetworkBackend::Message& m)
                      { ranks[m.dst]->Receive(m.src, m.tag); });
        }

        void
        StartTimer(uint32_t rank, uint64_t delayNs, uint64_t token) override
        {
            net->Schedule(NanoSeconds(delayNs),
                          [this, rank, token]() { ranks[rank]->TimerExpired(token); });
        }

        void
        CollectiveFinished(uint32_t, uint32_t) override
        {
            ++finished;
        }
    } driver;
    driver.net = backend;
    for (uint32_t r = 0; r < n; ++r)
    {
        driver.ranks.push_back(std::make_unique<CollectiveRank>(r, config, driver));
    }
    for (uint32_t r = 0; r + 1 < n; ++r)
    {
        driver.ranks[r]->Start(5, plan);
    }
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_EQ(driver.finished, 0U);
    EXPECT_EQ(driver.ranks[0]->GetActiveCount(), 1U);
    EXPECT_EQ(driver.ranks[3]->GetActiveCount(), 0U);
    EXPECT_EQ(driver.ranks[3]->GetUnstartedCount(), 1U);
}

TEST(CollectiveSchedule, DirectAllToAllContendsOnASwitch)
{
    // Every rank sends to every other at once: on the congestion-aware switch each
    // destination port serializes n - 1 messages.
    const uint32_t n = 8;
    const auto config = Config("direct");
    auto plan = Plan(config, {n}, CollectiveType::AllToAll, kMiB);
    auto aware = RunCollectives(
        Network<CongestionAwareBackend>({{AnalyticalBlock::Switch, n, kGbps, kLatency}}),
        config,
        {plan});
    auto unaware = RunCollectives(
        Network<CongestionUnawareBackend>({{AnalyticalBlock::Switch, n, kGbps, kLatency}}),
        config,
        {plan});
    const uint64_t m = kMiB / n;
    EXPECT_EQ(unaware.Last(), 2 * kE + Delta(m, 2));
    const uint64_t ser = static_cast<uint64_t>(m / AnalyticalTopology::ToBytesPerNs(kGbps));
    // Each uplink sends its n - 1 messages back to back; the k-th messages of all ranks
    // go to distinct destinations, so every downlink forwards without waiting.
    EXPECT_EQ(aware.Last(), kE + (n - 2) * ser + 2 * Delta(m) + kE);
}
