/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The analytical backends built from a Fabric: the congestion-aware model walks the
// routed links of a Clos (closed form of one message across the spine, a routed ring
// all-reduce, ECMP by the packet level's flow hash), follows ASTRA-sim's route on a
// fabric of ASTRA-sim dimensions, and the congestion-unaware model refuses fabrics
// without dimensions by name.
#include "ns3/analytical-backend-factory.h"
#include "ns3/analytical-fabric-dimensions.h"
#include "ns3/analytical-paths.h"
#include "ns3/analytical-router.h"
#include "ns3/clos-builder.h"
#include "ns3/collective-planner.h"
#include "ns3/collective-runner.h"
#include "ns3/congestion-aware-backend.h"
#include "ns3/fabric-loader.h"
#include "ns3/fabric-routing.h"
#include "ns3/input-error.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

#include <set>

using namespace ns3;

namespace
{

const std::string kClos32 = std::string(MLFABRIC_SOURCE_DIR) + "/fabrics/clos-2tier-32.yaml";
constexpr uint64_t kMiB = 1048576;

/** The congestion-aware backend on a fabric with its own routing. */
Ptr<CongestionAwareBackend>
AwareOn(const Fabric& fabric, RoutingAlgorithm routing = RoutingAlgorithm::ShortestPath)
{
    return DynamicCast<CongestionAwareBackend>(
        CreateAnalyticalBackend(AnalyticalModel::CongestionAware,
                                fabric,
                                ComputeRouting(fabric, routing),
                                1.0,
                                fabric.GetName()));
}

/** Arrival time of one message sent alone at t = 0, ns. */
uint64_t
OneMessageNs(Ptr<NetworkBackend> backend, uint32_t src, uint32_t dst, uint64_t bytes)
{
    uint64_t arrived = 0;
    backend->Send({src, dst, bytes, 0},
                  nullptr,
                  [&](const NetworkBackend::Message&)
                  { arrived = Simulator::Now().GetNanoSeconds(); });
    Simulator::Run();
    Simulator::Destroy();
    return arrived;
}

/**
 * One store-and-forward crossing as the model defines it: latency + bytes / rate,
 * truncated to whole ns (here with a whole-ns latency and a rate in Gb/s).
 */
uint64_t
CrossingNs(uint64_t bytes, uint64_t gbitPerSecond, uint64_t latencyNs)
{
    return latencyNs + bytes * 8 / gbitPerSecond;
}

/** A two-tier Clos of one host per leaf: every ring neighbour is across the spine. */
Fabric
OneHostPerLeaf(uint32_t hosts)
{
    ClosSpec spec;
    spec.hostsPerLeaf = 1;
    spec.spines = 2;
    spec.hostLink.rateBps = 100000000000ULL;
    spec.hostLink.delayPs = 1000000;
    spec.leafLink = spec.hostLink;
    return BuildClos("clos-1x" + std::to_string(hosts), hosts, spec);
}

} // namespace

TEST(AnalyticalOnClos, OneMessageAcrossTheSpineIsTheSumOfItsLinks)
{
    const LoadedFabric loaded = LoadFabric(kClos32);
    // Host links 100 Gb/s, leaf-spine 400 Gb/s, 1 us each; hosts 0-7 on leaf 0.
    const uint64_t host = CrossingNs(kMiB, 100, 1000);
    const uint64_t spine = CrossingNs(kMiB, 400, 1000);
    auto across = AwareOn(loaded.fabric);
    EXPECT_EQ(across->GetEcmpChoice(), EcmpChoice::FlowHash);
    EXPECT_EQ(OneMessageNs(across, 0, 8, kMiB), 2 * host + 2 * spine); // 213714 ns
    EXPECT_EQ(across->GetLinkCount(), 4U);
    auto sameLeaf = AwareOn(loaded.fabric);
    EXPECT_EQ(OneMessageNs(sameLeaf, 0, 1, kMiB), 2 * host);
    EXPECT_EQ(sameLeaf->GetLinkCount(), 2U);
}

TEST(AnalyticalOnClos, EcmpSpreadsFlowsOverBothSpinesDeterministically)
{
    const LoadedFabric loaded = LoadFabric(kClos32);
    const Fabric& fabric = loaded.fabric;
    const RoutingTable routes = ComputeRouting(fabric, loaded.routing);
    const AnalyticalPaths paths(fabric, routes);
    uint32_t viaSpine0 = 0;
    uint32_t crossLeaf = 0;
    for (uint32_t s = 0; s < 32; ++s)
    {
        for (uint32_t d = 0; d < 32; ++d)
        {
            if (s == d)
            {
                continue;
            }
            const auto path = paths.Walk(s, d, 0, 0);
            EXPECT_EQ(path, paths.Walk(s, d, 0, 0));
            ASSERT_EQ(path.size(), s / 8 == d / 8 ? 2U : 4U) << s << " -> " << d;
            if (path.size() == 4)
            {
                ++crossLeaf;
                const FabricLink& up = fabric.GetLink(AnalyticalPaths::LinkOf(path[1]));
                viaSpine0 += fabric.GetNode(up.nodeA).name == "spine0" ||
                             fabric.GetNode(up.nodeB).name == "spine0";
            }
        }
    }
    EXPECT_EQ(crossLeaf, 32U * 24U);
    EXPECT_GT(viaSpine0, crossLeaf * 4 / 10);
    EXPECT_LT(viaSpine0, crossLeaf * 6 / 10);
}

TEST(AnalyticalOnClos, RoutedRingAllReduceHasTheRingClosedForm)
{
    // Ring_4chunks.json on 8 hosts, one per leaf: every ring step crosses host, leaf,
    // spine and leaf links, and no two ring messages share a link direction.
    const std::string data = std::string(MLFABRIC_SHARED_DIR) + "/data/astra-sim/";
    const SystemConfig config =
        LoadSystemConfig(data + "system/native_collectives/Ring_4chunks.json");
    const uint32_t n = 8;
    const Fabric fabric = OneHostPerLeaf(n);
    CollectivePlanner planner(config, {n});
    CollectivePlanner::Request request;
    request.type = CollectiveType::AllReduce;
    request.bytes = kMiB;
    request.where = "test";
    const auto plan = planner.Plan(request);
    ASSERT_EQ(plan->chunkCount, 4U);
    const uint64_t bytes = plan->chunkBytes / n;
    const uint64_t e = config.GetEndpointDelayNs();
    const uint64_t delta = 4 * CrossingNs(bytes, 100, 1000);
    const uint64_t reduce = 3 * static_cast<uint64_t>(bytes / config.localMemBwGBps);
    const uint64_t perChunk = e + 2 * (n - 1) * (delta + e) + (n - 1) * reduce;

    auto backend = AwareOn(fabric);
    CollectiveRunner runner(backend, config);
    std::vector<uint64_t> finish(n, 0);
    runner.SetFinishedCallback([&](uint32_t rank, uint32_t)
                               { finish[rank] = Simulator::Now().GetNanoSeconds(); });
    for (uint32_t rank = 0; rank < n; ++rank)
    {
        runner.Start(rank, 0, plan);
    }
    Simulator::Run();
    Simulator::Destroy();
    for (uint32_t rank = 0; rank < n; ++rank)
    {
        EXPECT_EQ(finish[rank], 4 * perChunk) << "rank " << rank;
        EXPECT_EQ(runner.GetBytesSent(rank), 4 * 2 * (n - 1) * bytes);
    }
    EXPECT_EQ(backend->GetDeliveredBytes(), 4 * 2 * (n - 1) * bytes * n);
    // Each host's up and down link, and one leaf-spine direction per leaf each way.
    EXPECT_EQ(backend->GetLinkCount(), 4U * n);
}

TEST(AnalyticalOnClos, TheCongestionUnawareModelRefusesItByName)
{
    const LoadedFabric loaded = LoadFabric(kClos32);
    try
    {
        CreateAnalyticalBackend(AnalyticalModel::CongestionUnaware,
                                loaded.fabric,
                                ComputeRouting(loaded.fabric, loaded.routing),
                                1.0,
                                kClos32);
        FAIL() << "no error";
    }
    catch (const InputError& e)
    {
        const std::string what = e.what();
        for (const std::string& f : std::vector<std::string>{
                 kClos32, "fabric 'clos-2tier-32'", "Clos", "congestion-aware"})
        {
            EXPECT_NE(what.find(f), std::string::npos) << what;
        }
    }
    EXPECT_THROW(CreateAnalyticalBackend(AnalyticalModel::CongestionAware,
                                         loaded.fabric,
                                         ComputeRouting(loaded.fabric, loaded.routing),
                                         0.0,
                                         kClos32),
                 InputError);
}

TEST(AnalyticalOnDimensions, LowestDimensionIsAstraSimsRoute)
{
    // Every pair: the routed path through the fabric visits the NPUs and dimensions of
    // ASTRA-sim's route (AnalyticalRouter), ties in a ring going clockwise.
    for (const AnalyticalTopology& t :
         {AnalyticalTopology({{AnalyticalBlock::Ring, 8, 50, 500}}),
          AnalyticalTopology(
              {{AnalyticalBlock::Ring, 4, 50, 500}, {AnalyticalBlock::Ring, 4, 50, 500}}),
          AnalyticalTopology({{AnalyticalBlock::Ring, 4, 50, 500},
                              {AnalyticalBlock::Switch, 2, 100, 100},
                              {AnalyticalBlock::FullyConnected, 3, 25, 10}})})
    {
        const Fabric fabric = MakeDimensionFabric(t, "dims");
        const RoutingTable routes = ComputeRouting(fabric, RoutingAlgorithm::ShortestPath);
        const AnalyticalPaths paths(fabric, routes);
        ASSERT_EQ(paths.GetEcmpChoice(), EcmpChoice::LowestDimension);
        AnalyticalRouter router(t, true);
        const uint32_t kSwitch = 0xFFFFFFFF;
        for (uint32_t s = 0; s < t.GetNpuCount(); ++s)
        {
            for (uint32_t d = 0; d < t.GetNpuCount(); ++d)
            {
                std::vector<std::pair<uint32_t, uint32_t>> astra;
                for (const auto& hop : router.Route(s, d))
                {
                    astra.emplace_back(hop.dimension, hop.to < t.GetNpuCount() ? hop.to : kSwitch);
                }
                std::vector<std::pair<uint32_t, uint32_t>> walked;
                for (uint32_t directed : paths.Walk(s, d, 0, 0))
                {
                    const FabricLink& link = fabric.GetLink(AnalyticalPaths::LinkOf(directed));
                    const uint32_t to = directed % 2 == 0 ? link.nodeB : link.nodeA;
                    walked.emplace_back(static_cast<uint32_t>(link.dimension),
                                        fabric.IsNpu(to) ? fabric.GetNode(to).rank : kSwitch);
                }
                EXPECT_EQ(walked, astra) << s << " -> " << d;
            }
        }
    }
}

TEST(AnalyticalOnDimensions, FollowsTheFabricsOwnRouting)
{
    // Dimension-order tables cross a 4-ring from 3 to 1 downward (never through 0);
    // ASTRA-sim's shortest route on a tie goes clockwise through 0. Same length, and
    // the backend follows the table it is given.
    const Fabric fabric =
        MakeDimensionFabric(AnalyticalTopology({{AnalyticalBlock::Ring, 4, 50, 500}}), "r4");
    const RoutingTable dor = ComputeRouting(fabric, RoutingAlgorithm::DimensionOrder);
    const AnalyticalPaths paths(fabric, dor);
    const auto path = paths.Walk(3, 1, 0, 0);
    ASSERT_EQ(path.size(), 2U);
    const FabricLink& first = fabric.GetLink(AnalyticalPaths::LinkOf(path[0]));
    const uint32_t to = path[0] % 2 == 0 ? first.nodeB : first.nodeA;
    EXPECT_EQ(fabric.GetNode(to).rank, 2U);
    auto backend = AwareOn(fabric, RoutingAlgorithm::DimensionOrder);
    const uint64_t hop = 500 + static_cast<uint64_t>(kMiB / AnalyticalTopology::ToBytesPerNs(50));
    EXPECT_EQ(OneMessageNs(backend, 3, 1, kMiB), 2 * hop);
}
