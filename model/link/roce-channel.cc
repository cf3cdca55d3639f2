/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-channel.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/roce-port.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceChannel");
NS_OBJECT_ENSURE_REGISTERED(RoceChannel);

TypeId
RoceChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceChannel")
                            .SetParent<Channel>()
                            .SetGroupName("Mlfabric")
                            .AddConstructor<RoceChannel>()
                            .AddAttribute("Delay",
                                          "One-way propagation delay of the cable",
                                          TimeValue(MicroSeconds(1)),
                                          MakeTimeAccessor(&RoceChannel::m_delay),
                                          MakeTimeChecker(Time(0)));
    return tid;
}

void
RoceChannel::Connect(Ptr<RocePort> a, Ptr<RocePort> b)
{
    m_ends[0] = a;
    m_ends[1] = b;
    a->Attach(this);
    b->Attach(this);
}

Ptr<RocePort>
RoceChannel::GetPeer(const RocePort* from) const
{
    return PeekPointer(m_ends[0]) == from ? m_ends[1] : m_ends[0];
}

Time
RoceChannel::GetDelay() const
{
    return m_delay;
}

void
RoceChannel::Transmit(const RocePort* from,
                      Ptr<Packet> packet,
                      uint32_t wireBytes,
                      uint32_t payload,
                      bool isPfc,
                      Time txTime)
{
    RoceFrame frame;
    frame.packet = packet;
    frame.wireBytes = wireBytes;
    frame.payload = payload;
    Transmit(from, std::move(frame), isPfc, txTime);
}

void
RoceChannel::Transmit(const RocePort* from, RoceFrame&& frame, bool isPfc, Time txTime)
{
    m_inFlight += frame.payload;
    const uint8_t to = PeekPointer(m_ends[0]) == from ? 1 : 0;
    InFlight* f;
    if (m_free.empty())
    {
        m_records.push_back(std::make_unique<InFlight>());
        f = m_records.back().get();
    }
    else
    {
        f = m_free.back();
        m_free.pop_back();
    }
    f->frame = std::move(frame);
    f->isPfc = isPfc;
    const Time arrival =
        GetArrivalDelay(from, PeekPointer(m_ends[to]), f->frame.wireBytes, isPfc, txTime);
    Simulator::ScheduleWithContext(
        m_ends[to]->GetNode()->GetId(), arrival, &RoceChannel::Deliver, this, to, f);
}

Time
RoceChannel::GetArrivalDelay(
    const RocePort* from, const RocePort* to, uint32_t wireBytes, bool isPfc, Time txTime) const
{
    // The sender's transmit and the receiver's pipeline latencies count as time on the
    // cable: the frame is in nobody's buffer until the receiving owner sees it.
    const Time latency =
        isPfc ? txTime : from->GetTransmitLatency() + to->GetArrivalLatency(wireBytes, txTime);
    return latency + m_delay;
}

void
RoceChannel::Deliver(uint8_t to, InFlight* f)
{
    RoceFrame frame = std::move(f->frame);
    const bool isPfc = f->isPfc;
    m_free.push_back(f);
    m_ends[to]->Receive(std::move(frame), isPfc);
}

void
RoceChannel::Arrived(const RocePort* to, uint32_t payload)
{
    m_inFlight -= payload;
}

uint64_t
RoceChannel::GetPayloadInFlight() const
{
    return m_inFlight;
}

std::size_t
RoceChannel::GetNDevices() const
{
    return 2;
}

Ptr<NetDevice>
RoceChannel::GetDevice(std::size_t i) const
{
    return m_ends[i];
}

void
RoceChannel::DoDispose()
{
    m_ends[0] = nullptr;
    m_ends[1] = nullptr;
    m_free.clear();
    m_records.clear();
    Channel::DoDispose();
}

} // namespace ns3
