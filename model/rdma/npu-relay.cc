/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "npu-relay.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/roce-header.h"
#include "ns3/roce-wire.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NpuRelay");
NS_OBJECT_ENSURE_REGISTERED(NpuRelay);

TypeId
NpuRelay::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NpuRelay")
            .SetParent<Object>()
            .SetGroupName("Mlfabric")
            .AddConstructor<NpuRelay>()
            .AddAttribute("BufferBytes",
                          "Packet buffer of the relay, shared by its ports as a switch's "
                          "(the other buffer settings are SharedBufferMmu's)",
                          UintegerValue(4 * 1024 * 1024),
                          MakeUintegerAccessor(&NpuRelay::m_bufferBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("EcnEnabled",
                          "Mark ECN-capable transit data packets at egress",
                          BooleanValue(true),
                          MakeBooleanAccessor(&NpuRelay::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("StageHandOvers",
                          "Give a frame from a credit (scale-up) link that leaves by a RoCE "
                          "port its credits back on arrival, staging it on the shared pool "
                          "(PXN's staging in GPU memory); false keeps its credits until it "
                          "leaves, so the NPU's own scale-up frames wait behind it",
                          BooleanValue(true),
                          MakeBooleanAccessor(&NpuRelay::m_stageHandOvers),
                          MakeBooleanChecker())
            .AddAttribute("EcnMap",
                          "ECN thresholds of egress ports that nothing else sets, by port "
                          "rate, as a switch's (RoceSwitch::EcnMap); the default is "
                          "EcnThresholdMap::PeerDefault()",
                          EcnThresholdMapValue(EcnThresholdMap::PeerDefault()),
                          MakeEcnThresholdMapAccessor(&NpuRelay::m_ecnMap),
                          MakeEcnThresholdMapChecker())
            .AddAttribute("StrictPriorities",
                          "Bit mask of transit priorities served strictly before the others "
                          "and before the NPU's own data (control traffic on priority 7)",
                          UintegerValue(1u << 7),
                          MakeUintegerAccessor(&NpuRelay::m_strictMask),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("DwrrQuantum",
                          "Deficit round-robin quantum of the other transit priorities, bytes",
                          UintegerValue(9216),
                          MakeUintegerAccessor(&NpuRelay::m_quantum),
                          MakeUintegerChecker<uint32_t>(2048))
            .AddAttribute("TransitWeight",
                          "Share of a port's data bytes given to transit traffic when the "
                          "NPU's own queue pairs also have data: TransitWeight / "
                          "(TransitWeight + LocalWeight)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&NpuRelay::m_transitWeight),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("LocalWeight",
                          "Share of a port's data bytes given to the NPU's own queue pairs "
                          "when transit traffic also waits",
                          UintegerValue(1),
                          MakeUintegerAccessor(&NpuRelay::m_localWeight),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddTraceSource("Drop",
                            "The relay buffer refused a frame: packet, ingress port",
                            MakeTraceSourceAccessor(&NpuRelay::m_dropTrace),
                            "ns3::RoceSwitch::PacketPortCallback")
            .AddTraceSource("EcnMark",
                            "A transit packet was marked CE: packet, egress port",
                            MakeTraceSourceAccessor(&NpuRelay::m_ecnTrace),
                            "ns3::RoceSwitch::PacketPortCallback")
            .AddTraceSource("QueueLength",
                            "A transit egress queue changed: port, bytes queued",
                            MakeTraceSourceAccessor(&NpuRelay::m_queueTrace),
                            "ns3::RoceSwitch::QueueLengthCallback");
    return tid;
}

NpuRelay::NpuRelay()
    : m_mmu(CreateObject<SharedBufferMmu>())
    , m_rng(CreateObject<UniformRandomVariable>())
{
}

NpuRelay::~NpuRelay() = default;

void
NpuRelay::DoDispose()
{
    m_ports.clear();
    m_mmu = nullptr;
    m_rng = nullptr;
    m_upstream = nullptr;
    Object::DoDispose();
}

void
NpuRelay::SetNodeId(uint32_t id)
{
    m_nodeId = id;
}

uint32_t
NpuRelay::AddPort(Ptr<RocePort> port)
{
    NS_ABORT_MSG_IF(m_configured, "node " << m_nodeId << ": relay already configured");
    const auto index = static_cast<uint32_t>(m_ports.size());
    m_ports.push_back(port);
    m_egress.emplace_back();
    m_egress.back().Configure(m_strictMask, m_quantum);
    m_ecn.emplace_back();
    m_pfcPriorities.emplace_back();
    m_held.emplace_back();
    return index;
}

void
NpuRelay::SetUpstream(RelayUpstream* upstream)
{
    m_upstream = upstream;
}

void
NpuRelay::SetPfcPriorities(uint32_t port, uint8_t priorities)
{
    NS_ABORT_MSG_IF(m_configured, "node " << m_nodeId << ": relay already configured");
    m_pfcPriorities.at(port) = priorities;
}

void
NpuRelay::SetEcnThresholds(uint32_t port, const EcnThresholds& thresholds)
{
    m_ecn.at(port) = thresholds;
}

EcnThresholds
NpuRelay::GetEcnThresholds(uint32_t port) const
{
    if (m_ecn.at(port))
    {
        return *m_ecn[port];
    }
    const EcnMapEntry entry = m_ecnMap.Lookup(m_ports[port]->GetRateBps());
    return EcnThresholds{entry.kminBytes, entry.kmaxBytes, entry.pmax};
}

void
NpuRelay::Configure(uint32_t maxFrameBytes)
{
    m_mmu->SetAttribute("BufferBytes", UintegerValue(m_bufferBytes));
    std::vector<SharedBufferMmu::PortConfig> ports;
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        // As at a switch: frames in the peer's transmit and this port's receive pipeline
        // still arrive after a pause.
        const Ptr<RocePort> peer = m_ports[i]->GetPeer();
        const Time pipelines =
            m_ports[i]->GetPipelineLatency() +
            (peer ? peer->GetTransmitLatency() + peer->GetPfcResponseTime() : Time(0));
        // A credit link's peer sends only into the buffer its credits grant: carve it.
        const uint64_t credits =
            m_ports[i]->HasCreditFlowControl() ? m_ports[i]->GetCreditBytes() : 0;
        ports.push_back({m_ports[i]->GetRateBps(),
                         m_ports[i]->GetLinkDelay(),
                         m_pfcPriorities[i],
                         credits,
                         pipelines});
    }
    try
    {
        m_mmu->Configure(ports, maxFrameBytes);
    }
    catch (const InputError& e)
    {
        throw InputError("node " + std::to_string(m_nodeId) +
                         ": relay (ns3::NpuRelay::BufferBytes): " + e.what());
    }
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        m_ecn[i] = GetEcnThresholds(i); // the marking path reads the resolved ramp
    }
    m_configured = true;
}

bool
NpuRelay::IsConfigured() const
{
    return m_configured;
}

bool
NpuRelay::Enqueue(uint32_t inPort, uint32_t outPort, RoceFrame&& frame)
{
    NS_ABORT_MSG_UNLESS(m_configured,
                        "node " << m_nodeId << " relays a frame but its relay is not configured");
    const RoceHeader& h = *frame.header;
    const uint8_t prio = h.priority;
    // A frame from a scale-up link carries that link's framing and no Ethernet overhead.
    const uint32_t bufferBytes = frame.wireBytes - m_ports[inPort]->GetPhyOverheadBytes();
    if (m_mmu->Admit(inPort, outPort, prio, bufferBytes) == SharedBufferMmu::DROP)
    {
        ++m_counters.drops;
        m_counters.droppedPayload += h.payload;
        if (!m_dropTrace.IsEmpty())
        {
            m_dropTrace(frame.ToPacket(), inPort);
        }
        frame.ReturnCredits();
        return false;
    }
    if (!m_held[inPort][prio] && m_mmu->ShouldPause(inPort, prio))
    {
        m_held[inPort][prio] = true;
        ++m_counters.holds;
        m_upstream->Hold(inPort, prio, true);
    }
    QueuedFrame q;
    if (m_stageHandOvers && frame.creditPort && !m_ports[outPort]->HasCreditFlowControl())
    {
        q.staged = m_mmu->Stage(inPort, outPort, prio, bufferBytes);
        if (q.staged)
        {
            frame.ReturnCredits();
        }
        ++(q.staged ? m_counters.staged : m_counters.heldCredits);
    }
    q.inPort = inPort;
    q.bufferBytes = bufferBytes;
    q.flags = h.flags;
    q.isData = h.type == RoceHeader::DATA;
    q.payload = h.payload;
    q.frame = std::move(frame);
    q.frame.priority = prio;
    m_egress[outPort].Enqueue(std::move(q));
    const uint64_t queued = m_egress[outPort].GetTotalBytes();
    m_counters.peakQueueBytes = std::max(m_counters.peakQueueBytes, queued);
    m_queueTrace(outPort, queued);
    return true;
}

bool
NpuRelay::HasControlReady(const RocePort& port) const
{
    const EgressQueues& e = m_egress[port.GetOwnerIndex()];
    return (e.GetNonEmptyMask() & m_strictMask & ~port.GetBlockedMask()) != 0;
}

bool
NpuRelay::HasDataReady(const RocePort& port) const
{
    const EgressQueues& e = m_egress[port.GetOwnerIndex()];
    return (e.GetNonEmptyMask() & ~m_strictMask & ~port.GetBlockedMask() & 0xffu) != 0;
}

bool
NpuRelay::HasQueued(uint32_t port) const
{
    return !m_egress[port].IsEmpty();
}

bool
NpuRelay::Dequeue(RocePort& port, RoceFrame& frame)
{
    const uint32_t out = port.GetOwnerIndex();
    QueuedFrame q;
    if (!m_egress[out].Dequeue(port, q))
    {
        return false;
    }
    const uint8_t prio = q.frame.priority;
    q.frame.ReturnCredits(); // the frame leaves this node's buffer
    if (q.staged)
    {
        m_mmu->ReleaseStaged(q.inPort, out, prio, q.bufferBytes);
    }
    else
    {
        m_mmu->Release(q.inPort, out, prio, q.bufferBytes);
    }
    m_upstream->Freed(q.inPort, prio, q.bufferBytes);
    if (m_held[q.inPort][prio] && m_mmu->ShouldResume(q.inPort, prio))
    {
        m_held[q.inPort][prio] = false;
        m_upstream->Hold(q.inPort, prio, false);
    }
    m_queueTrace(out, m_egress[out].GetTotalBytes());
    const DepartureEdit edit = EditDepartingFrame(q,
                                                  port,
                                                  m_ecnEnabled ? &*m_ecn[out] : nullptr,
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
    frame = std::move(q.frame);
    frame.payload = q.payload;
    return true;
}

Ptr<SharedBufferMmu>
NpuRelay::GetMmu() const
{
    return m_mmu;
}

uint32_t
NpuRelay::GetTransitWeight() const
{
    return m_transitWeight;
}

uint32_t
NpuRelay::GetLocalWeight() const
{
    return m_localWeight;
}

bool
NpuRelay::IsStagingHandOvers() const
{
    return m_stageHandOvers;
}

bool
NpuRelay::IsEcnEnabled() const
{
    return m_ecnEnabled;
}

const NpuRelay::Counters&
NpuRelay::GetCounters() const
{
    return m_counters;
}

uint64_t
NpuRelay::GetQueueBytes(uint32_t port) const
{
    return m_egress.at(port).GetTotalBytes();
}

uint64_t
NpuRelay::GetQueuedPayload() const
{
    uint64_t total = 0;
    for (const auto& q : m_egress)
    {
        total += q.GetPayload();
    }
    return total;
}

uint64_t
NpuRelay::GetQueuedBufferBytes() const
{
    uint64_t total = 0;
    for (const auto& q : m_egress)
    {
        total += q.GetBufferBytes();
    }
    return total;
}

int64_t
NpuRelay::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

} // namespace ns3
