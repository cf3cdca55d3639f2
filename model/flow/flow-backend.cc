/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-backend.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/reduction-engine.h"
#include "ns3/scale-up-framing.h"
#include "ns3/scale-up-hop.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowBackend");
NS_OBJECT_ENSURE_REGISTERED(FlowBackend);

TypeId
FlowBackend::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowBackend")
            .SetParent<NetworkBackend>()
            .SetGroupName("Mlfabric")
            .AddConstructor<FlowBackend>()
            .AddAttribute("Mtu",
                          "Payload bytes per packet, as the packet level's ns3::RdmaNic::Mtu",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&FlowBackend::m_mtu),
                          MakeUintegerChecker<uint32_t>(64, 9000))
            .AddAttribute("AckInterval",
                          "Data packets per ACK, as ns3::RdmaNic::AckInterval (a message's "
                          "last packet is always acknowledged)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&FlowBackend::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ScaleUpAckInterval",
                          "Data packets per ACK on a queue pair whose whole path is "
                          "scale-up, as ns3::RdmaNic::ScaleUpAckInterval",
                          UintegerValue(64),
                          MakeUintegerAccessor(&FlowBackend::m_scaleUpAckInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("QpPerMessage",
                          "A new queue pair (flow) for every message, as "
                          "ns3::RdmaNetworkBackend::QpPerMessage",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FlowBackend::m_qpPerMessage),
                          MakeBooleanChecker())
            .AddAttribute("Incremental",
                          "Re-solve only the flows that share links, directly or through "
                          "others, with a flow that starts or stops; false re-solves every "
                          "active flow (same rates, for measuring)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FlowBackend::m_incremental),
                          MakeBooleanChecker())
            .AddAttribute("AckLoad",
                          "ACKs load the links of the reverse path with their share of "
                          "each flow's rate",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FlowBackend::m_ackLoad),
                          MakeBooleanChecker())
            .AddAttribute("SwitchLatency",
                          "Pipeline latency of an Ethernet switch, as "
                          "ns3::SwitchPipeline::Latency",
                          TimeValue(NanoSeconds(300)),
                          MakeTimeAccessor(&FlowBackend::m_switchLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("SwitchCutThroughBytes",
                          "Bytes an Ethernet switch waits for before forwarding a frame, "
                          "as ns3::SwitchPipeline::CutThroughBytes; 0: store-and-forward "
                          "(ns3::SwitchPipeline::Mode). A port slower than its switch's "
                          "fastest stores and forwards, as at packet level",
                          UintegerValue(64),
                          MakeUintegerAccessor(&FlowBackend::m_cutThroughBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("NicTransmitLatency",
                          "Transmit pipeline of an NPU's Ethernet ports, as "
                          "ns3::RdmaNic::TransmitLatency",
                          TimeValue(NanoSeconds(400)),
                          MakeTimeAccessor(&FlowBackend::m_nicTxLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("NicReceiveLatency",
                          "Receive pipeline of an NPU's Ethernet ports, as "
                          "ns3::RdmaNic::ReceiveLatency",
                          TimeValue(NanoSeconds(400)),
                          MakeTimeAccessor(&FlowBackend::m_nicRxLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("AckTurnaround",
                          "Receiver's time from data to its ACK, as "
                          "ns3::RdmaNic::AckTurnaround",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&FlowBackend::m_ackTurnaround),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Resolved",
                            "Flows started or stopped and the rates were re-solved, once per "
                            "instant of starts and stops",
                            MakeTraceSourceAccessor(&FlowBackend::m_resolved),
                            "ns3::FlowBackend::ResolvedCallback");
    return tid;
}

FlowBackend::FlowBackend() = default;
FlowBackend::~FlowBackend() = default;

void
FlowBackend::DoDispose()
{
    m_wakeup.Cancel();
    m_wakeupPs = FlowDrainQueue::kNever;
    m_resolve.Cancel();
    m_resolvePending = false;
    m_qps.clear();
    m_rates.reset();
    m_router.reset();
    NetworkBackend::DoDispose();
}

void
FlowBackend::SetFabric(const Fabric& fabric, const RoutingTable& routes)
{
    NS_LOG_FUNCTION(this << fabric.GetName());
    auto ownFabric = std::make_unique<const Fabric>(fabric);
    auto ownRoutes = std::make_unique<const RoutingTable>(routes);
    m_router = std::make_unique<FlowRouter>(*ownFabric, *ownRoutes);
    m_fabric = std::move(ownFabric);
    m_routes = std::move(ownRoutes);
    m_wire = std::make_unique<FlowWire>(m_mtu, m_ackInterval);
    m_scaleUpWires.clear();
    for (const FabricDimension& dim : m_fabric->GetDimensions())
    {
        m_scaleUpWires.push_back(
            dim.scaleUp ? std::make_unique<FlowWire>(*dim.scaleUp, m_scaleUpAckInterval) : nullptr);
    }
    std::vector<double> capacity;
    for (uint32_t l = 0; l < m_fabric->GetLinkCount(); ++l)
    {
        const auto rate = static_cast<double>(m_fabric->GetLink(l).settings.rateBps);
        capacity.push_back(rate);
        capacity.push_back(rate);
    }
    m_rates = std::make_unique<FlowRateAllocator>(capacity, m_incremental);
    m_qps.clear();
    m_flowQp.clear();
    m_qpOf.assign(m_fabric->GetNpuCount(), {});
    m_hopQp.clear();
    m_reductions.clear();
    // In-switch reductions use the packet level's engine settings.
    Ptr<ReductionEngine> engine = CreateObject<ReductionEngine>();
    UintegerValue buffer;
    DataRateValue engineRate;
    TimeValue engineLatency;
    UintegerValue window;
    engine->GetAttribute("BufferBytes", buffer);
    engine->GetAttribute("WindowBytes", window);
    engine->GetAttribute("ReductionRate", engineRate);
    engine->GetAttribute("Latency", engineLatency);
    // One reduction's window: the buffer, or its quota of it.
    m_reductionBufferBytes = window.Get() > 0 ? std::min(buffer.Get(), window.Get()) : buffer.Get();
    m_reductionBps = engineRate.Get().GetBitRate();
    m_reductionLatency = engineLatency.Get();
    m_bufferChecked = false;
    m_txQps.assign(m_fabric->GetNpuCount(), 0);
    m_rxQps.assign(m_fabric->GetNpuCount(), 0);
}

const FlowRateAllocator&
FlowBackend::GetAllocator() const
{
    NS_ABORT_MSG_UNLESS(m_rates, "FlowBackend: SetFabric first");
    return *m_rates;
}

const std::vector<uint32_t>&
FlowBackend::GetDataPath(uint32_t qp) const
{
    return m_qps.at(qp).dataPath;
}

uint32_t
FlowBackend::GetRankCount() const
{
    return m_fabric ? m_fabric->GetNpuCount() : 0;
}

std::string
FlowBackend::GetDescription() const
{
    std::ostringstream text;
    text << "flow level, max-min fair on the routed links (ECMP by the packet level's flow "
            "hash), MTU "
         << m_mtu << " B with " << FlowWire::DataPacketWireBytes(m_mtu) - m_mtu
         << " B of headers per packet, "
         << (m_qpPerMessage ? "a queue pair per message" : "queue pairs per peer") << ", "
         << (m_ackLoad ? "ACKs every " + std::to_string(m_ackInterval) +
                             " packet(s) load the reverse links"
                       : "ACK bandwidth not charged")
         << "; switch pipeline " << m_switchLatency.As(Time::NS) << " "
         << (m_cutThroughBytes > 0 ? "cut-through after " + std::to_string(m_cutThroughBytes) + " B"
                                   : std::string("store-and-forward"))
         << ", NIC transmit " << m_nicTxLatency.As(Time::NS) << ", receive "
         << m_nicRxLatency.As(Time::NS) << ", ACK turnaround " << m_ackTurnaround.As(Time::NS)
         << DescribeScaleUp()
         << "; in-switch reductions as a flow up and a flow down per member, the result "
            "starting once every member's first chunk is at the switch (engine latency "
         << m_reductionLatency.As(Time::NS) << ", rate "
         << (m_reductionBps > 0 ? std::to_string(m_reductionBps / 1e9) + " Gb/s"
                                : std::string("unbounded"))
         << ", its buffer's credit window not modelled; over several switches, a flow per "
            "switch of the aggregation tree up and down)"
         << "; no queues, PFC, ECN or congestion control";
    uint32_t lossy = 0;
    if (m_fabric)
    {
        for (uint32_t l = 0; l < m_fabric->GetLinkCount(); ++l)
        {
            lossy += m_fabric->GetLink(l).settings.lossProbability > 0 ? 1 : 0;
        }
    }
    if (lossy > 0)
    {
        text << "; WARNING: the loss probability of " << lossy
             << " link(s) is not modelled (no losses at flow level)";
    }
    return text.str();
}

FlowPathTiming
FlowBackend::TimingOf(const std::vector<uint32_t>& path) const
{
    std::vector<uint64_t> rates;
    std::vector<int64_t> delays;
    std::vector<int64_t> latencies;
    std::vector<uint32_t> cutThrough;
    for (uint32_t directed : path)
    {
        const uint32_t l = FlowRouter::LinkOf(directed);
        const FabricLink& link = m_fabric->GetLink(l);
        const LinkSettings& s = link.settings;
        rates.push_back(s.rateBps);
        delays.push_back(s.delayPs);
        // Scale-up links pay only their switch's latency; Ethernet ones the packet level's
        // pipelines.
        const bool ethernet = m_fabric->GetLinkScaleUp(l) == nullptr;
        const uint32_t from = directed % 2 == 0 ? link.nodeA : link.nodeB;
        const uint32_t to = directed % 2 == 0 ? link.nodeB : link.nodeA;
        Time latency;
        uint32_t cut = 0;
        if (!ethernet)
        {
            latency = PicoSeconds(ScaleUpSwitchLatencyPs(*m_fabric, l, to));
        }
        else
        {
            latency = (m_fabric->IsNpu(from) ? m_nicTxLatency : Time(0)) +
                      (m_fabric->IsNpu(to) ? m_nicRxLatency : m_switchLatency);
            cut =
                !m_fabric->IsNpu(to) && s.rateBps >= FastestEthernetBps(to) ? m_cutThroughBytes : 0;
        }
        latencies.push_back(latency.GetPicoSeconds());
        cutThrough.push_back(cut);
    }
    return FlowPathTiming(rates, delays, latencies, cutThrough);
}

std::string
FlowBackend::DescribeScaleUp() const
{
    std::ostringstream text;
    if (!m_fabric)
    {
        return "";
    }
    const auto& dims = m_fabric->GetDimensions();
    for (size_t d = 0; d < dims.size(); ++d)
    {
        if (!dims[d].scaleUp)
        {
            continue;
        }
        const ScaleUpSettings& su = *dims[d].scaleUp;
        text << "; scale-up '" << dims[d].name << "': " << su.payloadBytes << " B packets framed "
             << ScaleUpFramedBytes(su, su.payloadBytes) << " B (" << su.headerBytes << " B header, "
             << su.flitBytes << " B flits), ACK every " << m_scaleUpAckInterval
             << " packets, switch latency " << su.switchLatencyPs / 1000.0
             << " ns; queue pairs crossing scale-up and RoCE links are charged each link's "
                "framing of a full MTU packet";
    }
    return text.str();
}

double
FlowBackend::LinkWeight(uint32_t link, const QueuePair& qp) const
{
    const ScaleUpSettings* su = m_fabric->GetLinkScaleUp(link);
    const int32_t dim = su ? m_fabric->GetLink(link).dimension : -1;
    if (dim == qp.scaleUpDim)
    {
        return 1.0;
    }
    const uint32_t payload = qp.wire->GetMtu();
    const uint32_t bytes =
        su ? ScaleUpFramedBytes(*su, payload) : FlowWire::DataPacketWireBytes(payload);
    return static_cast<double>(bytes) / qp.wire->PacketWireBytes(payload);
}

double
FlowBackend::AckLinkWeight(uint32_t link, const QueuePair& qp) const
{
    const ScaleUpSettings* su = m_fabric->GetLinkScaleUp(link);
    const int32_t dim = su ? m_fabric->GetLink(link).dimension : -1;
    if (dim == qp.scaleUpDim)
    {
        return qp.wire->AckWeight();
    }
    const uint32_t ack = su ? ScaleUpFramedBytes(*su, 0) : FlowWire::AckWireBytes();
    return static_cast<double>(ack) / (static_cast<double>(qp.wire->GetAckInterval()) *
                                       qp.wire->PacketWireBytes(qp.wire->GetMtu()));
}

uint64_t
FlowBackend::FastestEthernetBps(uint32_t node) const
{
    uint64_t fastest = 0;
    for (const FabricPort& port : m_fabric->GetPorts(node))
    {
        if (m_fabric->GetLinkScaleUp(port.link) == nullptr)
        {
            fastest = std::max(fastest, m_fabric->GetLink(port.link).settings.rateBps);
        }
    }
    return fastest;
}

uint32_t
FlowBackend::Open(uint32_t src, uint32_t dst)
{
    QueuePair qp;
    qp.src = src;
    qp.dst = dst;
    const uint32_t srcQp = m_txQps[src]++;
    const uint32_t dstQp = m_rxQps[dst]++;
    qp.dataPath = m_router->DataPath(src, dst, srcQp, dstQp);
    const std::vector<uint32_t> ackPath = m_router->AckPath(src, dst, srcQp, dstQp);
    // A path wholly inside one scale-up dimension frames as its links do.
    qp.wire = m_wire.get();
    if (!qp.dataPath.empty())
    {
        const int32_t dim = m_fabric->GetLink(FlowRouter::LinkOf(qp.dataPath.front())).dimension;
        const bool inside = std::all_of(qp.dataPath.begin(),
                                        qp.dataPath.end(),
                                        [this, dim](uint32_t directed)
                                        {
                                            const uint32_t l = FlowRouter::LinkOf(directed);
                                            return m_fabric->GetLinkScaleUp(l) != nullptr &&
                                                   m_fabric->GetLink(l).dimension == dim;
                                        });
        if (inside)
        {
            qp.wire = m_scaleUpWires.at(dim).get();
            qp.scaleUpDim = dim;
        }
    }
    qp.data = TimingOf(qp.dataPath);
    qp.ack = TimingOf(ackPath);
    std::vector<FlowLinkUse> uses;
    auto add = [&uses](uint32_t link, double weight)
    {
        for (FlowLinkUse& use : uses)
        {
            if (use.link == link)
            {
                use.weight += weight;
                return;
            }
        }
        uses.push_back({link, weight});
    };
    for (uint32_t link : qp.dataPath)
    {
        add(link, LinkWeight(FlowRouter::LinkOf(link), qp));
    }
    if (m_ackLoad)
    {
        for (uint32_t link : ackPath)
        {
            add(link, AckLinkWeight(FlowRouter::LinkOf(link), qp));
        }
    }
    qp.flow = m_rates->AddFlow(std::move(uses));
    const auto id = static_cast<uint32_t>(m_qps.size());
    if (m_flowQp.size() <= qp.flow)
    {
        m_flowQp.resize(qp.flow + 1);
    }
    m_flowQp[qp.flow] = id;
    NS_LOG_INFO("queue pair " << id << ": rank " << src << " QP " << srcQp << " to rank " << dst
                              << " QP " << dstQp << ", " << qp.dataPath.size() << " hops");
    m_qps.push_back(std::move(qp));
    return id;
}

uint32_t
FlowBackend::QueuePairFor(const Message& message)
{
    if (m_qpPerMessage)
    {
        return Open(message.src, message.dst);
    }
    // A rank sends to few peers: a short list per sender stays in cache.
    auto& peers = m_qpOf.at(message.src);
    for (const auto& [dst, id] : peers)
    {
        if (dst == message.dst)
        {
            return id;
        }
    }
    const uint32_t id = Open(message.src, message.dst);
    peers.emplace_back(message.dst, id);
    return id;
}

void
FlowBackend::Send(const Message& message, MessageCallback sent, MessageCallback arrived)
{
    if (!m_fabric)
    {
        throw InputError("flow backend: no fabric set before the first message");
    }
    if (CompletesWithoutNetwork(message, sent, arrived))
    {
        return;
    }
    Enqueue(QueuePairFor(message), Pending{message, std::move(sent), std::move(arrived), 0});
}

void
FlowBackend::Enqueue(uint32_t id, Pending pending)
{
    QueuePair& qp = m_qps[id];
    pending.wireLeft = static_cast<double>(qp.wire->MessageWireBytes(pending.message.bytes));
    m_wireBytesSent += pending.wireLeft;
    qp.messages.push_back(std::move(pending));
    if (qp.messages.size() == 1)
    {
        qp.updated = Simulator::Now();
        SetActive(id, true);
    }
}

void
FlowBackend::Advance(QueuePair& qp)
{
    const Time now = Simulator::Now();
    if (!qp.messages.empty() && now > qp.updated)
    {
        Pending& head = qp.messages.front();
        const double sent =
            qp.rate * static_cast<double>((now - qp.updated).GetPicoSeconds()) / 8e12;
        head.wireLeft = std::max(0.0, head.wireLeft - sent);
    }
    qp.updated = now;
}

void
FlowBackend::SetActive(uint32_t id, bool active)
{
    QueuePair& qp = m_qps[id];
    if (!active)
    {
        // A stopped flow sends nothing from now on; the others' shares wait for ApplyRates.
        qp.rate = 0;
        m_drains.Clear(id);
    }
    m_rates->SetActive(qp.flow, active);
    // OnWakeup applies the rates itself once its drains are done.
    if (!m_inWakeup && !m_resolvePending)
    {
        m_resolvePending = true;
        m_resolve = Simulator::ScheduleNow(&FlowBackend::ApplyRates, this);
    }
}

void
FlowBackend::ApplyRates()
{
    if (m_resolvePending)
    {
        m_resolvePending = false;
        m_resolve.Cancel();
    }
    if (!m_rates->HasChanges())
    {
        return;
    }
    const std::vector<uint32_t>& changed = m_rates->Resolve();
    for (uint32_t f : changed)
    {
        QueuePair& qp = m_qps[m_flowQp[f]];
        const double rate = m_rates->GetRate(f);
        // A rate that did not change keeps its drain event: same time, no new event.
        if (rate == qp.rate)
        {
            continue;
        }
        Advance(qp);
        qp.rate = rate;
        ScheduleDrain(m_flowQp[f]);
    }
    m_resolved(static_cast<uint32_t>(changed.size()));
}

void
FlowBackend::ScheduleDrain(uint32_t id)
{
    QueuePair& qp = m_qps[id];
    if (qp.messages.empty() || qp.rate <= 0)
    {
        m_drains.Clear(id);
        return;
    }
    const double ps = std::ceil(qp.messages.front().wireLeft * 8e12 / qp.rate);
    m_drains.Set(id, Simulator::Now().GetPicoSeconds() + static_cast<int64_t>(ps));
    ArmWakeup();
}

void
FlowBackend::ArmWakeup()
{
    const int64_t next = m_drains.NextTime();
    // m_wakeupPs is kNever while no wake-up is pending (EventId::IsRunning costs a
    // scheduler look-up, and this runs at every drain).
    if (next == FlowDrainQueue::kNever || m_wakeupPs <= next)
    {
        return;
    }
    if (m_wakeupPs != FlowDrainQueue::kNever)
    {
        m_wakeup.Cancel();
    }
    m_wakeupPs = next;
    m_wakeup =
        Simulator::Schedule(PicoSeconds(next) - Simulator::Now(), &FlowBackend::OnWakeup, this);
}

void
FlowBackend::OnWakeup()
{
    m_wakeupPs = FlowDrainQueue::kNever;
    const int64_t now = Simulator::Now().GetPicoSeconds();
    uint32_t qp = 0;
    m_inWakeup = true;
    // The drains due now share one re-solve; a rate it raises may make another due now.
    do
    {
        while (m_drains.PopDue(now, qp))
        {
            OnDrained(qp);
        }
        ApplyRates();
    } while (m_drains.NextTime() <= now);
    m_inWakeup = false;
    ArmWakeup();
}

void
FlowBackend::Land(uint32_t slot, int32_t inSwitch)
{
    const Message message = m_landed[slot].pending.message;
    const MessageCallback arrived = std::move(m_landed[slot].pending.arrived);
    ReleaseLanded(slot);
    if (inSwitch == 0)
    {
        ++m_deliveredMessages;
        m_deliveredBytes += message.bytes;
    }
    else if (inSwitch == 2)
    {
        m_inSwitchTreeBytes += message.bytes;
    }
    else if (inSwitch > 0)
    {
        m_inSwitchUpBytes += message.bytes;
    }
    else
    {
        // A result is delivered to its NPU, as at packet level.
        m_inSwitchDownBytes += message.bytes;
        m_deliveredBytes += message.bytes;
    }
    if (arrived)
    {
        arrived(message);
    }
}

void
FlowBackend::Acknowledge(uint32_t slot)
{
    const Message message = m_landed[slot].pending.message;
    const MessageCallback sent = std::move(m_landed[slot].pending.sent);
    ReleaseLanded(slot);
    if (sent)
    {
        sent(message);
    }
}

void
FlowBackend::ReleaseLanded(uint32_t slot)
{
    if (--m_landed[slot].waiting == 0)
    {
        m_freeLanded.push_back(slot);
    }
}

void
FlowBackend::OnDrained(uint32_t id)
{
    QueuePair& qp = m_qps[id];
    Pending head = std::move(qp.messages.front());
    qp.messages.pop_front();
    qp.updated = Simulator::Now();
    const uint64_t bytes = head.message.bytes;
    const int64_t fixedPs =
        qp.data.FixedPs(qp.wire->FirstPacketWireBytes(bytes), qp.wire->LastPacketWireBytes(bytes));
    const int64_t ackPs = qp.ack.PacketPs(qp.wire->AckBytes()) + m_ackTurnaround.GetPicoSeconds();
    // The message waits for its arrival and for its last ACK in a recycled slot.
    uint32_t slot;
    if (m_freeLanded.empty())
    {
        slot = static_cast<uint32_t>(m_landed.size());
        m_landed.emplace_back();
    }
    else
    {
        slot = m_freeLanded.back();
        m_freeLanded.pop_back();
    }
    m_landed[slot] = {std::move(head), 2};
    const int32_t inSwitch = qp.inSwitch;
    Simulator::Schedule(PicoSeconds(fixedPs), [this, slot, inSwitch]() { Land(slot, inSwitch); });
    Simulator::Schedule(PicoSeconds(fixedPs + ackPs), [this, slot]() { Acknowledge(slot); });
    if (qp.messages.empty())
    {
        SetActive(id, false);
    }
    else
    {
        ScheduleDrain(id);
    }
}

} // namespace ns3
