/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ASTRA-sim's microbenchmark traces end to end without a replay engine: each rank's
// single COMM_COLL node is read with the ET reader, planned with Ring_4chunks.json on
// Ring_<N>npus.yml, and run on both analytical networks. Completion on every rank,
// conservation of bytes and the closed-form time of the ring are checked.
#include "ns3/collective-planner.h"
#include "ns3/collective-runner.h"
#include "ns3/congestion-aware-backend.h"
#include "ns3/congestion-unaware-backend.h"
#include "ns3/et-reader.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace ns3;

namespace
{

const std::string kData = std::string(MLFABRIC_SHARED_DIR) + "/data/astra-sim/";

/** The COMM_COLL node of one rank's trace. */
EtNode
CollectiveNode(const std::string& path)
{
    EtReader reader(path);
    EtNode node;
    while (reader.ReadNode(node))
    {
        if (node.type == EtNodeType::COMM_COLL_NODE)
        {
            return node;
        }
    }
    ADD_FAILURE() << path << " has no COMM_COLL node";
    return node;
}

/** Completion time of one ring phase of `steps` messages of `bytes` (no contention). */
uint64_t
RingPhaseNs(const SystemConfig& config, uint32_t steps, uint64_t bytes, uint32_t reductions)
{
    const uint64_t e = config.GetEndpointDelayNs();
    const uint64_t delta = static_cast<uint64_t>(
        500.0 + static_cast<double>(bytes) / AnalyticalTopology::ToBytesPerNs(50.0));
    const uint64_t reduce = 3 * static_cast<uint64_t>(bytes / config.localMemBwGBps);
    return e + steps * (delta + e) + reductions * reduce;
}

struct Case
{
    std::string collective;
    uint32_t npus;
};

class Microbenchmark : public testing::TestWithParam<Case>
{
};

} // namespace

TEST_P(Microbenchmark, CompletesEverywhereInRingTime)
{
    const Case c = GetParam();
    const std::string dir = kData + "workload/microbenchmarks/" + c.collective + "/" +
                            std::to_string(c.npus) + "npus_1MB/";
    const SystemConfig config =
        LoadSystemConfig(kData + "system/native_collectives/Ring_4chunks.json");
    const AnalyticalTopology topology = AnalyticalTopology::LoadYaml(
        kData + "network/analytical/Ring_" + std::to_string(c.npus) + "npus.yml");
    CollectivePlanner planner(config, topology.GetNpusPerDimension());

    std::vector<std::shared_ptr<const CollectivePlan>> plans;
    for (uint32_t rank = 0; rank < c.npus; ++rank)
    {
        const std::string path = dir + c.collective + "." + std::to_string(rank) + ".et";
        const EtNode node = CollectiveNode(path);
        CollectivePlanner::Request request;
        request.type = CollectiveTypeFromChakra(static_cast<int64_t>(node.commType), path);
        request.bytes = node.commSize;
        request.where = path;
        plans.push_back(planner.Plan(request));
        EXPECT_EQ(node.commSize, 1048576U);
    }
    const CollectivePlan& plan = *plans[0];
    ASSERT_EQ(plan.chunkCount, 4U);
    ASSERT_EQ(plan.chunkBytes, 262144U);

    const uint32_t n = c.npus;
    uint64_t perChunk = 0;
    uint64_t bytesPerRank = 0;
    const uint64_t chunk = plan.chunkBytes;
    switch (plan.type)
    {
    case CollectiveType::AllReduce:
        perChunk = RingPhaseNs(config, 2 * (n - 1), chunk / n, n - 1);
        bytesPerRank = 2 * (n - 1) * (chunk / n);
        break;
    case CollectiveType::ReduceScatter:
        perChunk = RingPhaseNs(config, n - 1, chunk / n, n - 1);
        bytesPerRank = (n - 1) * (chunk / n);
        break;
    case CollectiveType::AllGather:
        perChunk = RingPhaseNs(config, n - 1, chunk, 0);
        bytesPerRank = (n - 1) * chunk;
        break;
    default:
        perChunk = RingPhaseNs(config, n * (n - 1) / 2, chunk / n, 0);
        bytesPerRank = n * (n - 1) / 2 * (chunk / n);
        break;
    }

    for (bool aware : {false, true})
    {
        SCOPED_TRACE(aware ? "congestion-aware" : "congestion-unaware");
        Ptr<AnalyticalBackend> backend;
        if (aware)
        {
            backend = CreateObject<CongestionAwareBackend>();
        }
        else
        {
            backend = CreateObject<CongestionUnawareBackend>();
        }
        backend->SetTopology(topology);
        CollectiveRunner runner(backend, config);
        std::vector<uint64_t> finish(n, 0);
        runner.SetFinishedCallback([&](uint32_t rank, uint32_t)
                                   { finish[rank] = Simulator::Now().GetNanoSeconds(); });
        for (uint32_t rank = 0; rank < n; ++rank)
        {
            runner.Start(rank, 0, plans[rank]);
        }
        Simulator::Run();
        Simulator::Destroy();
        for (uint32_t rank = 0; rank < n; ++rank)
        {
            EXPECT_EQ(finish[rank], 4 * perChunk) << "rank " << rank;
            EXPECT_EQ(runner.GetBytesSent(rank), 4 * bytesPerRank);
            EXPECT_EQ(runner.GetBytesReceived(rank), 4 * bytesPerRank);
        }
        EXPECT_EQ(backend->GetDeliveredBytes(), 4 * bytesPerRank * n);
    }
}

INSTANTIATE_TEST_SUITE_P(AstraSim,
                         Microbenchmark,
                         testing::Values(Case{"all_reduce", 4},
                                         Case{"all_reduce", 8},
                                         Case{"all_reduce", 16},
                                         Case{"all_gather", 4},
                                         Case{"all_gather", 8},
                                         Case{"all_gather", 16},
                                         Case{"reduce_scatter", 4},
                                         Case{"reduce_scatter", 8},
                                         Case{"reduce_scatter", 16},
                                         Case{"all_to_all", 4},
                                         Case{"all_to_all", 8},
                                         Case{"all_to_all", 16}),
                         [](const testing::TestParamInfo<Case>& info)
                         { return info.param.collective + "_" + std::to_string(info.param.npus); });
