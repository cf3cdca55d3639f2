/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-port.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-channel.h"
#include "ns3/roce-wire.h"
#include "ns3/simulator.h"
#include "ns3/time-resolution.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RocePort");
NS_OBJECT_ENSURE_REGISTERED(RocePort);

Ptr<Packet>
RoceFrame::ToPacket() const
{
    if (packet || !header)
    {
        return packet;
    }
    Ptr<Packet> p = Create<Packet>(header->payload);
    p->AddHeader(*header);
    return p;
}

void
RoceFrame::ReturnCredits()
{
    if (creditPort)
    {
        creditPort->ReturnCredits(creditVc, creditBytes);
        creditPort = nullptr;
    }
}

TypeId
RocePort::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RocePort")
            .SetParent<NetDevice>()
            .SetGroupName("Mlfabric")
            .AddConstructor<RocePort>()
            .AddAttribute("DataRate",
                          "Line rate of the port",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&RocePort::SetDataRate, &RocePort::GetDataRate),
                          MakeDataRateChecker())
            .AddAttribute("LossProbability",
                          "Probability that a transmitted RoCE frame is lost on the wire",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&RocePort::m_lossProbability),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("PauseQuanta",
                          "Quanta (512 bit times each) carried by the pause frames this "
                          "port sends",
                          UintegerValue(PfcHeader::kMaxQuanta),
                          MakeUintegerAccessor(&RocePort::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("PauseRefreshFraction",
                          "A held pause is refreshed after this fraction of its duration, "
                          "so that the peer never resumes while congestion lasts",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&RocePort::m_refreshFraction),
                          MakeDoubleChecker<double>(0.01, 0.99))
            .AddAttribute("PauseExpires",
                          "A received pause ends when its quanta run out (IEEE 802.1Qbb); "
                          "false keeps it until an explicit resume, as the HPCC ns-3 "
                          "simulator does",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RocePort::m_pauseExpires),
                          MakeBooleanChecker())
            .AddAttribute("PfcWatchdogTimeout",
                          "A priority paused without a break for this long is a pause "
                          "storm: the watchdog resumes it and ignores pauses for "
                          "PfcWatchdogRestore; 0 disables the watchdog",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RocePort::m_watchdogTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PfcResponseTime",
                          "Time from a pause frame's arrival to this port acting on it: frames "
                          "that start before then still go (IEEE 802.1Qbb bounds the delay; "
                          "the peer's PFC headroom budgets it). 0 acts at once, as the HPCC "
                          "simulator does",
                          TimeValue(NanoSeconds(500)),
                          MakeTimeAccessor(&RocePort::m_pfcResponse),
                          MakeTimeChecker(Time(0)))
            .AddAttribute(
                "PfcWatchdogAction",
                "What the watchdog does with a stuck priority for PfcWatchdogRestore: "
                "Drop (default, as SONiC's pfcwd) discards its queued and arriving "
                "frames; Forward sends them, ignoring pauses",
                EnumValue(RocePort::WATCHDOG_DROP),
                MakeEnumAccessor(&RocePort::m_watchdogAction),
                MakeEnumChecker(
                    RocePort::WATCHDOG_DROP, "Drop", RocePort::WATCHDOG_FORWARD, "Forward"))
            .AddAttribute("PfcWatchdogRestore",
                          "How long the watchdog ignores pause frames (and with the Drop "
                          "action, drops the priority's frames) after breaking a storm",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&RocePort::m_watchdogRestore),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CreditFlowControl",
                          "Link-level credit flow control instead of PFC: a priority "
                          "(virtual channel) sends only while it holds credits for a "
                          "maximum frame; the peer returns them as its buffer frees",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RocePort::m_creditFc),
                          MakeBooleanChecker())
            .AddAttribute(
                "CreditBytes",
                "Buffer bytes the peer grants per virtual channel: the credits "
                "each channel starts with",
                UintegerValue(128 * 1024),
                MakeUintegerAccessor(&RocePort::SetCreditBytes, &RocePort::GetCreditBytes),
                MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("CreditFrameBytes",
                          "A virtual channel cannot send while it holds fewer credits than "
                          "this: the largest frame the link carries, in its framing",
                          UintegerValue(4352),
                          MakeUintegerAccessor(&RocePort::m_creditFrameBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CreditReturnDelay",
                          "Time from the peer freeing buffer to the credits being usable "
                          "here, beyond the cable's propagation delay",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RocePort::m_creditReturnDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CreditUpdateBytes",
                          "Credit flow control: buffer freed here goes back to the peer "
                          "in one credit update once this many bytes of a virtual channel "
                          "are pending (or CreditUpdateInterval after the first of them); "
                          "0 or 1 returns every frame's credits on their own",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RocePort::m_creditUpdateBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CreditUpdateInterval",
                          "Credit flow control with CreditUpdateBytes > 1: the longest "
                          "freed credits wait for their update; 0 sends the credits freed "
                          "at one instant together",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RocePort::m_creditUpdateInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PipelineLatency",
                          "Time from a frame's last bit arriving at this port to its owner "
                          "receiving it (a scale-up switch's port-to-port latency); PFC "
                          "frames are not delayed",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RocePort::m_pipelineLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TransmitLatency",
                          "Time from a frame leaving this port's scheduler to its first "
                          "bit on the cable (a NIC's transmit pipeline); the wire is "
                          "busy for the frame's serialization only; PFC frames are not "
                          "delayed",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RocePort::m_transmitLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CutThroughBytes",
                          "0: a frame reaches this port's owner after its last bit "
                          "(store-and-forward). Otherwise its owner receives it once "
                          "this many bytes have arrived (cut-through), plus the "
                          "PipelineLatency",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RocePort::m_cutThroughBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PacketHeaderBytes",
                          "0: frames are RoCEv2 over Ethernet. Otherwise the link's own "
                          "framing: payload in packets of at most PacketPayloadBytes, each "
                          "with this header, rounded up to FlitBytes, no preamble or gap; "
                          "a control frame is one header",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RocePort::m_packetHeader),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PacketPayloadBytes",
                          "Largest payload of one packet of the link's own framing",
                          UintegerValue(256),
                          MakeUintegerAccessor(&RocePort::m_packetPayload),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("FlitBytes",
                          "Flow-control unit of the link's own framing: every packet is "
                          "rounded up to a multiple of it",
                          UintegerValue(16),
                          MakeUintegerAccessor(&RocePort::m_flitBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("Tx",
                            "A frame started on the wire",
                            MakeTraceSourceAccessor(&RocePort::m_txTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Loss",
                            "A frame was lost on the wire",
                            MakeTraceSourceAccessor(&RocePort::m_lossTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("FailureLoss",
                            "A RoCE frame was lost because the link is down (SetLinkFailed)",
                            MakeTraceSourceAccessor(&RocePort::m_failureLossTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PfcTx",
                            "A PFC frame was sent: priority, quanta (0 = resume)",
                            MakeTraceSourceAccessor(&RocePort::m_pfcTxTrace),
                            "ns3::RocePort::PfcTxCallback")
            .AddTraceSource("PfcPause",
                            "A priority of this port was paused by the peer and has "
                            "resumed: priority, paused duration",
                            MakeTraceSourceAccessor(&RocePort::m_pauseTrace),
                            "ns3::RocePort::PfcPauseCallback")
            .AddTraceSource("PfcWatchdog",
                            "The PFC watchdog broke a pause storm on a priority",
                            MakeTraceSourceAccessor(&RocePort::m_watchdogTrace),
                            "ns3::RocePort::PfcWatchdogCallback")
            .AddTraceSource("CreditStall",
                            "The wire was idle for lack of credits on a virtual channel and "
                            "credits came back: priority, idle duration",
                            MakeTraceSourceAccessor(&RocePort::m_creditStallTrace),
                            "ns3::RocePort::PfcPauseCallback");
    return tid;
}

RocePort::RocePort()
    : m_lossRng(CreateObject<UniformRandomVariable>())
{
    RequirePicosecondResolution("RocePort");
}

void
RocePort::SetCreditBytes(uint64_t bytes)
{
    m_creditBytes = bytes;
    m_credits.fill(bytes);
}

uint64_t
RocePort::GetCreditBytes() const
{
    return m_creditBytes;
}

uint64_t
RocePort::GetCredits(uint8_t priority) const
{
    return m_credits[priority];
}

Time
RocePort::GetPipelineLatency() const
{
    return m_pipelineLatency;
}

Time
RocePort::GetTransmitLatency() const
{
    return m_transmitLatency;
}

uint32_t
RocePort::GetCutThroughBytes() const
{
    return m_cutThroughBytes;
}

Time
RocePort::GetArrivalLatency(uint32_t wireBytes, Time txTime) const
{
    if (m_cutThroughBytes == 0 || wireBytes <= m_cutThroughBytes)
    {
        return txTime + m_pipelineLatency;
    }
    // The owner starts on the frame once its first CutThroughBytes have arrived.
    return txTime * static_cast<int64_t>(m_cutThroughBytes) / static_cast<int64_t>(wireBytes) +
           m_pipelineLatency;
}

uint32_t
RocePort::GetPhyOverheadBytes() const
{
    return m_packetHeader > 0 ? 0 : wire::PhyOverheadBytes();
}

void
RocePort::FrameForLink(RoceFrame& frame) const
{
    if (!frame.header)
    {
        return;
    }
    if (m_packetHeader == 0)
    {
        if (frame.linkFramed)
        {
            // It crossed a link with its own framing: RoCEv2 sizes it again here.
            frame.wireBytes = frame.header->GetWireBytes();
            frame.linkFramed = false;
        }
        return;
    }
    const uint32_t payload = frame.header->type == RoceHeader::DATA ? frame.header->payload : 0;
    frame.wireBytes = wire::LinkFramedBytes(payload, m_packetHeader, m_packetPayload, m_flitBytes);
    frame.linkFramed = true;
}

void
RocePort::ChargeCredits(RoceFrame& frame)
{
    const uint8_t vc = frame.priority;
    NS_ABORT_MSG_IF(m_credits[vc] < frame.wireBytes,
                    "node " << (m_node ? m_node->GetId() : 0) << " port " << m_ownerIndex << ": a "
                            << frame.wireBytes << "-byte frame on virtual channel " << unsigned(vc)
                            << " with " << m_credits[vc]
                            << " credits (CreditFrameBytes below the largest frame?)");
    m_credits[vc] -= frame.wireBytes;
    frame.creditBytes = frame.wireBytes;
    frame.creditVc = vc;
    if (m_credits[vc] < m_creditFrameBytes && !IsCreditStalled(vc))
    {
        m_creditStalledMask |= static_cast<uint8_t>(1u << vc);
        m_stallStart[vc] = m_busyUntil; // the wire idles from the end of this frame
    }
}

void
RocePort::ReturnCredits(uint8_t priority, uint32_t bytes)
{
    if (!GetPeer() || bytes == 0)
    {
        return;
    }
    if (m_creditUpdateBytes <= 1)
    {
        SendCreditUpdate(priority, bytes);
        return;
    }
    // Coalesce: one update per CreditUpdateBytes freed, or when the oldest waited the
    // interval. The timer is not cancelled when bytes flush first; it re-arms itself
    // for the credits still pending, so a steady stream costs one event per interval.
    if (m_pendingCredits[priority] == 0)
    {
        m_pendingSince[priority] = Simulator::Now();
    }
    m_pendingCredits[priority] += bytes;
    if (m_pendingCredits[priority] >= m_creditUpdateBytes)
    {
        const uint64_t pending = m_pendingCredits[priority];
        m_pendingCredits[priority] = 0;
        SendCreditUpdate(priority, pending);
        return;
    }
    if (!m_creditFlush[priority].IsRunning())
    {
        m_creditFlush[priority] =
            Simulator::Schedule(m_creditUpdateInterval, &RocePort::FlushCredits, this, priority);
    }
}

void
RocePort::FlushCredits(uint8_t priority)
{
    if (m_pendingCredits[priority] == 0)
    {
        return;
    }
    const Time due = m_pendingSince[priority] + m_creditUpdateInterval;
    if (Simulator::Now() < due)
    {
        m_creditFlush[priority] =
            Simulator::Schedule(due - Simulator::Now(), &RocePort::FlushCredits, this, priority);
        return;
    }
    const uint64_t pending = m_pendingCredits[priority];
    m_pendingCredits[priority] = 0;
    SendCreditUpdate(priority, pending);
}

void
RocePort::SendCreditUpdate(uint8_t priority, uint64_t bytes)
{
    Ptr<RocePort> peer = GetPeer();
    ++m_counters.creditUpdates;
    Simulator::ScheduleWithContext(peer->GetNode() ? peer->GetNode()->GetId() : 0,
                                   GetLinkDelay() + m_creditReturnDelay,
                                   &RocePort::AddCredits,
                                   PeekPointer(peer),
                                   priority,
                                   bytes);
}

void
RocePort::AddCredits(uint8_t priority, uint64_t bytes)
{
    m_credits[priority] += bytes;
    NS_ABORT_MSG_IF(m_credits[priority] > m_creditBytes,
                    "node " << (m_node ? m_node->GetId() : 0) << " port " << m_ownerIndex
                            << ": credits returned beyond CreditBytes");
    if (!IsCreditStalled(priority) || m_credits[priority] < m_creditFrameBytes)
    {
        return;
    }
    m_creditStalledMask &= static_cast<uint8_t>(~(1u << priority));
    // The wire idled for these credits if it was free and resumes with them now.
    const Time now = Simulator::Now();
    const Time wireFree = std::max(m_stallStart[priority], m_busyUntil);
    TryTransmit();
    if (now > wireFree && m_busyUntil > now)
    {
        const Time idle = now - wireFree;
        ++m_counters.creditStalls;
        m_counters.creditStallTime[priority] += idle;
        m_creditStallTrace(priority, idle);
    }
}

RocePort::~RocePort() = default;

void
RocePort::DoDispose()
{
    for (uint8_t p = 0; p < kNumPriorities; ++p)
    {
        m_pauseExpiry[p].Cancel();
        m_refresh[p].Cancel();
        m_watchdog[p].Cancel();
        m_creditFlush[p].Cancel();
    }
    m_owner = nullptr;
    m_channel = nullptr;
    m_node = nullptr;
    m_lossRng = nullptr;
    NetDevice::DoDispose();
}

void
RocePort::SetOwner(RocePortOwner* owner, uint32_t index)
{
    m_owner = owner;
    m_ownerIndex = index;
}

uint32_t
RocePort::GetOwnerIndex() const
{
    return m_ownerIndex;
}

void
RocePort::Attach(Ptr<RoceChannel> channel)
{
    m_channel = channel;
}

uint64_t
RocePort::GetRateBps() const
{
    return m_rateBps;
}

void
RocePort::SetDataRate(DataRate rate)
{
    m_rateBps = rate.GetBitRate();
}

DataRate
RocePort::GetDataRate() const
{
    return DataRate(m_rateBps);
}

Ptr<RocePort>
RocePort::GetPeer() const
{
    return m_channel ? m_channel->GetPeer(this) : nullptr;
}

Time
RocePort::GetLinkDelay() const
{
    return m_channel ? m_channel->GetDelay() : Time(0);
}

Time
RocePort::SerializationTime(uint32_t bytes) const
{
    return BitTime(static_cast<uint64_t>(bytes) * 8);
}

Time
RocePort::QuantaTime(uint16_t quanta) const
{
    return BitTime(static_cast<uint64_t>(quanta) * PfcHeader::kBitsPerQuantum);
}

Time
RocePort::BitTime(uint64_t bits) const
{
    // Whole picoseconds, rounded up (at 100 Gb/s a byte takes exactly 80 ps); 128-bit
    // so that long pauses at slow rates cannot overflow.
    const unsigned __int128 bitPs = static_cast<unsigned __int128>(bits) * 1'000'000'000'000ULL;
    return PicoSeconds(static_cast<int64_t>((bitPs + m_rateBps - 1) / m_rateBps));
}

void
RocePort::NotifyWork()
{
    TryTransmit();
}

bool
RocePort::IsBusy() const
{
    return Simulator::Now() < m_busyUntil;
}

Time
RocePort::GetPauseStart(uint8_t priority) const
{
    return m_pauseStart[priority];
}

void
RocePort::TryTransmit()
{
    if (m_txCompleteSet || !m_channel)
    {
        return; // TransmitComplete will pull the work when the wire is free
    }
    if (Simulator::Now() < m_busyUntil)
    {
        // Nothing was waiting when the frame on the wire started; something may be now.
        if (!m_pfcQueue.empty() || (m_owner && m_owner->HasPending(*this)))
        {
            ScheduleTransmitComplete();
        }
        return;
    }
    RoceFrame frame;
    bool isPfc = false;
    if (!m_pfcQueue.empty())
    {
        // MAC control frames go before any queued data and are never paused.
        auto [priority, quanta] = m_pfcQueue.front();
        m_pfcQueue.pop_front();
        PfcHeader pfc;
        pfc.SetQuanta(priority, quanta);
        frame.packet = Create<Packet>();
        frame.packet->AddHeader(pfc);
        frame.wireBytes = wire::PfcWireBytes();
        isPfc = true;
    }
    else if (!m_owner || !DequeueUnlessFlushed(frame))
    {
        return;
    }
    if (!isPfc)
    {
        FrameForLink(frame);
    }
    const Time txTime = SerializationTime(frame.wireBytes);
    m_busyUntil = Simulator::Now() + txTime;
    if (!isPfc && m_creditFc)
    {
        ChargeCredits(frame);
    }
    ++m_counters.txFrames;
    m_counters.txBytes += frame.wireBytes;
    m_counters.txPayload += frame.payload;
    if (!m_txTrace.IsEmpty())
    {
        m_txTrace(frame.ToPacket());
    }
    // Come back when the wire is free only if there is something to send then: an idle
    // port costs no event per frame, and NotifyWork() schedules the return if work comes.
    if (!m_pfcQueue.empty() || (m_owner && m_owner->HasPending(*this)))
    {
        ScheduleTransmitComplete();
    }
    const bool failedLoss = m_linkFailed;
    if (failedLoss ||
        (!isPfc && m_lossProbability > 0 && m_lossRng->GetValue() < m_lossProbability))
    {
        if (failedLoss)
        {
            CountFailureLoss(frame);
        }
        ++m_counters.lostFrames;
        m_counters.lostPayload += frame.payload;
        if (m_creditFc)
        {
            // No buffer at the peer holds it: its credits come back as if freed on arrival.
            Simulator::Schedule(txTime + GetLinkDelay() * 2 + m_creditReturnDelay,
                                &RocePort::AddCredits,
                                this,
                                frame.creditVc,
                                frame.creditBytes);
        }
        if (!m_lossTrace.IsEmpty())
        {
            m_lossTrace(frame.ToPacket());
        }
        return;
    }
    m_channel->Transmit(this, std::move(frame), isPfc, txTime);
}

void
RocePort::TransmitComplete()
{
    m_txCompleteSet = false;
    TryTransmit();
}

void
RocePort::ScheduleTransmitComplete()
{
    m_txCompleteSet = true;
    Simulator::Schedule(m_busyUntil - Simulator::Now(), &RocePort::TransmitComplete, this);
}

void
RocePort::Receive(RoceFrame&& frame, bool isPfc)
{
    if (m_linkFailed)
    {
        // On the cable when it was cut: lost, and never a frame this port received.
        m_channel->Arrived(this, frame.payload);
        CountFailureLoss(frame);
        ++m_counters.lostFrames;
        m_counters.lostPayload += frame.payload;
        frame.creditPort = m_creditFc ? this : nullptr;
        frame.ReturnCredits();
        return;
    }
    ++m_counters.rxFrames;
    m_counters.rxPayload += frame.payload;
    m_channel->Arrived(this, frame.payload);
    if (isPfc)
    {
        ReceivePfc(frame.packet);
        return;
    }
    // The frame now holds this link's credits until its owner lets it go.
    frame.creditPort = m_creditFc ? this : nullptr;
    if (m_owner)
    {
        m_owner->ReceiveFrame(*this, std::move(frame));
    }
}

bool
RocePort::DequeueUnlessFlushed(RoceFrame& frame)
{
    while (m_owner->DequeueFrame(*this, frame))
    {
        if (m_flushing == 0 || !frame.header || ((m_flushing >> frame.priority) & 1u) == 0)
        {
            return true;
        }
        if (Simulator::Now() >= m_flushUntil[frame.priority])
        {
            m_flushing &= static_cast<uint8_t>(~(1u << frame.priority));
            return true;
        }
        // The watchdog flushes this priority: the frame is dropped, never sent.
        ++m_counters.watchdogDrops;
        m_counters.watchdogDroppedPayload += frame.payload;
        ++m_counters.lostFrames;
        m_counters.lostPayload += frame.payload;
        frame.ReturnCredits();
        frame = RoceFrame();
    }
    return false;
}

Time
RocePort::GetPfcResponseTime() const
{
    return m_pfcResponse;
}

void
RocePort::ReceivePfc(Ptr<Packet> packet)
{
    ++m_counters.pfcRx;
    PfcHeader pfc;
    packet->PeekHeader(pfc);
    if (m_pfcResponse.IsStrictlyPositive())
    {
        // Frames already started, or starting within the response time, still go.
        Simulator::Schedule(m_pfcResponse, &RocePort::ApplyPfc, this, pfc);
        return;
    }
    ApplyPfc(pfc);
}

void
RocePort::ApplyPfc(const PfcHeader& pfc)
{
    bool resumed = false;
    for (uint8_t p = 0; p < kNumPriorities; ++p)
    {
        if (!pfc.IsEnabled(p))
        {
            continue;
        }
        const uint16_t quanta = pfc.GetQuanta(p);
        if (quanta > 0 && Simulator::Now() < m_ignoreUntil[p])
        {
            ++m_counters.pfcIgnored;
            continue;
        }
        m_pauseExpiry[p].Cancel();
        if (quanta == 0)
        {
            if (IsPaused(p))
            {
                EndPause(p);
                resumed = true;
            }
            continue;
        }
        if (!IsPaused(p))
        {
            m_pausedMask |= static_cast<uint8_t>(1u << p);
            m_pauseStart[p] = Simulator::Now();
            if (m_watchdogTimeout.IsStrictlyPositive())
            {
                m_watchdog[p] =
                    Simulator::Schedule(m_watchdogTimeout, &RocePort::WatchdogFired, this, p);
            }
        }
        // A refresh restarts the timer from now with the new quanta.
        if (m_pauseExpires)
        {
            m_pauseExpiry[p] =
                Simulator::Schedule(QuantaTime(quanta), &RocePort::PauseExpired, this, p);
        }
    }
    if (resumed)
    {
        TryTransmit();
    }
}

void
RocePort::PauseExpired(uint8_t priority)
{
    EndPause(priority);
    TryTransmit();
}

void
RocePort::WatchdogFired(uint8_t priority)
{
    NS_LOG_WARN("node " << (m_node ? m_node->GetId() : 0) << " port " << m_ownerIndex
                        << ": priority " << unsigned(priority) << " paused since "
                        << m_pauseStart[priority].As(Time::US) << ", watchdog resumes it");
    ++m_counters.watchdogTriggers;
    m_watchdogTrace(priority);
    m_pauseExpiry[priority].Cancel();
    m_ignoreUntil[priority] = Simulator::Now() + m_watchdogRestore;
    if (m_watchdogAction == WATCHDOG_DROP)
    {
        m_flushUntil[priority] = m_ignoreUntil[priority];
        m_flushing |= static_cast<uint8_t>(1u << priority);
    }
    EndPause(priority);
    TryTransmit();
}

void
RocePort::EndPause(uint8_t priority)
{
    m_watchdog[priority].Cancel();
    m_pausedMask &= static_cast<uint8_t>(~(1u << priority));
    const Time duration = Simulator::Now() - m_pauseStart[priority];
    m_counters.pausedTime[priority] += duration;
    m_pauseTrace(priority, duration);
}

void
RocePort::SetPfcXoff(uint8_t priority, bool xoff)
{
    if (m_xoff[priority] == xoff)
    {
        return;
    }
    m_xoff[priority] = xoff;
    m_refresh[priority].Cancel();
    SendPfc(priority, xoff ? m_pauseQuanta : 0);
}

bool
RocePort::IsXoff(uint8_t priority) const
{
    return m_xoff[priority];
}

void
RocePort::SendPfc(uint8_t priority, uint16_t quanta)
{
    if (quanta > 0)
    {
        ++m_counters.pfcPauseTx;
        const Time refresh = QuantaTime(quanta) * m_refreshFraction;
        m_refresh[priority] = Simulator::Schedule(refresh, &RocePort::RefreshPause, this, priority);
    }
    else
    {
        ++m_counters.pfcResumeTx;
        m_counters.lastXon[priority] = Simulator::Now();
    }
    m_pfcTxTrace(priority, quanta);
    m_pfcQueue.emplace_back(priority, quanta);
    NotifyWork();
}

void
RocePort::RefreshPause(uint8_t priority)
{
    if (m_xoff[priority])
    {
        SendPfc(priority, m_pauseQuanta);
    }
}

RocePort::Counters
RocePort::GetCounters() const
{
    Counters c = m_counters;
    for (uint8_t p = 0; p < kNumPriorities; ++p)
    {
        if (IsPaused(p))
        {
            c.pausedTime[p] += Simulator::Now() - m_pauseStart[p];
        }
    }
    return c;
}

int64_t
RocePort::AssignStreams(int64_t stream)
{
    m_lossRng->SetStream(stream);
    return 1;
}

// NetDevice plumbing. Frames enter through the owner's queues, not through Send():
// RoCE traffic is generated by the NIC's queue pairs and forwarded by switches.

void
RocePort::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
RocePort::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
RocePort::GetChannel() const
{
    return m_channel;
}

void
RocePort::SetAddress(Address address)
{
}

Address
RocePort::GetAddress() const
{
    return Mac48Address();
}

bool
RocePort::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
RocePort::GetMtu() const
{
    return m_mtu;
}

bool
RocePort::IsLinkUp() const
{
    return m_channel != nullptr && !m_linkFailed;
}

void
RocePort::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

void
RocePort::SetLinkFailed(bool failed)
{
    if (failed == m_linkFailed)
    {
        return;
    }
    NS_LOG_INFO("node " << (m_node ? m_node->GetId() : 0) << " port " << m_ownerIndex << ": link "
                        << (failed ? "down" : "up"));
    m_linkFailed = failed;
    if (failed)
    {
        // A dead link has no peer pausing this end: pauses received before end now.
        for (uint8_t p = 0; p < kNumPriorities; ++p)
        {
            if (IsPaused(p))
            {
                m_pauseExpiry[p].Cancel();
                EndPause(p);
            }
        }
    }
    m_linkChangeCallbacks();
    TryTransmit();
}

bool
RocePort::IsLinkFailed() const
{
    return m_linkFailed;
}

void
RocePort::CountFailureLoss(const RoceFrame& frame)
{
    ++m_counters.failedFrames;
    m_counters.failedPayload += frame.payload;
    if (frame.header && !m_failureLossTrace.IsEmpty())
    {
        m_failureLossTrace(frame.ToPacket());
    }
}

bool
RocePort::IsBroadcast() const
{
    return false;
}

Address
RocePort::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
RocePort::IsMulticast() const
{
    return false;
}

Address
RocePort::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
RocePort::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
RocePort::IsBridge() const
{
    return false;
}

bool
RocePort::IsPointToPoint() const
{
    return true;
}

bool
RocePort::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_WARN("RocePort carries RoCE traffic from its owner only; Send() is refused");
    return false;
}

bool
RocePort::SendFrom(Ptr<Packet> packet,
                   const Address& source,
                   const Address& dest,
                   uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
RocePort::GetNode() const
{
    return m_node;
}

void
RocePort::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
RocePort::NeedsArp() const
{
    return false;
}

void
RocePort::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
}

void
RocePort::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
}

bool
RocePort::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
