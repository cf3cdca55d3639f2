/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The flow level's ECMP paths are the packet level's: on the 32-host Clos (4 leaves, 2
// spines), the payload every directed link carries at packet level equals the payload
// of the messages whose flow-level data path crosses it, for halving-doubling partners
// across leaves and random pairs, several messages per queue pair.
#include "ns3/fabric-installer.h"
#include "ns3/fabric-loader.h"
#include "ns3/fabric-routing.h"
#include "ns3/flow-backend.h"
#include "ns3/rdma-backend-attach.h"
#include "ns3/rdma-network-backend.h"
#include "ns3/roce-port.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

using namespace ns3;

TEST(FlowPaths, EveryLinkCarriesThePayloadThePacketLevelPutsOnIt)
{
    const LoadedFabric loaded =
        LoadFabric(std::string(MLFABRIC_SOURCE_DIR) + "/fabrics/clos-2tier-32.yaml");
    const Fabric& fabric = loaded.fabric;
    const RoutingTable routes = ComputeRouting(fabric, loaded.routing);
    std::vector<NetworkBackend::Message> messages;
    for (uint32_t r = 0; r < 32; ++r)
    {
        messages.push_back({r, r ^ 8, 40960, 0});
        messages.push_back({r, r ^ 16, 20480, 0});
    }
    std::mt19937 rng(11);
    for (uint32_t i = 0; i < 64; ++i)
    {
        const uint32_t src = rng() % 32;
        messages.push_back({src,
                            static_cast<uint32_t>((src + 1 + rng() % 31) % 32),
                            static_cast<uint32_t>(4096 * (1 + rng() % 8)),
                            0});
    }

    // Packet level: the payload each directed link's sending port put on the wire.
    std::vector<uint64_t> packet(2 * fabric.GetLinkCount(), 0);
    {
        RoceNetwork net;
        const auto rankNode = InstallFabric(fabric, routes, net, 4096);
        auto backend = CreateObject<RdmaNetworkBackend>();
        AttachRoceNetwork(backend, net, rankNode);
        for (const auto& m : messages)
        {
            backend->Send(m, nullptr, nullptr);
        }
        Simulator::Run();
        ASSERT_EQ(backend->GetPendingCount(), 0U);
        for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
        {
            const auto ends = net.GetLinkPorts(l);
            packet[2 * l] = ends.first->GetCounters().txPayload;
            packet[2 * l + 1] = ends.second->GetCounters().txPayload;
        }
        backend->Dispose();
        Simulator::Destroy();
    }

    // Flow level: each message's bytes on every link of its queue pair's data path.
    std::vector<uint64_t> flow(2 * fabric.GetLinkCount(), 0);
    auto backend = CreateObject<FlowBackend>();
    backend->SetFabric(fabric, routes);
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> qpOf;
    for (const auto& m : messages)
    {
        backend->Send(m, nullptr, nullptr);
        const auto qp = qpOf.emplace(std::make_pair(m.src, m.dst), qpOf.size()).first->second;
        for (uint32_t link : backend->GetDataPath(qp))
        {
            flow[link] += m.bytes;
        }
    }
    ASSERT_EQ(backend->GetQueuePairCount(), qpOf.size());
    Simulator::Run();
    Simulator::Destroy();
    uint32_t spineLinksUsed = 0;
    for (uint32_t d = 0; d < flow.size(); ++d)
    {
        EXPECT_EQ(flow[d], packet[d])
            << "directed link " << d << " (" << fabric.GetNode(fabric.GetLink(d / 2).nodeA).name
            << " - " << fabric.GetNode(fabric.GetLink(d / 2).nodeB).name << ")";
        const FabricLink& link = fabric.GetLink(d / 2);
        spineLinksUsed += !fabric.IsNpu(link.nodeA) && !fabric.IsNpu(link.nodeB) && flow[d] > 0;
    }
    // Both spines carry traffic: the hash, not a fixed port, chose the paths.
    EXPECT_GT(spineLinksUsed, 8U);
}
