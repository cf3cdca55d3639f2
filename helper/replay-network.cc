/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-network.h"

#include "ns3/analytical-backend-factory.h"
#include "ns3/boolean.h"
#include "ns3/fabric-installer.h"
#include "ns3/fabric-routing.h"
#include "ns3/failure-options.h"
#include "ns3/flow-backend.h"
#include "ns3/input-error.h"
#include "ns3/latency-settings.h"
#include "ns3/log.h"
#include "ns3/node-container.h"
#include "ns3/node-list.h"
#include "ns3/rdma-backend-attach.h"
#include "ns3/rdma-network-backend.h"
#include "ns3/replay-analytical-observer.h"
#include "ns3/replay-flow-observer.h"
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
    if (name == "flow")
    {
        return ReplayBackendKind::Flow;
    }
    throw InputError("--backend: unknown backend '" + name +
                     "' (known: packet, analytical, analytical-aware, flow)");
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
    case ReplayBackendKind::Flow:
        return "flow";
    case ReplayBackendKind::Packet:
        break;
    }
    return "packet";
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
    const auto failures = ParseFailureOptions(config.failures, net.fabric.fabric);
    net.failureSchedule = InstallFailures(*roce, failures);
    const std::string failureLine = DescribeFailures(*roce, net.failureSchedule, failures);
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
         << (config.qpPerMessage ? "a queue pair per message" : "queue pairs per peer") << ", "
         << LatencySettings::Current().Describe();
    if (!failureLine.empty())
    {
        text << "\n" << failureLine;
    }
    net.description = text.str();
}

/** Build an analytical network into \p net. */
void
BuildAnalytical(const ReplayNetworkConfig& config, ReplayNetwork& net)
{
    const Fabric& fabric = net.fabric.fabric;
    const auto backend = CreateAnalyticalBackend(config.backend == ReplayBackendKind::Analytical
                                                     ? AnalyticalModel::CongestionUnaware
                                                     : AnalyticalModel::CongestionAware,
                                                 fabric,
                                                 ComputeRouting(fabric, net.fabric.routing),
                                                 config.analyticalGoodput,
                                                 config.fabricPath);
    net.backend = backend;
    net.observer = std::make_unique<ReplayAnalyticalObserver>(backend);
    net.physicalDimensions = ReplayPhysicalDimensions(fabric);
    NodeContainer nodes;
    nodes.Create(fabric.GetNpuCount());
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        net.rankNodes.push_back(nodes.Get(i));
    }
    net.description = backend->GetDescription();
}

/** Build the flow-level network into \p net. */
void
BuildFlow(const ReplayNetworkConfig& config, ReplayNetwork& net)
{
    const Fabric& fabric = net.fabric.fabric;
    auto backend = CreateObject<FlowBackend>();
    backend->SetAttribute("Mtu", UintegerValue(config.mtu));
    backend->SetAttribute("QpPerMessage", BooleanValue(config.qpPerMessage));
    LatencySettings::Current().ApplyTo(backend);
    try
    {
        backend->SetFabric(fabric, ComputeRouting(fabric, net.fabric.routing));
    }
    catch (const InputError& e)
    {
        throw InputError(config.fabricPath + ": " + e.what());
    }
    net.backend = backend;
    net.observer = std::make_unique<ReplayFlowObserver>(backend);
    NodeContainer nodes;
    nodes.Create(fabric.GetNpuCount());
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        net.rankNodes.push_back(nodes.Get(i));
    }
    net.description = backend->GetDescription();
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
    else if (config.backend == ReplayBackendKind::Flow)
    {
        BuildFlow(config, net);
    }
    else
    {
        BuildAnalytical(config, net);
    }
    net.physicalDimensions = ReplayPhysicalDimensions(net.fabric.fabric);
    return net;
}

} // namespace ns3
