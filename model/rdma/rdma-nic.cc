/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-nic.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/cc-none.h"
#include "ns3/enum.h"
#include "ns3/flow-hash.h"
#include "ns3/ib-ack-timeout.h"
#include "ns3/in-network-flag.h"
#include "ns3/input-error.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/reduction-member.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iostream>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNic");

namespace
{
// The timer is checked at least this often while bytes are in flight, so that once
// everything is acknowledged no check outlives the traffic by a whole timeout (4.3 s by
// default): a run that ends when its events do ends with its traffic.
Time
RtoCheckPeriod()
{
    return MilliSeconds(1);
}
} // namespace

NS_OBJECT_ENSURE_REGISTERED(RdmaNic);

TypeId
RdmaNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNic")
            .SetParent<Object>()
            .SetGroupName("Mlfabric")
            .AddConstructor<RdmaNic>()
            .AddAttribute("Mtu",
                          "Payload bytes of a full data packet",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RdmaNic::m_mtu),
                          MakeUintegerChecker<uint32_t>(64, 9000))
            .AddAttribute("AckInterval",
                          "The receiver acknowledges every this many data packets (and "
                          "always a message's last packet)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaNic::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ScaleUpAckInterval",
                          "On a queue pair whose whole path is scale-up (link-level "
                          "reliable, credit flow control, no congestion control) the "
                          "receiver acknowledges every this many data packets (and always "
                          "a message's last packet, and at once on a gap); default 64, "
                          "one ACK per 16 KiB of 256-byte packets (doc/fabrics.md)",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaNic::m_scaleUpAckInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("AckTimeout",
                          "InfiniBand Local ACK Timeout exponent: a queue pair without "
                          "acknowledgement progress for 4.096 us x 2^AckTimeout resends "
                          "from its oldest unacknowledged byte; 0 is an infinite timeout. "
                          "Default 20 (4.29 s), NCCL's NCCL_IB_TIMEOUT",
                          UintegerValue(20),
                          MakeUintegerAccessor(&RdmaNic::m_ackTimeoutExponent),
                          MakeUintegerChecker<uint32_t>(0, kIbMaxAckTimeoutExponent))
            .AddAttribute("RetryCount",
                          "Retransmissions a queue pair makes without progress; one more "
                          "timeout puts it in the error state. Default 7, NCCL's "
                          "NCCL_IB_RETRY_CNT (the most the 3-bit verbs field holds)",
                          UintegerValue(7),
                          MakeUintegerAccessor(&RdmaNic::m_retryCount),
                          MakeUintegerChecker<uint32_t>(0, 7))
            .AddAttribute("RetransmitTimeout",
                          "A timeout in place of AckTimeout's 4.096 us x 2^n steps; 0 "
                          "(default) uses AckTimeout",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaNic::m_rto),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MaxRtoBackoff",
                          "Largest multiplier of the timeout after consecutive timeouts; "
                          "1 (default) keeps it constant, as the InfiniBand transport does",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaNic::m_maxRtoBackoff),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("StopOnQueuePairError",
                          "A queue pair that exhausts its retries ends the run: the NIC "
                          "writes a report naming it on stderr and stops the simulator",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaNic::m_stopOnQpError),
                          MakeBooleanChecker())
            .AddAttribute("NackRetryInterval",
                          "A receiver repeats a NACK for the same gap only after this time",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&RdmaNic::m_nackRetry),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CnpInterval",
                          "At most one CNP per queue pair per interval (DCQCN notification "
                          "point)",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RdmaNic::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RxProcessingRate",
                          "Rate at which the NIC hands received data to the host (PCIe, "
                          "memory); 0 bit/s means as fast as it arrives",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&RdmaNic::m_rxRate),
                          MakeDataRateChecker())
            .AddAttribute("TransmitLatency",
                          "Transmit pipeline latency of the NIC's Ethernet ports: from a "
                          "packet leaving the scheduler to its first bit on the cable; "
                          "default 400 ns, half of a ConnectX-6-class one-way latency "
                          "(doc/latency.md)",
                          TimeValue(NanoSeconds(400)),
                          MakeTimeAccessor(&RdmaNic::m_txLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ReceiveLatency",
                          "Receive pipeline latency of the NIC's Ethernet ports: from a "
                          "packet's last bit arriving to the transport seeing it; default "
                          "400 ns, the other half (doc/latency.md)",
                          TimeValue(NanoSeconds(400)),
                          MakeTimeAccessor(&RdmaNic::m_rxLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("AckTurnaround",
                          "Time from the transport seeing a data packet to its ACK, NACK "
                          "or CNP joining the transmit queue, beyond the receive and "
                          "transmit pipelines; default 0 (doc/latency.md)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaNic::m_ackTurnaround),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PfcEnabled",
                          "Pause the upstream port when the receive backlog reaches "
                          "PfcXoffBytes (a slow receiver)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaNic::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("PfcXoffBytes",
                          "Receive backlog, in wire bytes, at which the NIC sends XOFF",
                          UintegerValue(64 * 1024),
                          MakeUintegerAccessor(&RdmaNic::m_pfcXoffBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("PfcXonBytes",
                          "Receive backlog, in wire bytes, at which the NIC sends XON",
                          UintegerValue(32 * 1024),
                          MakeUintegerAccessor(&RdmaNic::m_pfcXonBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("AckPriority",
                          "Traffic class of ACK and NACK packets; -1 (default): the class of "
                          "the queue pair's data, as RoCE NICs send them, so they share its "
                          "lossless queues on the reverse path",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&RdmaNic::m_ackPriority),
                          MakeIntegerChecker<int32_t>(-1, kNumPriorities - 1))
            .AddAttribute("CnpPriority",
                          "Traffic class of CNPs; default 6, the class ConnectX NICs give "
                          "them (a class of their own above the data's)",
                          UintegerValue(6),
                          MakeUintegerAccessor(&RdmaNic::m_cnpPriority),
                          MakeUintegerChecker<uint8_t>(0, kNumPriorities - 1))
            .AddAttribute("CongestionControl",
                          "TypeId of the congestion control, one instance per queue pair",
                          TypeIdValue(CcNone::GetTypeId()),
                          MakeTypeIdAccessor(&RdmaNic::m_ccTypeId),
                          MakeTypeIdChecker())
            .AddAttribute("Transport",
                          "Loss recovery: GoBackN (default; data past a gap is dropped and "
                          "resent), SelectiveRepeat (IRN: a bounded receive bitmap keeps "
                          "it, selective NACKs name what is missing, messages complete in "
                          "order) or Unordered (UEC's RUD: every packet is placed on arrival "
                          "and acknowledged selectively, a message completes once all its "
                          "bytes are in, in whatever order)",
                          EnumValue(RdmaNic::GO_BACK_N),
                          MakeEnumAccessor(&RdmaNic::m_transport),
                          MakeEnumChecker(RdmaNic::GO_BACK_N,
                                          "GoBackN",
                                          RdmaNic::SELECTIVE_REPEAT,
                                          "SelectiveRepeat",
                                          RdmaNic::UNORDERED,
                                          "Unordered"))
            .AddAttribute("BitmapPackets",
                          "Selective repeat: packets past the next in-order byte the receive "
                          "bitmap holds (MTU-sized); the sender keeps no more in flight",
                          UintegerValue(512),
                          MakeUintegerAccessor(&RdmaNic::m_bitmapPackets),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ReorderPackets",
                          "Selective repeat: MTU-sized packets reported past a gap before "
                          "the sender takes it for lost rather than late; 0 is IRN's rule "
                          "(the first report)",
                          UintegerValue(16),
                          MakeUintegerAccessor(&RdmaNic::m_reorderPackets),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("MessageSent",
                            "A message's last byte was acknowledged",
                            MakeTraceSourceAccessor(&RdmaNic::m_messageSent),
                            "ns3::RdmaNic::MessageSentCallback")
            .AddTraceSource("QueuePairError",
                            "A queue pair exhausted its retries and entered the error state",
                            MakeTraceSourceAccessor(&RdmaNic::m_qpError),
                            "ns3::RdmaNic::QueuePairErrorCallback")
            .AddTraceSource("MessageReceived",
                            "A message's last byte arrived in order",
                            MakeTraceSourceAccessor(&RdmaNic::m_messageReceived),
                            "ns3::RdmaNic::MessageReceivedCallback");
    return tid;
}

RdmaNic::RdmaNic()
    : m_relay(CreateObject<NpuRelay>())
{
    m_relay->SetUpstream(this);
}

RdmaNic::~RdmaNic() = default;

void
RdmaNic::DoDispose()
{
    for (auto& ps : m_ports)
    {
        ps.wakeup.Cancel();
        ps.port = nullptr;
    }
    for (auto& qp : m_qps)
    {
        qp->Dispose();
    }
    m_qps.clear();
    m_relay->Dispose();
    m_relay = nullptr;
    Object::DoDispose();
}

void
RdmaNic::SetNodeId(uint32_t nodeId)
{
    m_nodeId = nodeId;
    m_relay->SetNodeId(nodeId);
}

uint32_t
RdmaNic::GetNodeId() const
{
    return m_nodeId;
}

uint32_t
RdmaNic::AddPort(Ptr<RocePort> port)
{
    const auto index = static_cast<uint32_t>(m_ports.size());
    m_ports.emplace_back();
    m_ports.back().port = port;
    port->SetOwner(this, index);
    m_relay->AddPort(port);
    return index;
}

uint32_t
RdmaNic::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

void
RdmaNic::SetPfcPriorities(uint32_t port, uint8_t priorities)
{
    m_ports.at(port).lossless = priorities;
    m_relay->SetPfcPriorities(port, priorities);
}

uint8_t
RdmaNic::GetPfcPriorities(uint32_t port) const
{
    return m_ports.at(port).lossless;
}

Ptr<RocePort>
RdmaNic::GetPort(uint32_t i) const
{
    return m_ports.at(i).port;
}

void
RdmaNic::SetRoute(uint32_t dstNode, const std::vector<uint32_t>& ports)
{
    if (m_routes.size() <= dstNode)
    {
        m_routes.resize(dstNode + 1);
    }
    m_routes[dstNode] = ports;
}

const std::vector<uint32_t>&
RdmaNic::GetRoute(uint32_t dstNode) const
{
    static const std::vector<uint32_t> none;
    return dstNode < m_routes.size() ? m_routes[dstNode] : none;
}

uint32_t
RdmaNic::SelectPort(uint32_t dst, uint32_t hash) const
{
    NS_ABORT_MSG_IF(dst >= m_routes.size() || m_routes[dst].empty(),
                    "node " << m_nodeId << " has no route to node " << dst);
    const auto& ports = m_routes[dst];
    return ports[hash % ports.size()];
}

const std::vector<Ptr<RdmaQueuePair>>&
RdmaNic::GetQueuePairs() const
{
    return m_qps;
}

const RdmaNic::Counters&
RdmaNic::GetCounters() const
{
    return m_counters;
}

RdmaNic::Transport
RdmaNic::GetTransport() const
{
    return m_transport;
}

uint32_t
RdmaNic::GetBitmapPackets() const
{
    return m_bitmapPackets;
}

uint32_t
RdmaNic::GetReorderPackets() const
{
    return m_reorderPackets;
}

Ptr<NpuRelay>
RdmaNic::GetRelay() const
{
    return m_relay;
}

void
RdmaNic::ConfigureRelay(uint32_t maxFrameBytes)
{
    m_relay->Configure(maxFrameBytes);
    for (auto& ps : m_ports)
    {
        ps.arbiter.SetWeights(m_relay->GetLocalWeight(), m_relay->GetTransitWeight());
    }
}

uint64_t
RdmaNic::GetPayloadHeld() const
{
    uint64_t held = m_relay->GetQueuedPayload();
    for (const auto& ps : m_ports)
    {
        held += ps.rxBacklogPayload;
    }
    if (m_transport == SELECTIVE_REPEAT)
    {
        // Kept past a gap and not yet delivered in order (unordered delivery counts
        // bytes delivered as they are placed).
        for (const auto& rx : m_rxQps)
        {
            held += rx.bitmap.GetHeldBytes();
        }
    }
    return held;
}

uint64_t
RdmaNic::GetMessagesReceived(uint32_t rxQpn) const
{
    return m_rxQps.at(rxQpn).messagesReceived;
}

uint32_t
RdmaNic::GetNextPortTo(Ptr<RdmaNic> peer) const
{
    const auto qpn = static_cast<uint32_t>(m_qps.size());
    const auto peerQpn = static_cast<uint32_t>(peer->m_rxQps.size());
    return SelectPort(peer->m_nodeId, FlowHash(m_nodeId, peer->m_nodeId, qpn, peerQpn, 0));
}

Ptr<RdmaQueuePair>
RdmaNic::Connect(Ptr<RdmaNic> peer,
                 uint8_t priority,
                 Time baseRtt,
                 uint32_t hops,
                 bool congestionControl,
                 uint32_t mtu,
                 bool linkReliable)
{
    NS_ABORT_MSG_IF(priority >= kNumPriorities, "priority " << unsigned(priority));
    auto qp = CreateObject<RdmaQueuePair>();
    qp->m_qpn = static_cast<uint32_t>(m_qps.size());
    qp->m_peerNode = peer->m_nodeId;
    qp->m_peerQpn = static_cast<uint32_t>(peer->m_rxQps.size());
    qp->m_priority = priority;
    qp->m_port = GetNextPortTo(peer);
    qp->m_lineRateBps = m_ports[qp->m_port].port->GetRateBps();
    qp->m_rateBps = qp->m_lineRateBps;
    qp->m_mtu = mtu > 0 ? mtu : m_mtu;
    qp->m_baseRtt = baseRtt;
    qp->m_hops = hops;
    qp->m_selective = m_transport != GO_BACK_N;
    qp->m_unordered = m_transport == UNORDERED;
    // Unordered delivery places data on arrival: no reorder buffer bounds what is sent.
    qp->m_bitmapBytes =
        qp->m_unordered ? UINT64_MAX : static_cast<uint64_t>(m_bitmapPackets) * qp->m_mtu;
    qp->m_sack.SetReorderBytes(static_cast<uint64_t>(m_reorderPackets) * qp->m_mtu);

    RdmaRxQueuePair rx;
    rx.srcNode = m_nodeId;
    rx.srcQpn = qp->m_qpn;
    rx.priority = priority;
    rx.ackInterval = linkReliable ? peer->m_scaleUpAckInterval : 0;
    rx.bitmap.SetCapacity(peer->m_transport == UNORDERED
                              ? UINT64_MAX
                              : static_cast<uint64_t>(peer->m_bitmapPackets) * qp->m_mtu);
    peer->m_rxQps.push_back(rx);

    ObjectFactory factory(congestionControl ? m_ccTypeId.GetName() : CcNone::GetTypeId().GetName());
    qp->m_nic = this;
    qp->m_cc = factory.Create<RdmaCongestionOps>();
    qp->m_cc->Init(PeekPointer(qp));
    // A window below the coalesced ACK's span would wait for an ACK that never comes.
    const uint64_t ackSpan = static_cast<uint64_t>(rx.ackInterval) * qp->m_mtu;
    if (linkReliable && qp->GetWindowBytes() > 0 && qp->GetWindowBytes() < ackSpan)
    {
        throw InputError("node " + std::to_string(m_nodeId) + ": a scale-up queue pair's " +
                         std::to_string(qp->GetWindowBytes()) +
                         "-byte window is below ns3::RdmaNic::ScaleUpAckInterval x its " +
                         std::to_string(qp->m_mtu) + "-byte packets (" + std::to_string(ackSpan) +
                         " B): it would wait for an ACK");
    }
    m_qps.push_back(qp);
    return qp;
}

uint64_t
RdmaNic::PostSend(Ptr<RdmaQueuePair> qp, uint64_t bytes, uint64_t tag)
{
    NS_ABORT_MSG_IF(bytes == 0, "empty message on QP " << qp->m_qpn);
    RdmaMessage msg;
    msg.id = qp->m_nextMessageId++;
    msg.begin = qp->m_postedEnd;
    msg.end = qp->m_postedEnd + bytes;
    msg.tag = tag;
    msg.posted = Simulator::Now();
    qp->m_messages.push_back(msg);
    qp->m_postedEnd = msg.end;
    Activate(PeekPointer(qp));
    return msg.id;
}

void
RdmaNic::Activate(RdmaQueuePair* qp)
{
    PortState& ps = m_ports[qp->m_port];
    if (!qp->m_active && qp->HasSendableData())
    {
        qp->m_active = true;
        ps.qps.push_back(qp);
    }
    ps.port->NotifyWork();
}

bool
RdmaNic::DequeueFrame(RocePort& port, RoceFrame& frame)
{
    PortState& ps = m_ports[port.GetOwnerIndex()];
    // Control frames first, in order, except that a class that cannot send (paused or out
    // of credits) does not hold back the others (an ACK with its data's class, a CNP in
    // its own class).
    for (auto it = ps.control.begin(); it != ps.control.end(); ++it)
    {
        if (port.CanSend(it->priority))
        {
            frame = std::move(*it);
            ps.control.erase(it);
            return true;
        }
    }
    // Relayed control frames are strict at the relay: never behind data, paused or not.
    if (m_relay->HasControlReady(port))
    {
        return m_relay->Dequeue(port, frame);
    }
    if (ReductionMember::InUse())
    {
        Ptr<ReductionMember> member = GetObject<ReductionMember>();
        if (member && member->Dequeue(port, frame))
        {
            return true;
        }
    }
    const bool transitReady = m_relay->HasDataReady(port);
    if (transitReady && ps.arbiter.Next() == RelayArbiter::TRANSIT && m_relay->Dequeue(port, frame))
    {
        ps.arbiter.Served(RelayArbiter::TRANSIT, frame.wireBytes, !ps.qps.empty());
        return true;
    }
    if (DequeueLocalData(ps, port, frame))
    {
        ps.arbiter.Served(RelayArbiter::LOCAL, frame.wireBytes, transitReady);
        return true;
    }
    if (transitReady && m_relay->Dequeue(port, frame))
    {
        ps.arbiter.Served(RelayArbiter::TRANSIT, frame.wireBytes, false);
        return true;
    }
    return false;
}

bool
RdmaNic::DequeueLocalData(PortState& ps, RocePort& port, RoceFrame& frame)
{
    const Time now = Simulator::Now();
    Time earliest = Time::Max();
    size_t checked = 0;
    while (checked < ps.qps.size())
    {
        if (ps.next >= ps.qps.size())
        {
            ps.next = 0;
        }
        RdmaQueuePair* qp = ps.qps[ps.next];
        if (!qp->HasSendableData())
        {
            // Drained or window-bound: it is listed again when posted to or acknowledged.
            qp->m_active = false;
            ps.qps[ps.next] = ps.qps.back();
            ps.qps.pop_back();
            continue;
        }
        ++ps.next;
        ++checked;
        if (!port.CanSend(qp->m_priority))
        {
            continue;
        }
        if (qp->m_nextAvail > now)
        {
            earliest = std::min(earliest, qp->m_nextAvail);
            continue;
        }
        frame = BuildDataFrame(*qp);
        return true;
    }
    if (earliest != Time::Max() &&
        (!ps.wakeup.IsRunning() || Simulator::GetDelayLeft(ps.wakeup) > earliest - now))
    {
        ps.wakeup.Cancel();
        ps.wakeup = Simulator::Schedule(earliest - now, &RocePort::NotifyWork, ps.port);
    }
    return false;
}

void
RdmaNic::Repace(RdmaQueuePair& qp)
{
    if (!qp.m_active)
    {
        return; // listed again, and paced from m_nextAvail, when it has data
    }
    PortState& ps = m_ports[qp.m_port];
    const Time now = Simulator::Now();
    if (qp.m_nextAvail <= now)
    {
        ps.port->NotifyWork();
    }
    else if (!ps.wakeup.IsRunning() || Simulator::GetDelayLeft(ps.wakeup) > qp.m_nextAvail - now)
    {
        // A later wake-up than needed only costs a check: DequeueFrame re-arms it.
        ps.wakeup.Cancel();
        ps.wakeup = Simulator::Schedule(qp.m_nextAvail - now, &RocePort::NotifyWork, ps.port);
    }
}

bool
RdmaNic::HasPending(const RocePort& port) const
{
    // Listed QPs may be paced or window-bound: DequeueFrame then arms the wake-up.
    const uint32_t index = port.GetOwnerIndex();
    const PortState& ps = m_ports[index];
    if (ReductionMember::InUse())
    {
        Ptr<ReductionMember> member = GetObject<ReductionMember>();
        if (member && member->HasReady(index))
        {
            return true;
        }
    }
    return !ps.control.empty() || !ps.qps.empty() || m_relay->HasQueued(index);
}

void
RdmaNic::Hold(uint32_t inPort, uint8_t priority, bool hold)
{
    PortState& ps = m_ports[inPort];
    if (ps.port->HasCreditFlowControl())
    {
        // A credit link holds its sender back by the credits the relay has not yet
        // returned (on arrival for a staged frame, else as it leaves: NpuRelay); it
        // carries no PFC frames.
        return;
    }
    const auto bit = static_cast<uint8_t>(1u << priority);
    ps.relayHold = static_cast<uint8_t>(hold ? (ps.relayHold | bit) : (ps.relayHold & ~bit));
    UpdateXoff(ps, priority);
}

void
RdmaNic::Freed(uint32_t, uint8_t, uint32_t)
{
    // PFC links resume by XON (Hold); nothing is owed per byte.
}

void
RdmaNic::UpdateXoff(PortState& ps, uint8_t priority)
{
    const bool want = (((ps.rxHold | ps.relayHold) >> priority) & 1u) != 0;
    if (want != ps.port->IsXoff(priority))
    {
        ps.port->SetPfcXoff(priority, want);
    }
}

RoceFrame
RdmaNic::BuildDataFrame(RdmaQueuePair& qp)
{
    // Selective repeat resends a lost gap before new data, then resumes where it was.
    uint64_t resume = 0;
    uint64_t gapEnd = UINT64_MAX;
    uint64_t gapSeq = 0;
    const bool resend = qp.m_selective && qp.m_sack.NextResend(gapSeq, gapEnd);
    if (resend)
    {
        resume = qp.m_sndNxt;
        qp.m_sndNxt = gapSeq;
    }
    auto msg = std::find_if(qp.m_messages.begin(),
                            qp.m_messages.end(),
                            [&qp](const RdmaMessage& m) { return m.end > qp.m_sndNxt; });
    NS_ABORT_MSG_IF(msg == qp.m_messages.end(), "no message holds byte " << qp.m_sndNxt);
    const uint64_t left = msg->end - qp.m_sndNxt;
    const auto payload =
        static_cast<uint32_t>(std::min<uint64_t>({qp.m_mtu, left, gapEnd - qp.m_sndNxt}));

    RoceFrame frame;
    frame.header = MakeRoceHeader();
    RoceHeader& h = *frame.header;
    h.type = RoceHeader::DATA;
    h.priority = qp.m_priority;
    h.flags = RoceHeader::ECT;
    if (payload == left)
    {
        h.Set(RoceHeader::LAST);
    }
    if (qp.m_cc->NeedsInt())
    {
        h.Set(RoceHeader::WANT_INT);
    }
    if (const PintSettings pint = qp.m_cc->GetPintSettings(); pint.logBase > 0)
    {
        h.Set(RoceHeader::WANT_PINT);
        h.pintLogBase = static_cast<float>(pint.logBase);
        h.pintEwmaPs = pint.period.GetPicoSeconds();
    }
    if (qp.m_cc->NeedsCnp())
    {
        h.Set(RoceHeader::WANT_CNP);
    }
    h.src = m_nodeId;
    h.dst = qp.m_peerNode;
    h.srcQp = qp.m_qpn;
    h.dstQp = qp.m_peerQpn;
    h.seq = qp.m_sndNxt;
    h.entropy = qp.m_nextEntropy;
    qp.m_nextEntropy = qp.m_nextEntropy + 1 < qp.m_entropies ? qp.m_nextEntropy + 1 : 0;
    h.payload = payload;
    h.imm = msg->tag;
    h.sackSeq = msg->begin;
    h.timestampPs = Simulator::Now().GetPicoSeconds();

    frame.wireBytes = h.GetWireBytes();
    frame.priority = qp.m_priority;
    frame.payload = payload;

    // Nothing was in flight: the timer measures from this packet, not from a deadline
    // left over from data acknowledged earlier.
    if (qp.m_sndUna >= qp.m_sentHigh)
    {
        qp.m_rtoDeadline = RtoDeadline(qp);
    }
    if (qp.m_sndNxt < qp.m_sentHigh)
    {
        const uint64_t again = std::min<uint64_t>(payload, qp.m_sentHigh - qp.m_sndNxt);
        qp.m_retransmittedBytes += again;
        m_counters.retransmittedBytes += again;
    }
    qp.m_sndNxt += payload;
    qp.m_sentHigh = std::max(qp.m_sentHigh, qp.m_sndNxt);
    if (resend)
    {
        qp.m_sack.Resent(gapSeq, qp.m_sndNxt);
        qp.m_sndNxt = std::max(resume, qp.m_sndNxt);
    }
    qp.m_lastTxTime = Simulator::Now();
    qp.m_lastTxWireBytes = frame.wireBytes;
    qp.UpdateNextAvail();
    ++m_counters.dataPacketsTx;
    m_counters.dataBytesTx += payload;
    qp.m_cc->OnSend(payload);
    ArmRto(qp);
    return frame;
}

void
RdmaNic::ReceiveFrame(RocePort& port, RoceFrame&& frame)
{
    NS_ASSERT_MSG(frame.header, "node " << m_nodeId << ": a frame without a RoCE header");
    const RoceHeader& h = *frame.header;
    const uint32_t wireBytes = frame.wireBytes;
    if (h.dst != m_nodeId)
    {
        Forward(port.GetOwnerIndex(), std::move(frame));
        return;
    }
    switch (h.type)
    {
    case RoceHeader::DATA:
        if (m_rxRate.GetBitRate() > 0)
        {
            QueueReceivedData(
                port.GetOwnerIndex(), h, wireBytes, frame.creditPort ? frame.creditBytes : 0);
            frame.creditPort = nullptr; // returned when the receive pipeline frees it
        }
        else
        {
            frame.ReturnCredits();
            ReceiveData(h);
        }
        break;
    case RoceHeader::ACK:
    case RoceHeader::NACK:
        frame.ReturnCredits();
        ReceiveAck(h);
        break;
    case RoceHeader::CNP:
        frame.ReturnCredits();
        ++m_counters.cnpsRx;
        if (h.dstQp < m_qps.size())
        {
            m_qps[h.dstQp]->m_cc->OnCnp();
        }
        break;
    }
}

void
RdmaNic::QueueReceivedData(uint32_t port,
                           const RoceHeader& h,
                           uint32_t wireBytes,
                           uint32_t creditBytes)
{
    PortState& ps = m_ports[port];
    const Time now = Simulator::Now();
    const Time start = std::max(now, ps.rxBusyUntil);
    ps.rxBusyUntil = start + m_rxRate.CalculateBytesTxTime(wireBytes);
    ps.rxBacklogBytes += wireBytes;
    ps.rxBacklogPayload += h.payload;
    Simulator::Schedule(
        ps.rxBusyUntil - now, &RdmaNic::ProcessedData, this, port, h, wireBytes, creditBytes);
    if (m_pfcEnabled && ((ps.lossless >> h.priority) & 1u) && ps.rxBacklogBytes >= m_pfcXoffBytes)
    {
        ps.rxHold |= static_cast<uint8_t>(1u << h.priority);
        UpdateXoff(ps, h.priority);
    }
}

void
RdmaNic::ProcessedData(uint32_t port, RoceHeader h, uint32_t wireBytes, uint32_t creditBytes)
{
    PortState& ps = m_ports[port];
    ps.port->ReturnCredits(h.priority, creditBytes); // none unless it came by credits
    ps.rxBacklogBytes -= wireBytes;
    ps.rxBacklogPayload -= h.payload;
    if (((ps.rxHold >> h.priority) & 1u) && ps.rxBacklogBytes <= m_pfcXonBytes)
    {
        ps.rxHold &= static_cast<uint8_t>(~(1u << h.priority));
        UpdateXoff(ps, h.priority);
    }
    ReceiveData(h);
}

void
RdmaNic::Forward(uint32_t inPort, RoceFrame&& frame)
{
    const RoceHeader& h = *frame.header;
    const uint32_t out =
        SelectPort(h.dst, FlowHash(h.src, h.dst, h.srcQp, h.dstQp, m_nodeId, h.entropy));
    frame.payload = h.payload;
    if (m_relay->Enqueue(inPort, out, std::move(frame)))
    {
        ++m_counters.forwardedFrames;
        m_ports[out].port->NotifyWork();
    }
}

void
RdmaNic::ReceiveTrimmed(RdmaRxQueuePair& rx, const RoceHeader& h)
{
    ++m_counters.trimmedRx;
    if (m_transport != GO_BACK_N)
    {
        ReceiveTrimmedSelective(rx, h);
        return;
    }
    const Time now = Simulator::Now();
    if (h.seq < rx.expected)
    {
        return; // a copy of bytes already delivered
    }
    // Behind a gap already asked for, the resend covers this packet too. At the gap
    // itself the header says the bytes asked for were lost again: ask at once.
    if (h.seq > rx.expected && rx.nackedSeq == rx.expected && now - rx.lastNack < m_nackRetry)
    {
        return;
    }
    rx.nackedSeq = rx.expected;
    rx.lastNack = now;
    RoceHeader nack = MakeReply(RoceHeader::NACK, h);
    nack.seq = rx.expected;
    nack.timestampPs = h.timestampPs;
    ++m_counters.nacksTx;
    SendControl(nack, h.srcQp);
}

void
RdmaNic::ReceiveData(const RoceHeader& h)
{
    if (IsInNetwork(h))
    {
        Ptr<ReductionMember> member = GetObject<ReductionMember>();
        NS_ABORT_MSG_UNLESS(member, "node " << m_nodeId << ": a reduction result, no reduction");
        m_counters.deliveredBytes += h.payload;
        member->ReceiveResult(h);
        return;
    }
    NS_ABORT_MSG_IF(h.dstQp >= m_rxQps.size(),
                    "node " << m_nodeId << ": data for unknown QP " << h.dstQp);
    RdmaRxQueuePair& rx = m_rxQps[h.dstQp];
    if (h.Has(RoceHeader::TRIMMED))
    {
        ReceiveTrimmed(rx, h);
        return;
    }
    const Time now = Simulator::Now();
    const bool ce = h.Has(RoceHeader::CE);
    if (ce)
    {
        ++m_counters.ecnMarkedRx;
        if (h.Has(RoceHeader::WANT_CNP) && (!rx.cnpSent || now - rx.lastCnp >= m_cnpInterval))
        {
            rx.cnpSent = true;
            rx.lastCnp = now;
            RoceHeader cnp = MakeReply(RoceHeader::CNP, h);
            ++m_counters.cnpsTx;
            SendControl(cnp, h.srcQp);
        }
    }

    if (m_transport == SELECTIVE_REPEAT)
    {
        ReceiveDataSelective(h, rx, ce);
        return;
    }
    if (m_transport == UNORDERED)
    {
        ReceiveDataUnordered(h, rx, ce);
        return;
    }
    if (h.seq > rx.expected)
    {
        // A gap: discard (go-back-N) and ask for the missing bytes once per interval.
        m_counters.outOfOrderBytes += h.payload;
        if (rx.nackedSeq != rx.expected || now - rx.lastNack >= m_nackRetry)
        {
            rx.nackedSeq = rx.expected;
            rx.lastNack = now;
            RoceHeader nack = MakeReply(RoceHeader::NACK, h);
            nack.seq = rx.expected;
            nack.timestampPs = h.timestampPs;
            // The packet that found the gap still measured the path.
            if (ce)
            {
                nack.Set(RoceHeader::ECN_ECHO);
            }
            nack.EchoTelemetry(h);
            ++m_counters.nacksTx;
            SendControl(nack, h.srcQp);
        }
        return;
    }

    if (rx.unackedPackets > 0 && ce != rx.ecnSinceAck)
    {
        // RFC 8257 3.2: a coalescing receiver acknowledges at once when CE changes, so
        // that every ACK covers packets of one marking and the sender counts exactly.
        RoceHeader ack = MakeReply(RoceHeader::ACK, h);
        ack.seq = rx.expected;
        if (rx.ecnSinceAck)
        {
            ack.Set(RoceHeader::ECN_ECHO);
        }
        rx.unackedPackets = 0;
        rx.ecnSinceAck = false;
        ++m_counters.acksTx;
        SendControl(ack, h.srcQp);
    }

    if (h.seq == rx.expected)
    {
        rx.expected += h.payload;
        m_counters.deliveredBytes += h.payload;
        rx.ecnSinceAck = rx.ecnSinceAck || ce;
        if (h.Has(RoceHeader::LAST))
        {
            const uint64_t bytes = rx.expected - rx.messageBegin;
            rx.messageBegin = rx.expected;
            ++rx.messagesReceived;
            m_messageReceived(rx.srcNode, rx.srcQpn, h.imm, bytes);
        }
    }
    else
    {
        m_counters.duplicateBytes += h.payload;
    }

    ++rx.unackedPackets;
    const uint32_t ackInterval = rx.ackInterval > 0 ? rx.ackInterval : m_ackInterval;
    if (h.Has(RoceHeader::LAST) || rx.unackedPackets >= ackInterval)
    {
        RoceHeader ack = MakeReply(RoceHeader::ACK, h);
        ack.seq = rx.expected;
        ack.timestampPs = h.timestampPs;
        if (rx.ecnSinceAck)
        {
            ack.Set(RoceHeader::ECN_ECHO);
        }
        ack.EchoTelemetry(h);
        rx.unackedPackets = 0;
        rx.ecnSinceAck = false;
        ++m_counters.acksTx;
        SendControl(ack, h.srcQp);
    }
}

RoceHeader
RdmaNic::MakeReply(RoceHeader::Type type, const RoceHeader& data) const
{
    RoceHeader reply;
    reply.type = type;
    if (type == RoceHeader::CNP)
    {
        reply.priority = m_cnpPriority;
    }
    else
    {
        reply.priority = m_ackPriority < 0 ? data.priority : static_cast<uint8_t>(m_ackPriority);
    }
    reply.src = m_nodeId;
    reply.dst = data.src;
    reply.srcQp = data.dstQp;
    reply.dstQp = data.srcQp;
    return reply;
}

void
RdmaNic::SendControl(RoceHeader& h, uint32_t hash)
{
    const uint32_t port = SelectPort(h.dst, hash);
    if (m_ackTurnaround.IsStrictlyPositive())
    {
        Simulator::Schedule(m_ackTurnaround, &RdmaNic::QueueControl, this, port, h);
        return;
    }
    QueueControl(port, h);
}

void
RdmaNic::QueueControl(uint32_t port, RoceHeader h)
{
    PortState& ps = m_ports[port];
    RoceFrame frame;
    frame.header = MakeRoceHeader();
    *frame.header = h;
    frame.wireBytes = h.GetWireBytes();
    frame.priority = h.priority;
    ps.control.push_back(std::move(frame));
    ps.port->NotifyWork();
}

Time
RdmaNic::GetTransmitLatency() const
{
    return m_txLatency;
}

Time
RdmaNic::GetReceiveLatency() const
{
    return m_rxLatency;
}

Time
RdmaNic::GetAckTurnaround() const
{
    return m_ackTurnaround;
}

void
RdmaNic::ReceiveAck(const RoceHeader& h)
{
    if (IsInNetwork(h))
    {
        Ptr<ReductionMember> member = GetObject<ReductionMember>();
        NS_ABORT_MSG_UNLESS(member, "node " << m_nodeId << ": a reduction grant, no reduction");
        member->ReceiveGrant(h);
        return;
    }
    NS_ABORT_MSG_IF(h.dstQp >= m_qps.size(),
                    "node " << m_nodeId << ": ACK for unknown QP " << h.dstQp);
    Ptr<RdmaQueuePair> qp = m_qps[h.dstQp];
    AckSample sample;
    sample.ackedSeq = h.seq;
    sample.ecnEcho = h.Has(RoceHeader::ECN_ECHO);
    if (h.timestampPs > 0)
    {
        sample.rtt = Simulator::Now() - PicoSeconds(h.timestampPs);
    }
    sample.nHops = h.nHops;
    sample.hops = h.hops.data();
    sample.hasPint = h.Has(RoceHeader::WANT_PINT);
    sample.pintPower = h.pintPower;
    const uint64_t heldBefore = qp->m_sack.GetSackedBytes();
    uint64_t advance = 0;
    if (h.seq > qp->m_sndUna)
    {
        advance = h.seq - qp->m_sndUna;
        AdvanceUna(*qp, h.seq);
    }
    bool newLoss = false;
    if (qp->m_selective && (h.type == RoceHeader::NACK || h.sackBytes > 0))
    {
        newLoss = ReceiveSelectiveNack(*qp, h);
        if (qp->m_unordered && !h.Has(RoceHeader::TRIMMED))
        {
            CompleteHeldMessages(*qp, h.sackSeq, h.sackSeq + h.sackBytes);
        }
    }
    // Under selective repeat a byte counts as acknowledged once, when first reported
    // held or when the cumulative point passes it, so that a report of a packet past a
    // gap carries that packet's bytes and ECN mark to the congestion control.
    sample.newlyAcked =
        qp->m_selective ? advance + qp->m_sack.GetSackedBytes() - heldBefore : advance;
    if (qp->m_selective && (h.type == RoceHeader::NACK || h.sackBytes > 0))
    {
        // Reordering is not loss: the congestion control hears a NACK only when the
        // scoreboard starts a loss episode; otherwise the report is an acknowledgement.
        if (newLoss)
        {
            qp->m_cc->OnNack(sample);
        }
        else
        {
            qp->m_cc->OnAck(sample);
        }
    }
    else if (h.type == RoceHeader::NACK)
    {
        if (qp->m_sndNxt > h.seq)
        {
            qp->m_sndNxt = h.seq;
        }
        qp->m_cc->OnNack(sample);
    }
    else
    {
        qp->m_cc->OnAck(sample);
    }
    Activate(PeekPointer(qp));
}

void
RdmaNic::AdvanceUna(RdmaQueuePair& qp, uint64_t seq)
{
    qp.m_sndUna = seq;
    qp.m_sndNxt = std::max(qp.m_sndNxt, seq);
    qp.m_rtoBackoff = 1;
    qp.m_retries = 0;
    qp.m_sack.Acknowledge(seq);
    if (qp.m_sndUna < qp.m_sndNxt)
    {
        qp.m_rtoDeadline = RtoDeadline(qp);
    }
    while (!qp.m_messages.empty() && qp.m_messages.front().end <= seq)
    {
        const RdmaMessage msg = qp.m_messages.front();
        qp.m_messages.pop_front();
        if (msg.acknowledged)
        {
            --qp.m_ackedAhead; // completed already, out of order
            continue;
        }
        m_messageSent(Ptr<RdmaQueuePair>(&qp), msg.id, msg.tag, msg.end - msg.begin, msg.posted);
    }
}

Time
RdmaNic::RtoOf(const RdmaQueuePair& qp) const
{
    const Time base = m_rto.IsStrictlyPositive() ? m_rto : IbLocalAckTimeout(m_ackTimeoutExponent);
    return base == Time::Max() ? base : base * qp.m_rtoBackoff;
}

void
RdmaNic::ArmRto(RdmaQueuePair& qp)
{
    if (qp.m_rtoArmed || qp.m_error || RtoOf(qp) == Time::Max())
    {
        return;
    }
    // One pending event per QP; progress moves the deadline instead of rescheduling.
    qp.m_rtoArmed = true;
    qp.m_rtoDeadline = RtoDeadline(qp);
    Simulator::Schedule(
        std::min(RtoOf(qp), RtoCheckPeriod()), &RdmaNic::RtoCheck, this, Ptr<RdmaQueuePair>(&qp));
}

Time
RdmaNic::RtoDeadline(const RdmaQueuePair& qp) const
{
    const Time rto = RtoOf(qp);
    return rto == Time::Max() ? rto : Simulator::Now() + rto;
}

void
RdmaNic::EnterError(Ptr<RdmaQueuePair> qp)
{
    qp->m_error = true;
    ++m_counters.queuePairErrors;
    std::ostringstream report;
    report << "node " << m_nodeId << " QP " << qp->m_qpn << " to node " << qp->m_peerNode
           << " (its receive context " << qp->m_peerQpn << ", priority " << unsigned(qp->m_priority)
           << ") exhausted its " << m_retryCount << " retries at " << Simulator::Now().GetSeconds()
           << " s: bytes " << qp->m_sndUna << " to " << qp->m_sentHigh << " unacknowledged after "
           << qp->m_timeouts << " timeouts of " << RtoOf(*qp).GetSeconds()
           << " s; the queue pair is in the error state";
    NS_LOG_WARN(report.str());
    m_qpError(qp, report.str());
    if (m_stopOnQpError)
    {
        std::cerr << "error: " << report.str() << "; the run stops" << std::endl;
        Simulator::Stop();
    }
}

void
RdmaNic::RtoCheck(Ptr<RdmaQueuePair> qp)
{
    qp->m_rtoArmed = false;
    if (qp->m_sndUna >= qp->m_sentHigh)
    {
        return; // nothing in flight
    }
    const Time now = Simulator::Now();
    if (now < qp->m_rtoDeadline)
    {
        qp->m_rtoArmed = true;
        Simulator::Schedule(
            std::min(qp->m_rtoDeadline - now, RtoCheckPeriod()), &RdmaNic::RtoCheck, this, qp);
        return;
    }
    NS_LOG_INFO("node " << m_nodeId << " QP " << qp->m_qpn << " timeout at " << qp->m_sndUna);
    ++qp->m_timeouts;
    ++m_counters.timeouts;
    if (qp->m_retries >= m_retryCount)
    {
        EnterError(qp);
        return;
    }
    ++qp->m_retries;
    if (qp->m_selective)
    {
        qp->m_sack.LoseAll(qp->m_sentHigh); // resend every gap, keep what was reported
    }
    else
    {
        qp->m_sndNxt = qp->m_sndUna;
    }
    qp->m_rtoBackoff = std::min(qp->m_rtoBackoff * 2, m_maxRtoBackoff);
    qp->m_cc->OnTimeout();
    ArmRto(*qp);
    Activate(PeekPointer(qp));
}

} // namespace ns3
