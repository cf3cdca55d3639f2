/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-network.h"

#include "ns3/analytical-backend-factory.h"
#include "ns3/boolean.h"
#include "ns3/distributed-run.h"
#include "ns3/fabric-installer.h"
#include "ns3/fabric-routing.h"
#include "ns3/failure-options.h"
#include "ns3/flow-backend.h"
#include "ns3/flow-router.h"
#include "ns3/hybrid-network-backend.h"
#include "ns3/input-error.h"
#include "ns3/latency-settings.h"
#include "ns3/log.h"
#include "ns3/node-container.h"
#include "ns3/node-list.h"
#include "ns3/rdma-backend-attach.h"
#include "ns3/rdma-network-backend.h"
#include "ns3/replay-analytical-observer.h"
#include "ns3/replay-flow-observer.h"
#include "ns3/replay-hybrid-observer.h"
#include "ns3/replay-packet-observer.h"
#include "ns3/uinteger.h"

#include <algorithm>
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
    if (name == "hybrid")
    {
        return ReplayBackendKind::Hybrid;
    }
    throw InputError("--backend: unknown backend '" + name +
                     "' (known: packet, analytical, analytical-aware, flow, hybrid)");
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
    case ReplayBackendKind::Hybrid:
        return "hybrid";
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
    if (config.processes)
    {
        net.partition =
            SplitAcrossProcesses(net.fabric.fabric, config.partitionPath, *config.processes, *roce);
    }
    const auto rankNode = InstallFabric(net.fabric.fabric, routes, *roce, config.mtu);
    for (uint32_t node : rankNode)
    {
        roce->GetNic(node)->SetAttribute("Mtu", UintegerValue(config.mtu));
        if (config.processes)
        {
            net.localRanks.push_back(roce->IsLocal(node));
        }
    }
    const CcInstallation cc = InstallCongestionControl(*roce, config.cc);
    const auto failures = ParseFailureOptions(config.failures, net.fabric.fabric);
    net.failureSchedule = InstallFailures(*roce, failures);
    const std::string failureLine = DescribeFailures(*roce, net.failureSchedule, failures);
    auto backend = CreateObject<RdmaNetworkBackend>();
    backend->SetAttribute("QpPerMessage", BooleanValue(config.qpPerMessage));
    AttachRoceNetwork(backend, *roce, rankNode);
    // A receiver finds its side of a queue pair by the sender's numbering: every process
    // opens them all, in the same order.
    const bool everyPair = config.connectEveryPair || config.processes;
    if (everyPair)
    {
        backend->ConnectEveryPair();
    }
    net.backend = backend;
    net.observer = std::make_unique<ReplayPacketObserver>(std::move(roce), backend);
    for (uint32_t node : rankNode)
    {
        net.rankNodes.push_back(NodeList::GetNode(node));
    }
    net.physicalDimensions = ReplayPhysicalDimensions(net.fabric.fabric);
    std::ostringstream text;
    text << "packet level, MTU " << config.mtu << " B, congestion control " << cc.scheme << ", "
         << (config.qpPerMessage ? "a queue pair per message" : "queue pairs per peer")
         << (everyPair ? " (every pair opened before the run, in rank order)" : "") << ", "
         << LatencySettings::Current().Describe();
    if (config.processes)
    {
        text << "\nacross " << config.processes->GetSize() << " processes: " << net.partition;
        if (config.processes->GetEngine() != "granted-time-window")
        {
            text << "; link utilization is not sampled (the processes cannot agree when the "
                    "ranks have finished)";
        }
    }
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

/** \return a flow-level backend over the loaded fabric of \p net */
Ptr<FlowBackend>
CreateFlowBackend(const ReplayNetworkConfig& config, const ReplayNetwork& net)
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
    return backend;
}

/** Build the flow-level network into \p net. */
void
BuildFlow(const ReplayNetworkConfig& config, ReplayNetwork& net)
{
    const Fabric& fabric = net.fabric.fabric;
    auto backend = CreateFlowBackend(config, net);
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

/**
 * Build the hybrid network into \p net: the packet-level network as BuildPacket does, a
 * flow-level backend over the same fabric, and a HybridNetworkBackend over both.
 */
void
BuildHybrid(const ReplayNetworkConfig& config, ReplayNetwork& net)
{
    BuildPacket(config, net);
    const std::string packetLine = net.description;
    Ptr<RdmaNetworkBackend> packet = DynamicCast<RdmaNetworkBackend>(net.backend);
    std::unique_ptr<ReplayPacketObserver> packetObserver(
        static_cast<ReplayPacketObserver*>(net.observer.release()));
    Ptr<FlowBackend> flow = CreateFlowBackend(config, net);
    auto hybrid = CreateObject<HybridNetworkBackend>();
    // The flow level's router walks the packet level's ECMP paths: it classifies them.
    hybrid->Attach(packet,
                   flow,
                   [flow](uint32_t src, uint32_t dst)
                   {
                       std::vector<uint32_t> links;
                       for (uint32_t directed : flow->GetRouter().DataPath(src, dst, 0, 0))
                       {
                           links.push_back(FlowRouter::LinkOf(directed));
                       }
                       return HybridNetworkBackend::LevelOfPath(flow->GetFabric(), links);
                   });
    net.backend = hybrid;
    net.observer = std::make_unique<ReplayHybridObserver>(std::move(packetObserver), hybrid);
    net.description =
        "hybrid: a message whose routed path stays inside one scale-up dimension runs at " +
        flow->GetDescription() + "\nevery other message runs at " + packetLine +
        "\nhybrid hand-over: a message that crosses scale-up and RoCE links runs wholly at "
        "packet level; on the scale-up links they share, neither level sees the other's "
        "bytes, nor do flow-level messages see a relay's backpressure (the report counts "
        "the messages and bytes of each level)";
    const auto& dims = net.fabric.fabric.GetDimensions();
    if (std::none_of(dims.begin(),
                     dims.end(),
                     [](const FabricDimension& d) { return static_cast<bool>(d.scaleUp); }))
    {
        net.description += "; WARNING: " + config.fabricPath +
                           " declares no scale_up dimension: every message runs at packet level";
    }
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
    else if (config.backend == ReplayBackendKind::Hybrid)
    {
        BuildHybrid(config, net);
    }
    else
    {
        BuildAnalytical(config, net);
    }
    net.physicalDimensions = ReplayPhysicalDimensions(net.fabric.fabric);
    return net;
}

} // namespace ns3
