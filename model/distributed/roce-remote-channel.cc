/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-remote-channel.h"

#include "ns3/log.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/remote-frame.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceRemoteChannel");
NS_OBJECT_ENSURE_REGISTERED(RoceRemoteChannel);

TypeId
RoceRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceRemoteChannel")
                            .SetParent<RoceChannel>()
                            .SetGroupName("Mlfabric")
                            .AddConstructor<RoceRemoteChannel>();
    return tid;
}

bool
RoceRemoteChannel::IsRemote(const RocePort* port)
{
    return port->GetNode()->GetSystemId() != MpiInterface::GetSystemId();
}

void
RoceRemoteChannel::Connect(Ptr<RocePort> a, Ptr<RocePort> b)
{
    RoceChannel::Connect(a, b);
    for (uint8_t end = 0; end < 2; ++end)
    {
        Ptr<RocePort> port = end == 0 ? a : b;
        if (IsRemote(PeekPointer(port)) || port->GetObject<MpiReceiver>())
        {
            continue;
        }
        Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
        receiver->SetReceiveCallback(
            MakeCallback(&RoceRemoteChannel::ReceiveAcross, this).Bind(end));
        port->AggregateObject(receiver);
    }
}

void
RoceRemoteChannel::Transmit(const RocePort* from, RoceFrame&& frame, bool isPfc, Time txTime)
{
    Ptr<RocePort> to = GetPeer(from);
    if (!IsRemote(PeekPointer(to)))
    {
        RoceChannel::Transmit(from, std::move(frame), isPfc, txTime);
        return;
    }
    NS_LOG_LOGIC("frame of " << frame.wireBytes << " B to node " << to->GetNode()->GetId()
                             << " of rank " << to->GetNode()->GetSystemId());
    m_payloadSentAcross += frame.payload;
    ++m_framesSentAcross;
    const Time arrival = GetArrivalDelay(from, PeekPointer(to), frame.wireBytes, isPfc, txTime);
    Ptr<Packet> packet = EncodeRemoteFrame(frame, isPfc);
    const Time at = Simulator::Now() + arrival;
    if (Simulator::GetEventCount() == 0)
    {
        // Sent while the network is built (a message posted before the run): the null
        // message engine sets up its links to the other processes when the run starts,
        // so the frame leaves with the run's first events, arriving when it would have.
        Simulator::ScheduleNow(
            &MpiInterface::SendPacket, packet, at, to->GetNode()->GetId(), to->GetIfIndex());
        return;
    }
    MpiInterface::SendPacket(packet, at, to->GetNode()->GetId(), to->GetIfIndex());
}

void
RoceRemoteChannel::ReceiveAcross(uint8_t to, Ptr<Packet> packet)
{
    bool isPfc = false;
    RoceFrame frame = DecodeRemoteFrame(packet, isPfc);
    ++m_framesReceivedAcross;
    DynamicCast<RocePort>(GetDevice(to))->Receive(std::move(frame), isPfc);
}

void
RoceRemoteChannel::Arrived(const RocePort* to, uint32_t payload)
{
    if (IsRemote(PeekPointer(GetPeer(to))))
    {
        m_payloadReceivedAcross += payload;
        return;
    }
    RoceChannel::Arrived(to, payload);
}

uint64_t
RoceRemoteChannel::GetPayloadInFlight() const
{
    return RoceChannel::GetPayloadInFlight() + m_payloadSentAcross - m_payloadReceivedAcross;
}

uint64_t
RoceRemoteChannel::GetFramesSentAcross() const
{
    return m_framesSentAcross;
}

uint64_t
RoceRemoteChannel::GetFramesReceivedAcross() const
{
    return m_framesReceivedAcross;
}

} // namespace ns3
