/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FLOW_WIRE_H
#define MLFABRIC_FLOW_WIRE_H

#include "ns3/scale-up-settings.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-flow
 * How the packet level frames a message, as the flow level charges it: MTU packets
 * (a packet never spans two messages), each with the wire format's header bytes
 * (RoceHeader::GetWireBytes: 82 bytes around a RoCEv2 payload, 64-byte minimum frame),
 * and one ACK per AckInterval packets and per message's last packet. A queue pair whose
 * whole path is scale-up frames as its links do instead: packets of the dimension's
 * payload, each with its header rounded up to flits, and ACKs of one header.
 */
class FlowWire
{
  public:
    /**
     * RoCEv2 framing.
     * \param mtu payload bytes per packet, > 0
     * \param ackInterval data packets per ACK, > 0
     */
    FlowWire(uint32_t mtu, uint32_t ackInterval);

    /**
     * A scale-up dimension's framing (ScaleUpFramedBytes), packets of its payload.
     * \param scaleUp the dimension's settings
     * \param ackInterval data packets per ACK, > 0
     */
    FlowWire(const ScaleUpSettings& scaleUp, uint32_t ackInterval);

    /** \param payload bytes of one packet \return its bytes on the wire, this framing */
    uint32_t PacketWireBytes(uint32_t payload) const;

    /** \return bytes of an ACK on the wire, this framing */
    uint32_t AckBytes() const;

    /** \param payload bytes of one packet \return its bytes on the wire */
    static uint32_t DataPacketWireBytes(uint32_t payload);

    /** \return bytes of an ACK on the wire */
    static uint32_t AckWireBytes();

    /** \param bytes a message's payload \return its packets' bytes on the wire */
    uint64_t MessageWireBytes(uint64_t bytes) const;

    /** \param bytes a message's payload \return wire bytes of its last packet */
    uint32_t LastPacketWireBytes(uint64_t bytes) const;

    /** \param bytes a message's payload \return wire bytes of its first packet */
    uint32_t FirstPacketWireBytes(uint64_t bytes) const;

    /**
     * \return ACK bits on the reverse path per data bit of a stream of full packets
     *         (one ACK every AckInterval packets)
     */
    double AckWeight() const;

    /** \return payload per packet */
    uint32_t
    GetMtu() const
    {
        return m_mtu;
    }

    /** \return data packets per ACK */
    uint32_t
    GetAckInterval() const
    {
        return m_ackInterval;
    }

  private:
    uint32_t m_mtu;                           //!< payload per packet
    uint32_t m_ackInterval;                   //!< data packets per ACK
    std::optional<ScaleUpSettings> m_scaleUp; //!< set: a scale-up framing; unset: RoCEv2
};

/**
 * \ingroup mlfabric-flow
 * The fixed part of a message's time on a path: propagation and pipeline latencies, and
 * the store-and-forward (or cut-through) of one packet at every hop but the bottleneck,
 * where the flow's rate is charged.
 *
 * Packets pipeline through the hops: the first packet is stored and forwarded by each
 * hop before the bottleneck (the first hop of the lowest rate), the last one by each
 * hop after it. With every hop at one rate this is (hops - 1) x the last packet's
 * serialization, exactly the packet level's pipeline.
 */
class FlowPathTiming
{
  public:
    /** A path of no hops. */
    FlowPathTiming() = default;

    /**
     * \param rateBps rate of each hop, in path order
     * \param delayPs propagation delay of each hop, picoseconds
     */
    FlowPathTiming(std::vector<uint64_t> rateBps, std::vector<int64_t> delayPs);

    /**
     * \param rateBps rate of each hop, in path order
     * \param delayPs propagation delay of each hop, picoseconds
     * \param latencyPs pipeline latency of each hop (its sender's transmit and its
     *        receiver's receive pipeline), picoseconds
     * \param cutThroughBytes bytes of a frame the receiver of each hop waits for before
     *        forwarding it; 0 = the whole frame (store-and-forward)
     */
    FlowPathTiming(std::vector<uint64_t> rateBps,
                   std::vector<int64_t> delayPs,
                   const std::vector<int64_t>& latencyPs,
                   std::vector<uint32_t> cutThroughBytes);

    /**
     * \param firstPacketWire wire bytes of the message's first packet
     * \param lastPacketWire wire bytes of its last packet
     * \return picoseconds from the last bit leaving the bottleneck's sender to the last
     *         bit arriving, plus the first packet's way to the bottleneck
     */
    int64_t FixedPs(uint32_t firstPacketWire, uint32_t lastPacketWire) const;

    /**
     * \param packetWire wire bytes of one packet
     * \return picoseconds for that one packet to cross every hop (an ACK's way back)
     */
    int64_t PacketPs(uint32_t packetWire) const;

    /** \return total propagation delay, picoseconds */
    int64_t
    GetPropagationPs() const
    {
        return m_propagationPs;
    }

    /** \return the hops */
    size_t
    GetHopCount() const
    {
        return m_rateBps.size();
    }

  private:
    /** \return picoseconds from \p bytes of a frame starting on hop \p i to its receiver
     *          having it: the whole serialization, or that of its cut-through bytes */
    int64_t ArrivalPs(size_t i, uint32_t bytes) const;

    std::vector<uint64_t> m_rateBps;         //!< per hop
    std::vector<uint32_t> m_cutThroughBytes; //!< per hop; 0 = store-and-forward
    int64_t m_propagationPs{0};              //!< sum of the hops' delays and pipelines
    size_t m_bottleneck{0};                  //!< first hop of the lowest rate
};

/**
 * \ingroup mlfabric-flow
 * \param bytes bytes on the wire \param rateBps a rate \return serialization, picoseconds,
 *        rounded up as the packet level's ports round
 */
int64_t SerializationPs(uint64_t bytes, uint64_t rateBps);

} // namespace ns3

#endif /* MLFABRIC_FLOW_WIRE_H */
