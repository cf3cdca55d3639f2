/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-wire.h"

#include "ns3/abort.h"
#include "ns3/roce-wire.h"
#include "ns3/scale-up-framing.h"

#include <algorithm>

namespace ns3
{

int64_t
SerializationPs(uint64_t bytes, uint64_t rateBps)
{
    const unsigned __int128 bitPs =
        static_cast<unsigned __int128>(bytes) * 8 * 1'000'000'000'000ULL;
    return static_cast<int64_t>((bitPs + rateBps - 1) / rateBps);
}

FlowWire::FlowWire(uint32_t mtu, uint32_t ackInterval)
    : m_mtu(mtu)
    , m_ackInterval(ackInterval)
{
    NS_ABORT_MSG_UNLESS(mtu > 0 && ackInterval > 0, "zero MTU or ACK interval");
}

FlowWire::FlowWire(const ScaleUpSettings& scaleUp, uint32_t ackInterval)
    : m_mtu(scaleUp.payloadBytes)
    , m_ackInterval(ackInterval)
    , m_scaleUp(scaleUp)
{
    NS_ABORT_MSG_UNLESS(m_mtu > 0 && ackInterval > 0, "zero payload or ACK interval");
}

uint32_t
FlowWire::PacketWireBytes(uint32_t payload) const
{
    return m_scaleUp ? ScaleUpFramedBytes(*m_scaleUp, payload) : DataPacketWireBytes(payload);
}

uint32_t
FlowWire::AckBytes() const
{
    return m_scaleUp ? ScaleUpFramedBytes(*m_scaleUp, 0) : AckWireBytes();
}

uint32_t
FlowWire::DataPacketWireBytes(uint32_t payload)
{
    if (wire::GetFormat() == wire::Format::HpccPeer)
    {
        return wire::peer::kDataHeader + payload;
    }
    return wire::FrameBytes(wire::kBth + payload + wire::kIcrc) + wire::kPhyOverhead;
}

uint32_t
FlowWire::AckWireBytes()
{
    if (wire::GetFormat() == wire::Format::HpccPeer)
    {
        return std::max(wire::peer::kMinControl, wire::peer::kDataHeader);
    }
    return wire::FrameBytes(wire::kBth + wire::kAeth + wire::kIcrc) + wire::kPhyOverhead;
}

uint64_t
FlowWire::MessageWireBytes(uint64_t bytes) const
{
    const uint64_t full = bytes / m_mtu;
    const auto rest = static_cast<uint32_t>(bytes % m_mtu);
    return full * PacketWireBytes(m_mtu) + (rest > 0 ? PacketWireBytes(rest) : 0);
}

uint32_t
FlowWire::LastPacketWireBytes(uint64_t bytes) const
{
    const auto rest = static_cast<uint32_t>(bytes % m_mtu);
    return PacketWireBytes(rest > 0 ? rest : m_mtu);
}

uint32_t
FlowWire::FirstPacketWireBytes(uint64_t bytes) const
{
    return PacketWireBytes(static_cast<uint32_t>(std::min<uint64_t>(bytes, m_mtu)));
}

double
FlowWire::AckWeight() const
{
    return static_cast<double>(AckBytes()) /
           (static_cast<double>(m_ackInterval) * PacketWireBytes(m_mtu));
}

FlowPathTiming::FlowPathTiming(std::vector<uint64_t> rateBps, std::vector<int64_t> delayPs)
    : FlowPathTiming(rateBps,
                     std::move(delayPs),
                     std::vector<int64_t>(rateBps.size(), 0),
                     std::vector<uint32_t>(rateBps.size(), 0))
{
}

FlowPathTiming::FlowPathTiming(std::vector<uint64_t> rateBps,
                               std::vector<int64_t> delayPs,
                               const std::vector<int64_t>& latencyPs,
                               std::vector<uint32_t> cutThroughBytes)
    : m_rateBps(std::move(rateBps))
    , m_cutThroughBytes(std::move(cutThroughBytes))
{
    NS_ABORT_MSG_UNLESS(m_rateBps.size() == delayPs.size() &&
                            m_rateBps.size() == latencyPs.size() &&
                            m_rateBps.size() == m_cutThroughBytes.size(),
                        "one delay, latency and cut-through size per hop");
    for (size_t i = 0; i < m_rateBps.size(); ++i)
    {
        m_propagationPs += delayPs[i] + latencyPs[i];
        if (m_rateBps[i] < m_rateBps[m_bottleneck])
        {
            m_bottleneck = i;
        }
    }
}

int64_t
FlowPathTiming::FixedPs(uint32_t firstPacketWire, uint32_t lastPacketWire) const
{
    int64_t ps = m_propagationPs;
    for (size_t i = 0; i < m_rateBps.size(); ++i)
    {
        if (i < m_bottleneck)
        {
            ps += ArrivalPs(i, firstPacketWire);
        }
        else if (i > m_bottleneck)
        {
            ps += ArrivalPs(i, lastPacketWire);
        }
    }
    return ps;
}

int64_t
FlowPathTiming::PacketPs(uint32_t packetWire) const
{
    int64_t ps = m_propagationPs;
    for (size_t i = 0; i < m_rateBps.size(); ++i)
    {
        ps += ArrivalPs(i, packetWire);
    }
    return ps;
}

int64_t
FlowPathTiming::ArrivalPs(size_t i, uint32_t bytes) const
{
    const int64_t whole = SerializationPs(bytes, m_rateBps[i]);
    const uint32_t cut = m_cutThroughBytes[i];
    return cut == 0 || bytes <= cut ? whole : whole * cut / bytes;
}

} // namespace ns3
