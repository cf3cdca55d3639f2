/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-network.h"

#include "ns3/analytical-fabric-dimensions.h"
#include "ns3/boolean.h"
#include "ns3/congestion-aware-backend.h"
#include "ns3/congestion-unaware-backend.h"
#include "ns3/fabric-installer.h"
#include "ns3/fabric-routing.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/node-container.h"
#include "ns3/node-list.h"
#include "ns3/rdma-backend-attach.h"
#include "ns3/rdma-network-backend.h"
#include "ns3/replay-analytical-observer.h"
#include "ns3/replay-packet-observer.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayNetwork");

ReplayBackendKind
ParseReplayBackendKind(const std::string& name)
{
    if (name == "packet")
    {
        return ReplayBackendKind::Packet;
    }
    if (name == "analytical")
    {
        return ReplayBackendKind::Analytical;
    }
    if (name == "analytical-aware")
    {
        return ReplayBackendKind::AnalyticalAware;
    }
    throw InputError("--backend: unknown backend '" + name +
                     "' (known: packet, analytical, analytical-aware)");
}

std::string
ToString(ReplayBackendKind kind)
{
    switch (kind)
    {
    case ReplayBackendKind::Analytical:
        return "analytical";
    case ReplayBackendKind::AnalyticalAware:
        return "analytical-aware";
    case ReplayBackendKind::Packet:
        break;
    }
    return "packet";
}

AnalyticalTopology
MakeReplayAnalyticalTopology(const LoadedFabric& loaded, const std::string& path, double goodput)
{
    if (loaded.format == "astra-sim" && goodput == 1.0)
    {
        // ASTRA-sim's own reading of its file, bandwidths kept as written.
        return AnalyticalTopology::LoadYaml(path);
    }
    const Fabric& fabric = loaded.fabric;
    const auto& dimensions = fabric.GetDimensions();
    if (dimensions.empty())
    {
        throw InputError(path + ": the analytical backends need a fabric of dimensions (Ring, "
                                "FullyConnected, Switch); this one has none");
    }
    std::vector<DimensionSpec> specs(dimensions.size());
    for (size_t d = 0; d < dimensions.size(); ++d)
    {
        if (!ParseDimensionTopology(dimensions[d].topology, specs[d].topology))
        {
            throw InputError(path + ": dimension " + std::to_string(d) + " (" + dimensions[d].name +
                             ") is " + dimensions[d].topology +
                             "; the analytical backends describe Ring, FullyConnected and "
                             "Switch dimensions only");
        }
        specs[d].npus = dimensions[d].size;
        specs[d].name = dimensions[d].name;
    }
    std::vector<bool> found(dimensions.size(), false);
    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        const FabricLink& link = fabric.GetLink(l);
        if (link.dimension >= 0 && static_cast<size_t>(link.dimension) < specs.size() &&
            !found[link.dimension])
        {
            specs[link.dimension].link = link.settings;
            found[link.dimension] = true;
        }
    }
    for (size_t d = 0; d < specs.size(); ++d)
    {
        if (!found[d])
        {
            throw InputError(path + ": dimension " + std::to_string(d) + " (" + dimensions[d].name +
                             ") has no links");
        }
    }
    const AnalyticalTopology topology = MakeAnalyticalTopology(specs, goodput);
    if (topology.GetNpuCount() != fabric.GetNpuCount())
    {
        throw InputError(path + ": the dimensions hold " + std::to_string(topology.GetNpuCount()) +
                         " NPUs but the fabric has " + std::to_string(fabric.GetNpuCount()));
    }
    return topology;
}

std::vector<uint32_t>
ReplayPhysicalDimensions(const Fabric& fabric)
{
    uint64_t product = 1;
    std::vector<uint32_t> sizes;
    for (const auto& d : fabric.GetDimensions())
    {
        sizes.push_back(d.size);
        product *= d.size;
    }
    if (sizes.empty() || product != fabric.GetNpuCount())
    {
        return {fabric.GetNpuCount()};
    }
    return sizes;
}

namespace
{

/** Build the packet-level network into \p net. */
void
BuildPacket(const ReplayNetworkConfig& config, ReplayNetwork& net)
{
    auto roce = std::make_unique<RoceNetwork>();
    const RoutingTable routes = ComputeRouting(net.fabric.fabric, net.fabric.routing);
    const auto rankNode = InstallFabric(net.fabric.fabric, routes, *roce, config.mtu);
    for (uint32_t node : rankNode)
    {
        roce->GetNic(node)->SetAttribute("Mtu", UintegerValue(config.mtu));
    }
    const CcInstallation cc = InstallCongestionControl(*roce, config.cc);
    auto backend = CreateObject<RdmaNetworkBackend>();
    backend->SetAttribute("QpPerMessage", BooleanValue(config.qpPerMessage));
    AttachRoceNetwork(backend, *roce, rankNode);
    net.backend = backend;
    net.observer = std::make_unique<ReplayPacketObserver>(std::move(roce), backend);
    for (uint32_t node : rankNode)
    {
        net.rankNodes.push_back(NodeList::GetNode(node));
    }
    net.physicalDimensions = ReplayPhysicalDimensions(net.fabric.fabric);
    std::ostringstream text;
    text << "packet level, MTU " << config.mtu << " B, congestion control " << cc.scheme << ", "
         << (config.qpPerMessage ? "a queue pair per message" : "queue pairs per peer");
    net.description = text.str();
}

/** Build an analytical network into \p net. */
void
BuildAnalytical(const ReplayNetworkConfig& config, ReplayNetwork& net)
{
    const AnalyticalTopology topology =
        MakeReplayAnalyticalTopology(net.fabric, config.fabricPath, config.analyticalGoodput);
    Ptr<AnalyticalBackend> backend;
    if (config.backend == ReplayBackendKind::Analytical)
    {
        backend = CreateObject<CongestionUnawareBackend>();
    }
    else
    {
        backend = CreateObject<CongestionAwareBackend>();
    }
    backend->SetTopology(topology);
    net.backend = backend;
    net.observer = std::make_unique<ReplayAnalyticalObserver>(backend);
    net.physicalDimensions = topology.GetNpusPerDimension();
    NodeContainer nodes;
    nodes.Create(topology.GetNpuCount());
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        net.rankNodes.push_back(nodes.Get(i));
    }
    std::ostringstream text;
    text << (config.backend == ReplayBackendKind::Analytical ? "analytical, congestion-unaware"
                                                             : "analytical, congestion-aware");
    for (const auto& d : topology.GetDimensions())
    {
        text << (&d == &topology.GetDimensions().front() ? ": " : " x ") << d.npus << " @ "
             << d.bandwidthGBps << " GB/s, " << d.latencyNs << " ns";
    }
    net.description = text.str();
}

} // namespace

ReplayNetwork
BuildReplayNetwork(const ReplayNetworkConfig& config)
{
    ReplayNetwork net;
    net.fabric = LoadFabric(config.fabricPath);
    if (config.backend == ReplayBackendKind::Packet)
    {
        BuildPacket(config, net);
    }
    else
    {
        BuildAnalytical(config, net);
    }
    return net;
}

} // namespace ns3
