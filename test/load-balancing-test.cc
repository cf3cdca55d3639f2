/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Load balancing at switches: each scheme's choice on its own (adaptive takes the
// emptier port, spraying covers the ports evenly, flowlets keep a flow's port within
// the gap), and on fat-tree-k4 permutation traffic: per-flow ECMP finishes when its most
// shared link has carried its flows one after another (k flows on a link: k times the
// busiest host link at line rate), spraying near the single-flow time.

#include "latency-premise.h"

#include "ns3/config.h"
#include "ns3/load-balancer.h"
#include "ns3/nstime.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/traffic-scenario.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const std::string kSource = MLFABRIC_SOURCE_DIR;

/** Queue bytes set by the test. */
class FixedLoad : public EgressLoad
{
  public:
    std::map<uint32_t, uint64_t> bytes; //!< port -> bytes queued

    uint64_t
    GetQueueBytes(uint32_t port) const override
    {
        auto it = bytes.find(port);
        return it == bytes.end() ? 0 : it->second;
    }
};

RoceHeader
DataFrom(uint32_t src, uint32_t qp, uint32_t dst)
{
    RoceHeader h;
    h.type = RoceHeader::DATA;
    h.src = src;
    h.srcQp = qp;
    h.dst = dst;
    return h;
}

class LoadBalancingTest : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

TEST_F(LoadBalancingTest, AdaptiveTakesTheEmptierPort)
{
    auto lb = CreateObject<AdaptiveBalancer>();
    lb->AssignStreams(1);
    FixedLoad load;
    load.bytes = {{4, 9000}, {7, 300}, {9, 4500}};
    const std::vector<uint32_t> ports{4, 7, 9};
    const RoceHeader h = DataFrom(0, 0, 5);
    for (uint32_t i = 0; i < 100; ++i)
    {
        EXPECT_EQ(lb->Choose(h, ports, i, load), 7u);
    }
    // Equal queues: every tied port is taken, none other.
    load.bytes = {{4, 100}, {7, 5000}, {9, 100}};
    std::map<uint32_t, uint32_t> taken;
    for (uint32_t i = 0; i < 1000; ++i)
    {
        ++taken[lb->Choose(h, ports, 0, load)];
    }
    EXPECT_EQ(taken.count(7), 0u);
    EXPECT_GT(taken[4], 400u);
    EXPECT_GT(taken[9], 400u);
}

TEST_F(LoadBalancingTest, SprayCoversThePortsEvenly)
{
    const std::vector<uint32_t> ports{1, 2, 3, 4};
    FixedLoad load;
    const RoceHeader h = DataFrom(3, 1, 8);

    auto rr = CreateObject<SprayBalancer>();
    rr->SetAttribute("Order", StringValue("RoundRobin"));
    for (uint32_t i = 0; i < 12; ++i)
    {
        EXPECT_EQ(rr->Choose(h, ports, 0, load), ports[i % 4]) << "packet " << i;
    }

    auto random = CreateObject<SprayBalancer>();
    random->AssignStreams(7);
    std::map<uint32_t, uint32_t> taken;
    const uint32_t n = 40000;
    for (uint32_t i = 0; i < n; ++i)
    {
        ++taken[random->Choose(h, ports, 0, load)];
    }
    // Binomial(n, 1/4): sd = sqrt(n 3/16) = 87; 5 sd either side.
    for (const uint32_t p : ports)
    {
        EXPECT_NEAR(taken[p], n / 4.0, 5 * 87.0) << "port " << p;
    }
}

TEST_F(LoadBalancingTest, EcmpFollowsTheHash)
{
    auto lb = CreateObject<EcmpBalancer>();
    FixedLoad load;
    load.bytes = {{5, 1 << 20}};
    const std::vector<uint32_t> ports{5, 6, 7};
    for (uint32_t hash = 0; hash < 30; ++hash)
    {
        EXPECT_EQ(lb->Choose(DataFrom(0, 0, 1), ports, hash, load), ports[hash % 3]);
    }
    EXPECT_EQ(lb->AssignStreams(3), 0);
}

TEST_F(LoadBalancingTest, FlowletKeepsItsPortWithinTheGap)
{
    auto lb = CreateObject<FlowletBalancer>();
    lb->SetAttribute("Gap", TimeValue(MicroSeconds(10)));
    lb->AssignStreams(11);
    const std::vector<uint32_t> ports{0, 1, 2, 3, 4, 5, 6, 7};
    FixedLoad load;
    std::vector<uint32_t> chosen;
    // A flow sends every 1 us for 50 us, pauses 20 us, 25 times: a packet inside a
    // burst never changes port (no reordering); each burst is one flowlet.
    Time at;
    for (uint32_t burst = 0; burst < 25; ++burst)
    {
        for (uint32_t k = 0; k < 50; ++k)
        {
            Simulator::Schedule(at,
                                [&, burst]()
                                {
                                    const uint32_t p =
                                        lb->Choose(DataFrom(2, 4, 9), ports, 0, load);
                                    chosen.push_back(burst * 100 + p);
                                });
            at += MicroSeconds(1);
        }
        at += MicroSeconds(20);
    }
    Simulator::Run();
    ASSERT_EQ(chosen.size(), 25u * 50u);
    std::map<uint32_t, uint32_t> portOfBurst;
    for (const uint32_t c : chosen)
    {
        const auto it = portOfBurst.emplace(c / 100, c % 100).first;
        EXPECT_EQ(it->second, c % 100) << "burst " << c / 100;
    }
    EXPECT_EQ(lb->GetFlowlets(), 25u);
    // 25 draws among 8 ports: a single port for all would be 8^-24.
    std::map<uint32_t, uint32_t> distinct;
    for (const auto& [burst, port] : portOfBurst)
    {
        ++distinct[port];
    }
    EXPECT_GT(distinct.size(), 1u);
}

/**
 * One packet's way across fat-tree-k4 between pods, unloaded: six 1 us links, and the
 * five switches each receive a whole 4096 B frame before sending it.
 */
double
FatTreeLatencySeconds()
{
    RoceHeader h;
    h.type = RoceHeader::DATA;
    h.payload = 4096;
    return 6 * 1e-6 + 5 * h.GetWireBytes() * 8 / 100e9;
}

TrafficResult
Permutation(const std::string& lb, const std::string& transport, uint64_t bytes, uint64_t seed)
{
    // The closed forms below count cables and store-and-forward serialization only.
    WithoutSwitchAndNicLatency();
    Config::SetDefault("ns3::RoceSwitch::LoadBalancer", TypeIdValue(LoadBalancerTypeId(lb)));
    Config::SetDefault("ns3::SprayBalancer::Order", StringValue("RoundRobin"));
    Config::SetDefault("ns3::RdmaNic::Transport", StringValue(transport));
    TrafficConfig config;
    config.fabricPath = kSource + "/fabrics/fat-tree-k4.yaml";
    config.pattern = TrafficPattern::PERMUTATION;
    config.messageBytes = bytes;
    config.seed = seed;
    config.stopTime = MilliSeconds(50);
    TrafficResult r = RunTraffic(config);
    Config::Reset();
    return r;
}

TEST_F(LoadBalancingTest, EcmpCollisionsAgainstSprayingOnFatTree)
{
    const uint64_t bytes = 512 * 1024;
    const TrafficResult ecmp = Permutation("ecmp", "GoBackN", bytes, 1);
    const TrafficResult spray = Permutation("spray", "SelectiveRepeat", bytes, 1);
    ASSERT_EQ(ecmp.bytesDelivered, ecmp.bytesExpected);
    ASSERT_EQ(spray.bytesDelivered, spray.bytesExpected);
    EXPECT_EQ(ecmp.idealCompletionPs, spray.idealCompletionPs);
    const double ideal = ecmp.idealCompletionPs * 1e-12;
    const double latency = FatTreeLatencySeconds();

    // ECMP: every flow keeps one path, so the busiest switch-to-switch link carries whole
    // flows; with k of them it is busy k times one flow's time, which is the tail.
    const double busiestFabricSeconds = ecmp.maxFabricUtilization * ecmp.completion.GetSeconds();
    const double sharing = busiestFabricSeconds / ideal;
    EXPECT_NEAR(sharing, std::round(sharing), 0.05) << "whole flows per link";
    ASSERT_GE(std::round(sharing), 2.0) << "this draw has an ECMP collision";
    EXPECT_GE(ecmp.completion.GetSeconds(), 0.98 * std::round(sharing) * ideal);
    EXPECT_EQ(ecmp.outOfOrderBytes, 0u);

    // Spraying in round robin: every link carries its share, the tail is one flow's
    // time at line rate plus the unloaded latency, within 5 %.
    EXPECT_LT(spray.completion.GetSeconds(), 1.05 * (ideal + latency));
    EXPECT_GE(spray.completion.GetSeconds(), ideal + latency * 0.9);
    EXPECT_LT(spray.maxFabricUtilization, 1.0);
    EXPECT_LT(spray.completion, ecmp.completion);
}

TEST_F(LoadBalancingTest, FlowletsDoNotReorderContinuousFlows)
{
    // Flows that never pause for a flowlet gap never change path: go-back-N sees no
    // reordering, and each flow's path is one random draw per switch.
    const TrafficResult r = Permutation("flowlet", "GoBackN", 256 * 1024, 3);
    ASSERT_EQ(r.bytesDelivered, r.bytesExpected);
    EXPECT_EQ(r.outOfOrderBytes, 0u);
    EXPECT_EQ(r.retransmittedBytes, 0u);
}

TEST_F(LoadBalancingTest, EntropiesSpreadOneQueuePairUnderEcmp)
{
    // Several entropy values per queue pair: per-flow ECMP hashes each packet's value, so
    // one QP takes several paths. The collisions of one path per flow go, and the paths'
    // different queues reorder: go-back-N now drops packets, selective repeat keeps them.
    const uint64_t bytes = 512 * 1024;
    const TrafficResult one = Permutation("ecmp", "SelectiveRepeat", bytes, 1);
    Config::SetDefault("ns3::RdmaQueuePair::Entropies", UintegerValue(8));
    const TrafficResult eightSr = Permutation("ecmp", "SelectiveRepeat", bytes, 1);
    Config::SetDefault("ns3::RdmaQueuePair::Entropies", UintegerValue(8));
    const TrafficResult eightGbn = Permutation("ecmp", "GoBackN", bytes, 1);
    ASSERT_EQ(eightSr.bytesDelivered, eightSr.bytesExpected);
    ASSERT_EQ(eightGbn.bytesDelivered, eightGbn.bytesExpected);
    EXPECT_EQ(one.outOfOrderBytes, 0u);
    EXPECT_EQ(eightSr.outOfOrderBytes, 0u);
    EXPECT_GT(eightGbn.outOfOrderBytes, 0u);
    EXPECT_LT(eightSr.completion, one.completion);
}

} // namespace
