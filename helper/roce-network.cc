/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-network.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/roce-channel.h"
#include "ns3/roce-header.h"
#include "ns3/roce-wire.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceNetwork");

namespace
{

/**
 * \return the lossless priorities a NIC port gets: its link's, else the switches'
 *         default (SharedBufferMmu::LosslessPriorities); none while PFC is off
 */
uint8_t
NicLosslessPriorities(const LinkSettings& link)
{
    const TypeId mmu = SharedBufferMmu::GetTypeId();
    TypeId::AttributeInformation info;
    NS_ABORT_UNLESS(mmu.LookupAttributeByName("PfcEnabled", &info));
    if (!DynamicCast<const BooleanValue>(info.initialValue)->Get())
    {
        return 0;
    }
    if (link.pfcPriorities)
    {
        return *link.pfcPriorities;
    }
    NS_ABORT_UNLESS(mmu.LookupAttributeByName("LosslessPriorities", &info));
    return static_cast<uint8_t>(DynamicCast<const UintegerValue>(info.initialValue)->Get());
}

/**
 * Give a port of a scale-up link its credit flow control and framing.
 * \param port the port
 * \param su the dimension's scale-up settings
 * \param maxFrame the largest frame the link carries, in its framing
 * \param atSwitch the port belongs to the scale-up switch (its latency applies)
 */
void
ConfigureScaleUpPort(Ptr<RocePort> port,
                     const ScaleUpSettings& su,
                     uint32_t maxFrame,
                     bool atSwitch)
{
    port->SetAttribute("CreditFlowControl", BooleanValue(true));
    port->SetAttribute("CreditBytes", UintegerValue(su.creditBytes));
    port->SetAttribute("CreditFrameBytes", UintegerValue(maxFrame));
    port->SetAttribute("CreditReturnDelay", TimeValue(PicoSeconds(su.creditReturnPs)));
    port->SetAttribute("CreditUpdateBytes", UintegerValue(su.creditBatchBytes));
    port->SetAttribute("CreditUpdateInterval", TimeValue(PicoSeconds(su.creditIntervalPs)));
    port->SetAttribute("PacketHeaderBytes", UintegerValue(su.headerBytes));
    port->SetAttribute("PacketPayloadBytes", UintegerValue(su.payloadBytes));
    port->SetAttribute("FlitBytes", UintegerValue(su.flitBytes));
    port->SetAttribute("PipelineLatency",
                       TimeValue(atSwitch ? PicoSeconds(su.switchLatencyPs) : Time(0)));
}

} // namespace

std::vector<uint32_t>
RoceNetwork::Install(const Fabric& fabric, const RoutingTable& routes, uint32_t mtu)
{
    NS_ABORT_MSG_IF(m_fabric, "a RoceNetwork is installed once");
    NS_ABORT_MSG_IF(NodeList::GetNNodes() != 0,
                    "the fabric must be installed before any other node exists");
    NS_ABORT_MSG_IF(routes.GetNodeCount() != fabric.GetNodeCount() ||
                        routes.GetNpuCount() != fabric.GetNpuCount(),
                    "the routing table is not the fabric's");
    NS_ABORT_MSG_IF(!m_processOf.empty() && m_processOf.size() != fabric.GetNodeCount(),
                    "the partition is not the fabric's");
    m_fabric = std::make_unique<Fabric>(fabric);
    m_routes = std::make_unique<RoutingTable>(routes);
    m_mtu = mtu;
    for (uint32_t n = 0; n < fabric.GetNodeCount(); ++n)
    {
        AddNode(n);
    }
    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        AddLink(l);
    }
    CheckTransitNpusForward();
    InstallRoutes();
    Finalize();
    std::vector<uint32_t> rankNode(fabric.GetNpuCount());
    for (uint32_t r = 0; r < rankNode.size(); ++r)
    {
        rankNode[r] = fabric.GetNpuNode(r);
    }
    NS_LOG_INFO(fabric.GetName() << ": " << fabric.GetNodeCount() << " nodes, "
                                 << fabric.GetLinkCount() << " links");
    return rankNode;
}

void
RoceNetwork::SetPartition(const FabricPartition& partition,
                          uint32_t self,
                          const std::string& remoteChannel)
{
    NS_ABORT_MSG_IF(m_fabric, "the partition is set before Install");
    NS_ABORT_MSG_IF(!TypeId::LookupByName(remoteChannel).IsChildOf(RoceChannel::GetTypeId()),
                    remoteChannel << " is not a RoceChannel");
    m_processOf = partition.processOf;
    m_self = self;
    m_remoteChannel = remoteChannel;
}

bool
RoceNetwork::IsLocal(uint32_t node) const
{
    return m_processOf.empty() || m_processOf.at(node) == m_self;
}

void
RoceNetwork::CheckTransitNpusForward() const
{
    // An NPU relays only when it forwards: a route through one that does not would reach a
    // relay without a buffer.
    for (uint32_t node = 0; node < m_fabric->GetNodeCount(); ++node)
    {
        for (uint32_t dst = 0; dst < m_fabric->GetNpuCount(); ++dst)
        {
            for (uint32_t port : m_routes->GetEgressPorts(node, dst))
            {
                const uint32_t next = m_fabric->GetPort(node, port).peer;
                const FabricNode& hop = m_fabric->GetNode(next);
                if (m_fabric->IsNpu(next) && next != m_fabric->GetNpuNode(dst) && !hop.forwards)
                {
                    throw InputError("fabric '" + m_fabric->GetName() +
                                     "': " + GetRoutingAlgorithmName(m_routes->GetAlgorithm()) +
                                     " routing sends traffic for rank " + std::to_string(dst) +
                                     " through NPU '" + hop.name +
                                     "', which does not forward (npu_forwarding: false)");
                }
            }
        }
    }
}

void
RoceNetwork::AddNode(uint32_t n)
{
    const FabricNode& desc = m_fabric->GetNode(n);
    Ptr<Node> node = CreateObject<Node>(m_processOf.empty() ? 0 : m_processOf[n]);
    m_nodes.Add(node);
    NS_ABORT_MSG_UNLESS(node->GetId() == n, "RoceNetwork must create every node");
    m_nics.emplace_back();
    m_switchObjects.emplace_back();
    if (desc.kind == FabricNodeKind::Npu)
    {
        auto nic = CreateObject<RdmaNic>();
        nic->SetNodeId(n);
        node->AggregateObject(nic);
        m_nics[n] = nic;
        m_hosts.push_back(n);
    }
    else
    {
        auto sw = CreateObject<RoceSwitch>();
        sw->SetNodeId(n);
        if (desc.bufferBytes > 0)
        {
            sw->GetMmu()->SetAttribute("BufferBytes", UintegerValue(desc.bufferBytes));
        }
        node->AggregateObject(sw);
        m_switchObjects[n] = sw;
        m_switches.push_back(n);
    }
}

void
RoceNetwork::AddLink(uint32_t l)
{
    const FabricLink& link = m_fabric->GetLink(l);
    const LinkSettings& s = link.settings;
    Ptr<RoceChannel> channel;
    if (!m_processOf.empty() && m_processOf[link.nodeA] != m_processOf[link.nodeB])
    {
        ObjectFactory factory(m_remoteChannel);
        channel = factory.Create<RoceChannel>();
    }
    else
    {
        channel = CreateObject<RoceChannel>();
    }
    channel->SetAttribute("Delay", TimeValue(PicoSeconds(s.delayPs)));
    const uint32_t nodes[2] = {link.nodeA, link.nodeB};
    const uint32_t fabricPorts[2] = {link.portA, link.portB};
    Ptr<RocePort> ends[2];
    for (int i = 0; i < 2; ++i)
    {
        ends[i] = CreateObject<RocePort>();
        ends[i]->SetAttribute("DataRate", DataRateValue(DataRate(s.rateBps)));
        ends[i]->SetAttribute("LossProbability", DoubleValue(s.lossProbability));
        m_nodes.Get(nodes[i])->AddDevice(ends[i]);
    }
    channel->Connect(ends[0], ends[1]);
    const ScaleUpSettings* su = m_fabric->GetLinkScaleUp(l);
    if (su)
    {
        const uint32_t maxFrame = MaxScaleUpFrame(*su);
        if (su->creditBytes < maxFrame)
        {
            const FabricDimension& dim = m_fabric->GetDimensions().at(link.dimension);
            throw InputError("fabric '" + m_fabric->GetName() + "': dimension '" + dim.name +
                             "': scale_up.vc_buffer of " + std::to_string(su->creditBytes) +
                             " B cannot hold its largest frame (" + std::to_string(maxFrame) +
                             " B)");
        }
        for (int i = 0; i < 2; ++i)
        {
            ConfigureScaleUpPort(ends[i], *su, maxFrame, !m_nics[nodes[i]]);
        }
    }
    for (int i = 0; i < 2; ++i)
    {
        const uint32_t self = nodes[i];
        uint32_t port = 0;
        if (m_nics[self])
        {
            port = m_nics[self]->AddPort(ends[i]);
            if (!su)
            {
                ends[i]->SetAttribute("TransmitLatency",
                                      TimeValue(m_nics[self]->GetTransmitLatency()));
                ends[i]->SetAttribute("PipelineLatency",
                                      TimeValue(m_nics[self]->GetReceiveLatency()));
            }
            m_nics[self]->SetPfcPriorities(port, su ? 0 : NicLosslessPriorities(s));
            if (s.ecn)
            {
                m_nics[self]->GetRelay()->SetEcnThresholds(
                    port, EcnThresholds{s.ecn->kminBytes, s.ecn->kmaxBytes, s.ecn->pmax});
            }
        }
        else
        {
            Ptr<RoceSwitch> sw = m_switchObjects[self];
            port = sw->AddPort(ends[i]);
            if (s.ecn)
            {
                sw->SetEcnThresholds(
                    port, EcnThresholds{s.ecn->kminBytes, s.ecn->kmaxBytes, s.ecn->pmax});
            }
            if (su)
            {
                sw->SetPfcPriorities(port, 0); // credits, not PFC
            }
            else if (s.pfcPriorities)
            {
                sw->SetPfcPriorities(port, *s.pfcPriorities);
            }
        }
        NS_ABORT_MSG_IF(port != fabricPorts[i],
                        "port numbering of link " << l << " differs from the fabric's");
    }
    m_linkPorts.emplace_back(ends[0], ends[1]);
}

void
RoceNetwork::InstallRoutes()
{
    std::vector<uint32_t> ports;
    for (uint32_t n = 0; n < m_fabric->GetNodeCount(); ++n)
    {
        for (uint32_t r = 0; r < m_fabric->GetNpuCount(); ++r)
        {
            const uint32_t dst = m_fabric->GetNpuNode(r);
            const PortSet set = m_routes->GetEgressPorts(n, r);
            if (dst == n || set.empty())
            {
                continue;
            }
            ports.assign(set.begin(), set.end());
            if (m_nics[n])
            {
                m_nics[n]->SetRoute(dst, ports);
            }
            else
            {
                m_switchObjects[n]->SetRoute(dst, ports);
            }
        }
    }
}

void
RoceNetwork::Finalize()
{
    RoceHeader full;
    full.payload = m_mtu;
    full.Set(RoceHeader::WANT_INT);
    full.nHops = kMaxIntHops;
    const uint32_t maxFrame = full.GetWireBytes() - wire::PhyOverheadBytes();
    int64_t stream = 0;
    for (uint32_t s : m_switches)
    {
        // Scale-up ports keep their dimension's switch latency; the pipeline sets the rest.
        std::vector<Ptr<RocePort>> ethernet;
        for (uint32_t p = 0; p < m_switchObjects[s]->GetNPorts(); ++p)
        {
            if (!m_switchObjects[s]->GetPort(p)->HasCreditFlowControl())
            {
                ethernet.push_back(m_switchObjects[s]->GetPort(p));
            }
        }
        m_switchObjects[s]->GetPipeline()->Apply(ethernet);
        m_switchObjects[s]->ConfigureBuffer(maxFrame);
        stream += m_switchObjects[s]->AssignStreams(stream);
    }
    // An NPU that may forward and has two ports or more relays: its relay gets a buffer.
    for (uint32_t h : m_hosts)
    {
        if (m_fabric->GetNode(h).forwards && m_nics[h]->GetNPorts() > 1)
        {
            const uint64_t relayBuffer = m_fabric->GetRelayBuffer();
            if (relayBuffer > 0)
            {
                m_nics[h]->GetRelay()->SetAttribute("BufferBytes", UintegerValue(relayBuffer));
                try
                {
                    m_nics[h]->ConfigureRelay(maxFrame);
                }
                catch (const InputError& e)
                {
                    throw InputError("fabric '" + m_fabric->GetName() +
                                     "': defaults.relay_buffer of " + std::to_string(relayBuffer) +
                                     " B: " + e.what());
                }
            }
            else
            {
                m_nics[h]->ConfigureRelay(maxFrame);
            }
            stream += m_nics[h]->GetRelay()->AssignStreams(stream);
        }
    }
    for (uint32_t n = 0; n < m_fabric->GetNodeCount(); ++n)
    {
        for (const auto& port : GetPorts(n))
        {
            stream += port->AssignStreams(stream);
        }
    }
}

Ptr<RdmaQueuePair>
RoceNetwork::Connect(uint32_t src, uint32_t dst, uint8_t priority)
{
    // The NIC may reach dst through several ports of different rates (an NPU with a
    // scale-up and a scale-out NIC): congestion control needs the RTT of the one used.
    const uint32_t port = m_nics.at(src)->GetNextPortTo(m_nics.at(dst));
    const auto path = PathOf(src, dst, port);
    // A path that stays inside a scale-up domain has no RoCE congestion control: it
    // sends at line rate, bounded by credits, in the domain's packets.
    uint32_t scaleUpPayload = 0;
    for (uint32_t l : path)
    {
        const ScaleUpSettings* su = m_fabric->GetLinkScaleUp(l);
        if (!su)
        {
            scaleUpPayload = 0;
            break;
        }
        scaleUpPayload =
            scaleUpPayload == 0 ? su->payloadBytes : std::min(scaleUpPayload, su->payloadBytes);
    }
    return m_nics.at(src)->Connect(m_nics.at(dst),
                                   priority,
                                   RttOf(src, path),
                                   static_cast<uint32_t>(path.size()) - 1,
                                   scaleUpPayload == 0,
                                   scaleUpPayload,
                                   scaleUpPayload != 0);
}

bool
RoceNetwork::IsScaleUpPath(uint32_t src, uint32_t dst) const
{
    for (uint32_t l : PathOf(src, dst))
    {
        if (!m_fabric->GetLinkScaleUp(l))
        {
            return false;
        }
    }
    return true;
}

uint32_t
RoceNetwork::MaxScaleUpFrame(const ScaleUpSettings& su) const
{
    // Scale-up queue pairs send su.payloadBytes per frame, others the NIC's MTU.
    return wire::LinkFramedBytes(
        std::max(m_mtu, su.payloadBytes), su.headerBytes, su.payloadBytes, su.flitBytes);
}

const Fabric&
RoceNetwork::GetFabric() const
{
    NS_ABORT_MSG_UNLESS(m_fabric, "the RoceNetwork is not installed");
    return *m_fabric;
}

const RoutingTable&
RoceNetwork::GetRoutes() const
{
    NS_ABORT_MSG_UNLESS(m_routes, "the RoceNetwork is not installed");
    return *m_routes;
}

bool
RoceNetwork::IsHost(uint32_t node) const
{
    return m_nics.at(node) != nullptr;
}

Ptr<RdmaNic>
RoceNetwork::GetNic(uint32_t node) const
{
    return m_nics.at(node);
}

Ptr<RoceSwitch>
RoceNetwork::GetSwitch(uint32_t node) const
{
    return m_switchObjects.at(node);
}

const std::vector<uint32_t>&
RoceNetwork::GetHosts() const
{
    return m_hosts;
}

const std::vector<uint32_t>&
RoceNetwork::GetSwitches() const
{
    return m_switches;
}

std::vector<Ptr<RocePort>>
RoceNetwork::GetPorts(uint32_t node) const
{
    std::vector<Ptr<RocePort>> ports;
    const uint32_t count =
        m_nics.at(node) ? m_nics[node]->GetNPorts() : m_switchObjects[node]->GetNPorts();
    for (uint32_t i = 0; i < count; ++i)
    {
        ports.push_back(m_nics[node] ? m_nics[node]->GetPort(i)
                                     : m_switchObjects[node]->GetPort(i));
    }
    return ports;
}

std::pair<Ptr<RocePort>, Ptr<RocePort>>
RoceNetwork::GetLinkPorts(uint32_t link) const
{
    return m_linkPorts.at(link);
}

uint8_t
RoceNetwork::GetLosslessPriorities(uint32_t node, uint32_t port) const
{
    return m_nics.at(node) ? m_nics[node]->GetPfcPriorities(port)
                           : m_switchObjects[node]->GetMmu()->GetLosslessPriorities(port);
}

bool
RoceNetwork::HasLinkEcn(uint32_t node, uint32_t port) const
{
    const Fabric& f = GetFabric();
    return f.GetLink(f.GetPort(node, port).link).settings.ecn.has_value();
}

const std::vector<uint32_t>&
RoceNetwork::RouteAt(uint32_t node, uint32_t dst) const
{
    return m_nics[node] ? m_nics[node]->GetRoute(dst) : m_switchObjects[node]->GetRoute(dst);
}

std::vector<uint32_t>
RoceNetwork::PathOf(uint32_t src, uint32_t dst, int64_t firstPort) const
{
    // Follow the first port of each installed ECMP set: every member has the same length.
    std::vector<uint32_t> path;
    uint32_t node = src;
    while (node != dst)
    {
        const auto& ports = RouteAt(node, dst);
        NS_ABORT_MSG_IF(ports.empty() || path.size() > m_fabric->GetNodeCount(),
                        "no route from node " << src << " to node " << dst);
        const uint32_t port =
            node == src && firstPort >= 0 ? static_cast<uint32_t>(firstPort) : ports[0];
        const FabricPort& p = m_fabric->GetPort(node, port);
        path.push_back(p.link);
        node = p.peer;
    }
    return path;
}

uint32_t
RoceNetwork::GetHopCount(uint32_t src, uint32_t dst) const
{
    return static_cast<uint32_t>(PathOf(src, dst).size()) - 1;
}

Time
RoceNetwork::GetBaseRtt(uint32_t src, uint32_t dst) const
{
    return RttOf(src, PathOf(src, dst));
}

Time
RoceNetwork::GetBaseRtt(uint32_t src, uint32_t dst, uint32_t port) const
{
    return RttOf(src, PathOf(src, dst, port));
}

Time
RoceNetwork::RttOf(uint32_t src, const std::vector<uint32_t>& path) const
{
    // A full data packet out and an ACK back over each cable: the sender's transmit
    // pipeline, the propagation delay, and the receiver's arrival latency (its whole
    // serialization or its cut-through bytes, then its pipeline), as RoceChannel charges.
    RoceHeader data;
    data.payload = m_mtu;
    RoceHeader ack;
    ack.type = RoceHeader::ACK;
    Time rtt;
    uint32_t node = src;
    for (uint32_t l : path)
    {
        const FabricLink& link = m_fabric->GetLink(l);
        const LinkSettings& s = link.settings;
        uint64_t dataBytes = data.GetWireBytes();
        uint64_t ackBytes = ack.GetWireBytes();
        if (const ScaleUpSettings* su = m_fabric->GetLinkScaleUp(l))
        {
            dataBytes =
                wire::LinkFramedBytes(m_mtu, su->headerBytes, su->payloadBytes, su->flitBytes);
            ackBytes = wire::LinkFramedBytes(0, su->headerBytes, su->payloadBytes, su->flitBytes);
        }
        const auto& [a, b] = m_linkPorts.at(l);
        const bool forward = link.nodeA == node;
        const Ptr<RocePort> near = forward ? a : b;
        const Ptr<RocePort> far = forward ? b : a;
        const auto serialization = [&s](uint64_t bytes)
        {
            return PicoSeconds(static_cast<int64_t>(8 * bytes * 1'000'000'000'000ULL / s.rateBps));
        };
        rtt += near->GetTransmitLatency() +
               far->GetArrivalLatency(static_cast<uint32_t>(dataBytes), serialization(dataBytes)) +
               far->GetTransmitLatency() +
               near->GetArrivalLatency(static_cast<uint32_t>(ackBytes), serialization(ackBytes)) +
               PicoSeconds(s.delayPs) * 2;
        node = forward ? link.nodeB : link.nodeA;
    }
    if (m_nics.at(node))
    {
        rtt += m_nics[node]->GetAckTurnaround();
    }
    return rtt;
}

} // namespace ns3
