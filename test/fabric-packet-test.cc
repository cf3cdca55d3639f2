/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Fabric descriptions at packet level, driven through the workload-network seam.

#include "ns3/config.h"
#include "ns3/fabric-installer.h"
#include "ns3/fabric-routing.h"
#include "ns3/multi-dim-builder.h"
#include "ns3/rdma-backend-attach.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

#include <map>
#include <tuple>

using namespace ns3;

namespace
{

/** A Switch 4 x Ring 4 fabric: 16 NPUs, servers of 4 on a switch, rings across servers. */
Fabric
SwitchByRing()
{
    LinkSettings link;
    link.rateBps = 100'000'000'000;
    link.delayPs = 500'000;
    DimensionSpec scaleUp{DimensionTopology::Switch, 4, link, "scale-up"};
    DimensionSpec ring{DimensionTopology::Ring, 4, link, "ring"};
    return BuildMultiDim("switch4-ring4", {scaleUp, ring});
}

/** Every rank sends \p bytes to every other; returns bytes seen arriving per (src, dst). */
std::map<std::pair<uint32_t, uint32_t>, uint64_t>
AllToAll(RoutingAlgorithm algorithm, uint64_t bytes, uint64_t& sentCount, uint64_t& pending)
{
    const Fabric fabric = SwitchByRing();
    const RoutingTable routes = ComputeRouting(fabric, algorithm);
    RoceNetwork net;
    const auto rankNode = InstallFabric(fabric, routes, net, 4096);
    auto backend = CreateObject<RdmaNetworkBackend>();
    AttachRoceNetwork(backend, net, rankNode);

    std::map<std::pair<uint32_t, uint32_t>, uint64_t> arrived;
    sentCount = 0;
    const uint32_t n = backend->GetRankCount();
    for (uint32_t src = 0; src < n; ++src)
    {
        for (uint32_t dst = 0; dst < n; ++dst)
        {
            if (src == dst)
            {
                continue;
            }
            NetworkBackend::Message m{src, dst, bytes, src * 100 + dst};
            backend->Send(
                m,
                [&sentCount](const NetworkBackend::Message&) { ++sentCount; },
                [&arrived](const NetworkBackend::Message& msg)
                {
                    EXPECT_EQ(msg.tag, msg.src * 100 + msg.dst);
                    arrived[{msg.src, msg.dst}] += msg.bytes;
                });
        }
    }
    Simulator::Run();
    pending = backend->GetPendingCount();
    uint64_t delivered = 0;
    for (uint32_t node : rankNode)
    {
        delivered += net.GetNic(node)->GetCounters().deliveredBytes;
    }
    EXPECT_EQ(delivered, bytes * n * (n - 1));
    Simulator::Destroy();
    return arrived;
}

} // namespace

// Issue acceptance: a packet-level all-to-all on Switch 4 x Ring 4 delivers every byte.
TEST(FabricPacketLevel, AllToAllOnSwitchByRingDeliversEveryByte)
{
    for (auto algorithm : {RoutingAlgorithm::DimensionOrder, RoutingAlgorithm::ShortestPath})
    {
        const uint64_t bytes = 64 * 1024;
        uint64_t sent = 0;
        uint64_t pending = 0;
        const auto arrived = AllToAll(algorithm, bytes, sent, pending);
        EXPECT_EQ(arrived.size(), 16u * 15u) << GetRoutingAlgorithmName(algorithm);
        for (const auto& [pair, got] : arrived)
        {
            EXPECT_EQ(got, bytes) << pair.first << "->" << pair.second;
        }
        EXPECT_EQ(sent, 16u * 15u);
        EXPECT_EQ(pending, 0u);
    }
}

// An NPU reaches a server peer through its scale-up port or its scale-out NIC (equal hop
// counts under shortest-path routing): each queue pair's base RTT is that of its own port.
TEST(FabricPacketLevel, BaseRttFollowsTheQueuePairsPort)
{
    LinkSettings scaleUp;
    scaleUp.rateBps = 1'600'000'000'000;
    scaleUp.delayPs = 25'000;
    Fabric fabric = BuildMultiDim("server", {DimensionSpec{DimensionTopology::Switch, 4, scaleUp}});
    LinkSettings nic;
    nic.rateBps = 200'000'000'000;
    nic.delayPs = 500'000;
    const uint32_t leaf = fabric.AddSwitch("leaf", "leaf", 1);
    for (uint32_t r = 0; r < 4; ++r)
    {
        fabric.AddLink(fabric.GetNpuNode(r), leaf, nic);
    }
    const RoutingTable routes = ComputeRouting(fabric, RoutingAlgorithm::ShortestPath);
    RoceNetwork net;
    const auto rankNode = InstallFabric(fabric, routes, net, 4096);
    ASSERT_EQ(net.GetNic(rankNode[0])->GetRoute(rankNode[1]).size(), 2u);

    std::map<uint64_t, Time> rttOfRate;
    for (int i = 0; i < 16; ++i)
    {
        Ptr<RdmaQueuePair> qp = net.Connect(rankNode[0], rankNode[1], 3);
        const uint64_t rate = qp->GetLineRateBps();
        EXPECT_EQ(qp->GetBaseRtt(), net.GetBaseRtt(rankNode[0], rankNode[1], qp->GetPort()));
        EXPECT_TRUE(rttOfRate.emplace(rate, qp->GetBaseRtt()).first->second == qp->GetBaseRtt());
    }
    ASSERT_EQ(rttOfRate.size(), 2u) << "the hash should use both ports";
    // Two 500 ns cables against two 25 ns ones, and 8x slower serialization.
    EXPECT_GT(rttOfRate.at(nic.rateBps), rttOfRate.at(scaleUp.rateBps) + NanoSeconds(1800));
    Simulator::Destroy();
}
