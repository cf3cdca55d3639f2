/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// In-switch all-reduce, reduce-scatter and all-gather (nvls, inNetwork) on the
// analytical networks: closed-form completion times alone, in chunks, in a hierarchy and
// on a group; the reduction engine's rate and latency; conservation of bytes; and the
// refusals.
#include "collective-run.h"

#include "ns3/collective-planner.h"
#include "ns3/congestion-aware-backend.h"
#include "ns3/congestion-unaware-backend.h"
#include "ns3/input-error.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

using namespace ns3;

namespace
{

constexpr uint64_t kMiB = 1048576;
constexpr uint64_t kE = 10;      // endpoint-delay, ns
constexpr double kMemBw = 1600;  // local-mem-bw, GB/s = B/ns
constexpr double kGbps = 50;     // link bandwidth, GB/s (2^30 B)
constexpr double kLatency = 500; // link latency, ns

/** Delay of \p bytes over \p hops links of the given bandwidth and latency, whole ns. */
uint64_t
Delta(uint64_t bytes, uint32_t hops, double gbps = kGbps, double latency = kLatency)
{
    return static_cast<uint64_t>(hops * latency + static_cast<double>(bytes) /
                                                      AnalyticalTopology::ToBytesPerNs(gbps));
}

/** Local reduction of \p bytes: one write and two reads at local-mem-bw. */
uint64_t
Red(uint64_t bytes)
{
    return 3 * static_cast<uint64_t>(static_cast<double>(bytes) / kMemBw);
}

/** The in-switch phase: a hand-off, data up and result down through the switch, a hand-off. */
uint64_t
InSwitchNs(uint64_t bytes, double gbps = kGbps, double latency = kLatency)
{
    return 2 * kE + Delta(bytes, 2, gbps, latency);
}

SystemConfig
Config(std::vector<std::string> algorithms, uint32_t splits = 1)
{
    SystemConfig c;
    c.endpointDelayNs = kE;
    c.localMemBwGBps = kMemBw;
    c.preferredDatasetSplits = splits;
    c.collectiveOptimization = CollectiveOptimization::LocalBwAware;
    for (const auto& a : algorithms)
    {
        c.allReduceImplementation.push_back(ParseAlgorithmSpec(a, "test"));
    }
    c.reduceScatterImplementation.assign(algorithms.size(), AlgorithmSpec{});
    c.allGatherImplementation = c.reduceScatterImplementation;
    c.allToAllImplementation = c.reduceScatterImplementation;
    return c;
}

template <typename Backend = CongestionUnawareBackend>
Ptr<Backend>
Network(std::vector<AnalyticalDimension> dims)
{
    auto b = CreateObject<Backend>();
    b->SetTopology(AnalyticalTopology(std::move(dims)));
    return b;
}

std::shared_ptr<const CollectivePlan>
Plan(const SystemConfig& config,
     std::vector<uint32_t> dims,
     uint64_t bytes,
     std::shared_ptr<const CommGroup> group = nullptr)
{
    CollectivePlanner planner(config, std::move(dims));
    CollectivePlanner::Request r;
    r.type = CollectiveType::AllReduce;
    r.bytes = bytes;
    r.group = std::move(group);
    r.where = "test";
    return planner.Plan(r);
}

} // namespace

TEST(InSwitchCollective, NamesRoundTrip)
{
    EXPECT_EQ(ToString(ParseAlgorithmSpec("nvls", "t")), "nvls");
    EXPECT_EQ(ToString(ParseAlgorithmSpec("inNetwork", "t")), "inNetwork");
    EXPECT_TRUE(IsInNetwork(ParseAlgorithmSpec("nvls", "t").algorithm));
    EXPECT_FALSE(IsInNetwork(ParseAlgorithmSpec("ring", "t").algorithm));
    EXPECT_THROW(ParseAlgorithmSpec("oneNvls", "t"), InputError);
}

TEST(InSwitchCollective, NvlsAllReduceCostsOneMessageThroughTheSwitch)
{
    const uint32_t n = 8;
    const uint64_t d = 4 * kMiB;
    const auto config = Config({"nvls"});
    auto out = RunCollectiveOnMembers(
        Network({{AnalyticalBlock::Switch, n, kGbps, kLatency}}), config, Plan(config, {n}, d));
    // 2E + 2L + D/B = 20 + 1000 + 4 MiB / 50 GiB/s.
    EXPECT_EQ(InSwitchNs(d), 79145U);
    for (uint32_t r = 0; r < n; ++r)
    {
        EXPECT_EQ(out.finishNs.at(r), InSwitchNs(d));
        // Up once, down once.
        EXPECT_EQ(out.sent[r], d);
        EXPECT_EQ(out.received[r], d);
    }
}

TEST(InSwitchCollective, ChunksRunOneAfterAnother)
{
    const uint32_t n = 4;
    const uint64_t d = 4 * kMiB;
    const auto config = Config({"inNetwork"}, 4);
    auto out = RunCollectiveOnMembers(
        Network({{AnalyticalBlock::Switch, n, kGbps, kLatency}}), config, Plan(config, {n}, d));
    for (uint32_t r = 0; r < n; ++r)
    {
        EXPECT_EQ(out.finishNs.at(r), 4 * InSwitchNs(d / 4));
        EXPECT_EQ(out.sent[r], d);
    }
}

TEST(InSwitchCollective, EngineRateAndLatencyBound)
{
    const uint32_t n = 4;
    const uint64_t d = 4 * kMiB;
    const auto config = Config({"nvls"});
    auto slow = Network({{AnalyticalBlock::Switch, n, kGbps, kLatency}});
    slow->SetAttribute("ReductionRate", DataRateValue(DataRate("100Gbps")));
    auto out = RunCollectiveOnMembers(slow, config, Plan(config, {n}, d));
    // The engine adds 12.5 bytes/ns, slower than the 53.7 bytes/ns link.
    EXPECT_EQ(out.finishNs.at(0), 2 * kE + static_cast<uint64_t>(2 * kLatency + d / 12.5));

    auto late = Network({{AnalyticalBlock::Switch, n, kGbps, kLatency}});
    late->SetAttribute("ReductionLatency", TimeValue(NanoSeconds(300)));
    out = RunCollectiveOnMembers(late, config, Plan(config, {n}, d));
    EXPECT_EQ(out.finishNs.at(3), InSwitchNs(d) + 300);
}

TEST(InSwitchCollective, HierarchicalRingThenSwitchThenRing)
{
    // localBWAware on 2 x 4: ring reduce-scatter on dimension 0, in-switch all-reduce
    // of the half on dimension 1, ring all-gather back on dimension 0.
    const uint64_t d = 4 * kMiB;
    const double gbps1 = 25;
    const double latency1 = 1000;
    const auto config = Config({"ring", "inNetwork"});
    auto out = RunCollectiveOnMembers(Network({{AnalyticalBlock::Switch, 2, kGbps, kLatency},
                                               {AnalyticalBlock::Switch, 4, gbps1, latency1}}),
                                      config,
                                      Plan(config, {2, 4}, d));
    const uint64_t half = d / 2;
    const uint64_t rs = kE + (Delta(half, 2) + kE) + Red(half);
    const uint64_t ar = InSwitchNs(half, gbps1, latency1);
    const uint64_t ag = kE + (Delta(half, 2) + kE);
    for (uint32_t r = 0; r < 8; ++r)
    {
        EXPECT_EQ(out.finishNs.at(r), rs + ar + ag);
        EXPECT_EQ(out.sent[r], half + half + half);
    }
}

TEST(InSwitchCollective, GroupOnOneDimensionUsesItsSwitch)
{
    // Ranks 0, 2, 4, 6 of 2 x 4 differ in dimension 1 only: a DP group across servers.
    const uint64_t d = kMiB;
    const auto config = Config({"ring", "inNetwork"});
    auto group = std::make_shared<const CommGroup>("dp", std::vector<uint32_t>{0, 2, 4, 6});
    auto out = RunCollectiveOnMembers(Network({{AnalyticalBlock::Switch, 2, kGbps, kLatency},
                                               {AnalyticalBlock::Switch, 4, 25, 1000}}),
                                      config,
                                      Plan(config, {2, 4}, d, group));
    for (uint32_t r : {0U, 2U, 4U, 6U})
    {
        EXPECT_EQ(out.finishNs.at(r), InSwitchNs(d, 25, 1000));
        EXPECT_EQ(out.received[r], d);
    }
    EXPECT_EQ(out.sent[1], 0U);
}

TEST(InSwitchCollective, RefusedWithoutASwitch)
{
    const auto config = Config({"nvls"});
    auto ring = Network({{AnalyticalBlock::Ring, 4, kGbps, kLatency}});
    CollectiveRunner runner(ring, config);
    auto plan = Plan(config, {4}, kMiB);
    for (uint32_t r = 0; r < 4; ++r)
    {
        runner.Start(r, 0, plan);
    }
    try
    {
        Simulator::Run();
        ADD_FAILURE() << "a ring dimension reduced in a switch";
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find("dimension 0 is a Ring and has no switch"),
                  std::string::npos)
            << e.what();
    }
    Simulator::Destroy();
}

TEST(InSwitchCollective, InSwitchAlgorithmsRunReductionsAndGathersNotAllToAll)
{
    auto plan = [](const std::string& algorithm, CollectiveType type)
    {
        SystemConfig config = Config({algorithm});
        config.reduceScatterImplementation = config.allReduceImplementation;
        config.allGatherImplementation = config.allReduceImplementation;
        config.allToAllImplementation = config.allReduceImplementation;
        CollectivePlanner planner(config, {4});
        CollectivePlanner::Request r;
        r.type = type;
        r.bytes = kMiB;
        r.where = "trace.et node 7";
        return planner.Plan(r);
    };
    for (CollectiveType type : {CollectiveType::ReduceScatter, CollectiveType::AllGather})
    {
        EXPECT_EQ(plan("nvls", type)->phases.at(0).algorithm.algorithm, CollectiveAlgorithm::Nvls);
        EXPECT_EQ(plan("inNetwork", type)->phases.at(0).algorithm.algorithm,
                  CollectiveAlgorithm::InNetwork);
    }
    auto refused = [&plan](const std::string& algorithm, CollectiveType type, const char* what)
    {
        try
        {
            plan(algorithm, type);
            ADD_FAILURE() << algorithm << " " << ToString(type) << " planned";
        }
        catch (const InputError& e)
        {
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
        }
    };
    refused("inNetwork",
            CollectiveType::AllToAll,
            "inNetwork cannot run ALL_TO_ALL, only ALL_REDUCE, REDUCE_SCATTER and ALL_GATHER");
    refused("nvls",
            CollectiveType::AllToAll,
            "nvls cannot run ALL_TO_ALL, only ALL_REDUCE, REDUCE_SCATTER and ALL_GATHER");
}

namespace
{

/** \return the plan of one \p type of \p bytes on \p n NPUs with nvls */
std::shared_ptr<const CollectivePlan>
NvlsPlan(CollectiveType type, uint32_t n, uint64_t bytes)
{
    SystemConfig config = Config({"nvls"});
    config.reduceScatterImplementation = config.allReduceImplementation;
    config.allGatherImplementation = config.allReduceImplementation;
    CollectivePlanner planner(config, {n});
    CollectivePlanner::Request r;
    r.type = type;
    r.bytes = bytes;
    r.where = "test";
    return planner.Plan(r);
}

} // namespace

// NVLS reduce-scatter: every rank sends its D up once and receives its D/n shard; the
// shards stream down as fast as the data comes up, so the phase costs what an all-reduce
// does, 2E + 2L + D/B (cut-through), against a ring's (n-1) steps of D/n. Store and
// forward: D up as one message, D/n down as another.
TEST(InSwitchCollective, NvlsReduceScatterSendsAllUpAndReceivesItsShard)
{
    const uint32_t n = 8;
    const uint64_t d = 4 * kMiB;
    const auto config = Config({"nvls"});
    auto unaware = RunCollectiveOnMembers(Network({{AnalyticalBlock::Switch, n, kGbps, kLatency}}),
                                          config,
                                          NvlsPlan(CollectiveType::ReduceScatter, n, d),
                                          1.0 / n);
    auto aware = RunCollectiveOnMembers(
        Network<CongestionAwareBackend>({{AnalyticalBlock::Switch, n, kGbps, kLatency}}),
        config,
        NvlsPlan(CollectiveType::ReduceScatter, n, d),
        1.0 / n);
    for (uint32_t r = 0; r < n; ++r)
    {
        EXPECT_EQ(unaware.finishNs.at(r), InSwitchNs(d)) << "rank " << r;
        EXPECT_EQ(aware.finishNs.at(r), 2 * kE + Delta(d, 1) + Delta(d / n, 1)) << "rank " << r;
        EXPECT_EQ(unaware.sent[r], d);
        EXPECT_EQ(unaware.received[r], d / n);
        EXPECT_EQ(aware.received[r], d / n);
    }
}

// NVLS all-gather: every rank sends its share S up once; the switch multicasts it to the
// n-1 others, so each rank receives (n-1) S = (n-1)/n of the output, streamed down at B:
// 2E + 2L + (n-1) S / B, the ring's bandwidth term with one latency instead of n-1.
TEST(InSwitchCollective, NvlsAllGatherMulticastsEveryShare)
{
    const uint32_t n = 8;
    const uint64_t share = kMiB / 2;
    const auto config = Config({"nvls"});
    auto unaware = RunCollectiveOnMembers(Network({{AnalyticalBlock::Switch, n, kGbps, kLatency}}),
                                          config,
                                          NvlsPlan(CollectiveType::AllGather, n, share),
                                          n - 1.0);
    auto aware = RunCollectiveOnMembers(
        Network<CongestionAwareBackend>({{AnalyticalBlock::Switch, n, kGbps, kLatency}}),
        config,
        NvlsPlan(CollectiveType::AllGather, n, share),
        n - 1.0);
    for (uint32_t r = 0; r < n; ++r)
    {
        EXPECT_EQ(unaware.finishNs.at(r), 2 * kE + Delta((n - 1) * share, 2)) << "rank " << r;
        EXPECT_EQ(aware.finishNs.at(r), 2 * kE + Delta(share, 1) + Delta((n - 1) * share, 1))
            << "rank " << r;
        EXPECT_EQ(unaware.sent[r], share);
        EXPECT_EQ(unaware.received[r], (n - 1) * share);
        EXPECT_EQ(aware.received[r], (n - 1) * share);
    }
}

TEST(InSwitchCollective, CongestionAwareStoresAndForwardsOnce)
{
    // Up as one message, down as one message: 2E + 2 (L + D/B), one link each way.
    const uint32_t n = 8;
    const uint64_t d = 4 * kMiB;
    const auto config = Config({"nvls"});
    auto out = RunCollectiveOnMembers(
        Network<CongestionAwareBackend>({{AnalyticalBlock::Switch, n, kGbps, kLatency}}),
        config,
        Plan(config, {n}, d));
    for (uint32_t r = 0; r < n; ++r)
    {
        EXPECT_EQ(out.finishNs.at(r), 2 * kE + 2 * Delta(d, 1));
        EXPECT_EQ(out.sent[r], d);
        EXPECT_EQ(out.received[r], d);
    }

    // An engine slower than the links adds its D/R after the last contribution is in.
    auto slow = Network<CongestionAwareBackend>({{AnalyticalBlock::Switch, n, kGbps, kLatency}});
    slow->SetAttribute("ReductionRate", DataRateValue(DataRate("100Gbps")));
    out = RunCollectiveOnMembers(slow, config, Plan(config, {n}, d));
    const auto engineNs = static_cast<uint64_t>(d / 12.5);
    EXPECT_EQ(out.finishNs.at(0), 2 * kE + 2 * Delta(d, 1) + engineNs);
}

TEST(InSwitchCollective, CongestionAwareRefusesRanksWithoutACommonSwitch)
{
    const auto config = Config({"inNetwork"});
    auto ring = Network<CongestionAwareBackend>({{AnalyticalBlock::Ring, 4, kGbps, kLatency}});
    CollectiveRunner runner(ring, config);
    auto plan = Plan(config, {4}, kMiB);
    for (uint32_t r = 0; r < 4; ++r)
    {
        runner.Start(r, 0, plan);
    }
    try
    {
        Simulator::Run();
        ADD_FAILURE() << "a ring reduced in a switch";
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find("over ranks 0,1,2,3: no switch is linked to every"),
                  std::string::npos)
            << e.what();
    }
    Simulator::Destroy();
}
