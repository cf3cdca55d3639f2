/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-switch.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/flow-hash.h"
#include "ns3/in-network-flag.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/packet-trimming.h"
#include "ns3/roce-header.h"
#include "ns3/roce-wire.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/switch-reduction.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceSwitch");
NS_OBJECT_ENSURE_REGISTERED(RoceSwitch);

TypeId
RoceSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceSwitch")
            .SetParent<Object>()
            .SetGroupName("Mlfabric")
            .AddConstructor<RoceSwitch>()
            .AddAttribute("EcnEnabled",
                          "Mark ECN-capable data packets at egress",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceSwitch::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("EcnMap",
                          "ECN thresholds of egress ports that nothing else sets, by port "
                          "rate; the default is EcnThresholdMap::PeerDefault(), the map runs "
                          "install (doc/congestion-control.md)",
                          EcnThresholdMapValue(EcnThresholdMap::PeerDefault()),
                          MakeEcnThresholdMapAccessor(&RoceSwitch::m_ecnMap),
                          MakeEcnThresholdMapChecker())
            .AddAttribute("EcnPriorityThresholds",
                          "Traffic classes with their own ECN thresholds on every port, "
                          "PRIO:KMIN/KMAX/PMAX[,...] (e.g. 3:100KB/400KB/0.2); the others "
                          "use their port's. Empty (default): none",
                          StringValue(""),
                          MakeStringAccessor(&RoceSwitch::m_ecnPriorityText),
                          MakeStringChecker())
            .AddAttribute("EcnMarkPoint",
                          "Where ECN marking is decided, on the instantaneous queue of the "
                          "packet's priority: Dequeue (default; the HPCC simulator, and the "
                          "DCQCN and HPCC papers' switches) on the bytes behind the leaving "
                          "packet, or Enqueue (WRED at admission, as Broadcom switches) on "
                          "the bytes queued with the arriving packet",
                          EnumValue(MARK_AT_DEQUEUE),
                          MakeEnumAccessor(&RoceSwitch::m_ecnMarkPoint),
                          MakeEnumChecker(MARK_AT_DEQUEUE, "Dequeue", MARK_AT_ENQUEUE, "Enqueue"))
            .AddAttribute("StrictPriorities",
                          "Bit mask of priorities served strictly before the others; "
                          "default 6 and 7: CNPs (RdmaNic::CnpPriority) and network control",
                          UintegerValue((1u << 6) | (1u << 7)),
                          MakeUintegerAccessor(&RoceSwitch::m_strictMask),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("DwrrQuantum",
                          "Deficit round-robin quantum of the other priorities, bytes",
                          UintegerValue(9216),
                          MakeUintegerAccessor(&RoceSwitch::m_quantum),
                          MakeUintegerChecker<uint32_t>(2048))
            .AddAttribute("TrimEnabled",
                          "Packet trimming (NDP, Ultra Ethernet): a data packet the buffer "
                          "would drop is cut to its header, which goes on at TrimPriority; "
                          "the receiver NACKs it at once. For lossy fabrics without PFC",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceSwitch::m_trimEnabled),
                          MakeBooleanChecker())
            .AddAttribute("TrimPriority",
                          "Traffic class of trimmed headers; default 7, served strictly "
                          "(StrictPriorities)",
                          UintegerValue(7),
                          MakeUintegerAccessor(&RoceSwitch::m_trimPriority),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddTraceSource("Trim",
                            "A data packet was cut to its header: the header, ingress port",
                            MakeTraceSourceAccessor(&RoceSwitch::m_trimTrace),
                            "ns3::RoceSwitch::PacketPortCallback")
            .AddAttribute("LoadBalancer",
                          "TypeId of the choice among equal-cost egress ports for data "
                          "packets: ns3::EcmpBalancer (default), ns3::FlowletBalancer, "
                          "ns3::SprayBalancer or ns3::AdaptiveBalancer",
                          TypeIdValue(EcmpBalancer::GetTypeId()),
                          MakeTypeIdAccessor(&RoceSwitch::m_balancerTypeId),
                          MakeTypeIdChecker())
            .AddTraceSource("Drop",
                            "The buffer refused a packet: packet, ingress port",
                            MakeTraceSourceAccessor(&RoceSwitch::m_dropTrace),
                            "ns3::RoceSwitch::PacketPortCallback")
            .AddTraceSource("EcnMark",
                            "A packet was marked CE: packet, egress port",
                            MakeTraceSourceAccessor(&RoceSwitch::m_ecnTrace),
                            "ns3::RoceSwitch::PacketPortCallback")
            .AddTraceSource("QueueLength",
                            "An egress queue changed: port, bytes queued",
                            MakeTraceSourceAccessor(&RoceSwitch::m_queueTrace),
                            "ns3::RoceSwitch::QueueLengthCallback");
    return tid;
}

RoceSwitch::RoceSwitch()
    : m_mmu(CreateObject<SharedBufferMmu>())
    , m_pipeline(CreateObject<SwitchPipeline>())
    , m_rng(CreateObject<UniformRandomVariable>())
{
}

RoceSwitch::~RoceSwitch() = default;

void
RoceSwitch::DoDispose()
{
    m_ports.clear();
    m_mmu = nullptr;
    m_pipeline = nullptr;
    m_rng = nullptr;
    if (m_balancer)
    {
        m_balancer->Dispose();
        m_balancer = nullptr;
    }
    Object::DoDispose();
}

void
RoceSwitch::SetNodeId(uint32_t id)
{
    m_nodeId = id;
}

uint32_t
RoceSwitch::GetNodeId() const
{
    return m_nodeId;
}

uint32_t
RoceSwitch::AddPort(Ptr<RocePort> port)
{
    const auto index = static_cast<uint32_t>(m_ports.size());
    m_ports.push_back(port);
    m_egress.emplace_back();
    m_egress.back().Configure(m_strictMask, m_quantum);
    m_ecn.emplace_back();
    m_pfcPriorities.emplace_back();
    port->SetOwner(this, index);
    return index;
}

uint32_t
RoceSwitch::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<RocePort>
RoceSwitch::GetPort(uint32_t i) const
{
    return m_ports.at(i);
}

void
RoceSwitch::SetRoute(uint32_t dstNode, const std::vector<uint32_t>& ports)
{
    if (m_routes.size() <= dstNode)
    {
        m_routes.resize(dstNode + 1);
    }
    m_routes[dstNode] = ports;
}

const std::vector<uint32_t>&
RoceSwitch::GetRoute(uint32_t dstNode) const
{
    static const std::vector<uint32_t> none;
    return dstNode < m_routes.size() ? m_routes[dstNode] : none;
}

void
RoceSwitch::SetEcnThresholds(uint32_t port, const EcnThresholds& thresholds)
{
    m_ecn.at(port) = thresholds;
}

EcnThresholds
RoceSwitch::GetEcnThresholds(uint32_t port) const
{
    if (m_ecn.at(port))
    {
        return *m_ecn[port];
    }
    const EcnMapEntry entry = m_ecnMap.Lookup(m_ports[port]->GetRateBps());
    return EcnThresholds{entry.kminBytes, entry.kmaxBytes, entry.pmax};
}

EcnThresholds
RoceSwitch::GetEcnThresholds(uint32_t port, uint8_t priority) const
{
    return m_ecnPriority.at(priority) ? *m_ecnPriority[priority] : GetEcnThresholds(port);
}

const EcnThresholds&
RoceSwitch::EcnFor(uint32_t port, uint8_t priority) const
{
    return m_ecnPriority[priority] ? *m_ecnPriority[priority] : *m_ecn[port];
}

void
RoceSwitch::SetPfcPriorities(uint32_t port, uint8_t priorities)
{
    NS_ABORT_MSG_IF(m_bufferConfigured, "switch " << m_nodeId << ": buffer already configured");
    m_pfcPriorities.at(port) = priorities;
}

void
RoceSwitch::ConfigureBuffer(uint32_t maxFrameBytes)
{
    std::vector<SharedBufferMmu::PortConfig> ports;
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        const uint64_t credits =
            m_ports[i]->HasCreditFlowControl() ? m_ports[i]->GetCreditBytes() : 0;
        // Frames in the peer's transmit pipeline and in this port's own still arrive
        // after a pause: the headroom holds them too.
        const Ptr<RocePort> peer = m_ports[i]->GetPeer();
        const Time pipelines =
            m_ports[i]->GetPipelineLatency() +
            (peer ? peer->GetTransmitLatency() + peer->GetPfcResponseTime() : Time(0));
        ports.push_back({m_ports[i]->GetRateBps(),
                         m_ports[i]->GetLinkDelay(),
                         m_pfcPriorities[i],
                         credits,
                         pipelines});
    }
    m_mmu->Configure(ports, maxFrameBytes);
    m_ecnPriority =
        ParseEcnPriorityThresholds(m_ecnPriorityText, "ns3::RoceSwitch::EcnPriorityThresholds");
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        m_ecn[i] = GetEcnThresholds(i); // ports nothing set take the map's now
    }
    m_bufferConfigured = true;
}

Ptr<SharedBufferMmu>
RoceSwitch::GetMmu() const
{
    return m_mmu;
}

Ptr<SwitchPipeline>
RoceSwitch::GetPipeline() const
{
    return m_pipeline;
}

const RoceSwitch::Counters&
RoceSwitch::GetCounters() const
{
    return m_counters;
}

uint64_t
RoceSwitch::GetQueueBytes(uint32_t port) const
{
    return m_egress.at(port).GetTotalBytes();
}

uint64_t
RoceSwitch::GetQueuedBufferBytes() const
{
    uint64_t total = 0;
    for (const auto& q : m_egress)
    {
        total += q.GetBufferBytes();
    }
    return total;
}

uint64_t
RoceSwitch::GetQueuedPayload() const
{
    uint64_t total = 0;
    for (const auto& q : m_egress)
    {
        total += q.GetPayload();
    }
    return total;
}

Ptr<LoadBalancer>
RoceSwitch::GetLoadBalancer()
{
    if (!m_balancer)
    {
        ObjectFactory factory(m_balancerTypeId.GetName());
        m_balancer = factory.Create<LoadBalancer>();
    }
    return m_balancer;
}

int64_t
RoceSwitch::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1 + GetLoadBalancer()->AssignStreams(stream + 1);
}

void
RoceSwitch::SendEngineFrame(uint32_t port, RoceFrame&& frame)
{
    NS_ASSERT_MSG(port < m_egress.size() && frame.header && IsInNetwork(*frame.header),
                  "switch " << m_nodeId << ": an engine frame for port " << port);
    QueuedFrame q;
    q.inPort = port;
    q.flags = frame.header->flags;
    q.payload = frame.header->payload;
    q.frame = std::move(frame);
    q.frame.priority = q.frame.header->priority;
    m_egress[port].Enqueue(std::move(q));
    m_ports[port]->NotifyWork();
}

void
RoceSwitch::ReceiveFrame(RocePort& port, RoceFrame&& frame)
{
    NS_ABORT_MSG_UNLESS(m_bufferConfigured, "switch " << m_nodeId << ": buffer not configured");
    NS_ASSERT_MSG(frame.header, "switch " << m_nodeId << ": a frame without a RoCE header");
    const RoceHeader& h = *frame.header;
    if (h.dst == m_nodeId && IsInNetwork(h))
    {
        // A chunk for the reduction engine: its credits reserved room in the engine's
        // buffer, not in the shared one.
        frame.ReturnCredits();
        Ptr<SwitchReduction> reduction = GetObject<SwitchReduction>();
        NS_ABORT_MSG_UNLESS(reduction, "switch " << m_nodeId << ": a reduction chunk, no engine");
        reduction->Receive(h);
        return;
    }
    const uint32_t wireBytes = frame.wireBytes;
    NS_ABORT_MSG_IF(h.dst >= m_routes.size() || m_routes[h.dst].empty(),
                    "switch " << m_nodeId << " has no route to node " << h.dst);
    const auto& ports = m_routes[h.dst];
    uint32_t out = ports[0];
    if (ports.size() > 1)
    {
        const uint32_t hash = FlowHash(h.src, h.dst, h.srcQp, h.dstQp, m_nodeId, h.entropy);
        out = h.type == RoceHeader::DATA ? GetLoadBalancer()->Choose(h, ports, hash, *this)
                                         : ports[hash % ports.size()];
    }

    const uint32_t in = port.GetOwnerIndex();
    uint32_t bufferBytes = wireBytes - port.GetPhyOverheadBytes();
    bool admitted = m_mmu->Admit(in, out, h.priority, bufferBytes) != SharedBufferMmu::DROP;
    if (!admitted && m_trimEnabled && h.type == RoceHeader::DATA && !h.Has(RoceHeader::TRIMMED))
    {
        const uint32_t cut = TrimToHeader(frame, m_trimPriority);
        bufferBytes = frame.wireBytes - wire::PhyOverheadBytes();
        admitted = m_mmu->Admit(in, out, h.priority, bufferBytes) != SharedBufferMmu::DROP;
        if (admitted)
        {
            ++m_counters.trims;
            m_counters.trimmedPayload += cut;
            m_counters.droppedPayload += cut;
            if (!m_trimTrace.IsEmpty())
            {
                m_trimTrace(frame.ToPacket(), in);
            }
        }
        else
        {
            m_counters.droppedPayload += cut; // the header is dropped below
        }
    }
    if (!admitted)
    {
        frame.ReturnCredits();
        ++m_counters.drops;
        m_counters.droppedPayload += h.payload;
        if (!m_dropTrace.IsEmpty())
        {
            m_dropTrace(frame.ToPacket(), in);
        }
        return;
    }
    if (m_mmu->ShouldPause(in, h.priority))
    {
        port.SetPfcXoff(h.priority, true);
    }

    QueuedFrame q;
    q.inPort = in;
    q.bufferBytes = bufferBytes;
    q.flags = h.flags;
    q.isData = h.type == RoceHeader::DATA;
    q.payload = h.payload;
    q.frame = std::move(frame);
    q.frame.priority = q.frame.header->priority;
    // Scale-up egresses (credit flow control) mark at neither point.
    if (m_ecnEnabled && m_ecnMarkPoint == MARK_AT_ENQUEUE &&
        !m_ports[out]->HasCreditFlowControl() &&
        MarkArrivingFrame(q,
                          EcnFor(out, q.frame.priority),
                          *m_rng,
                          m_egress[out].GetBytes(q.frame.priority) + q.frame.wireBytes))
    {
        ++m_counters.ecnMarks;
        if (!m_ecnTrace.IsEmpty())
        {
            m_ecnTrace(q.frame.ToPacket(), out);
        }
    }
    m_egress[out].Enqueue(std::move(q));
    const uint64_t queued = m_egress[out].GetTotalBytes();
    m_counters.peakQueueBytes = std::max(m_counters.peakQueueBytes, queued);
    m_queueTrace(out, queued);
    m_ports[out]->NotifyWork();
}

bool
RoceSwitch::DequeueFrame(RocePort& port, RoceFrame& frame)
{
    const uint32_t out = port.GetOwnerIndex();
    QueuedFrame q;
    if (!m_egress[out].Dequeue(port, q))
    {
        return false;
    }
    const uint8_t prio = q.frame.priority;
    m_mmu->Release(q.inPort, out, prio, q.bufferBytes);
    q.frame.ReturnCredits();
    RocePort& upstream = *m_ports[q.inPort];
    if (upstream.IsXoff(prio) && m_mmu->ShouldResume(q.inPort, prio))
    {
        upstream.SetPfcXoff(prio, false);
    }
    m_queueTrace(out, m_egress[out].GetTotalBytes());

    const bool markHere = m_ecnEnabled && m_ecnMarkPoint == MARK_AT_DEQUEUE;
    const DepartureEdit edit = EditDepartingFrame(q,
                                                  port,
                                                  markHere ? &EcnFor(out, prio) : nullptr,
                                                  *m_rng,
                                                  m_egress[out].GetBytes(prio),
                                                  m_egress[out].GetTotalBytes());
    if (edit.marked)
    {
        ++m_counters.ecnMarks;
        if (!m_ecnTrace.IsEmpty())
        {
            m_ecnTrace(q.frame.ToPacket(), out);
        }
    }
    m_counters.intStamps += edit.stamped ? 1 : 0;
    ++m_counters.forwarded;
    if (IsInNetwork(*q.frame.header) && q.frame.header->src == m_nodeId)
    {
        GetObject<SwitchReduction>()->Left(*q.frame.header);
    }
    frame = std::move(q.frame);
    frame.payload = q.payload;
    return true;
}

bool
RoceSwitch::HasPending(const RocePort& port) const
{
    return !m_egress[port.GetOwnerIndex()].IsEmpty();
}

} // namespace ns3
