/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-channel.h"

#include "roce-port.h"

#include "ns3/log.h"
#include "ns3/node.h"
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
    m_inFlight += payload;
    Ptr<RocePort> peer = GetPeer(from);
    Simulator::ScheduleWithContext(peer->GetNode()->GetId(),
                                   txTime + m_delay,
                                   &RocePort::Receive,
                                   peer,
                                   packet,
                                   wireBytes,
                                   payload,
                                   isPfc);
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
    Channel::DoDispose();
}

} // namespace ns3
