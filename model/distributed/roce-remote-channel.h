/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ROCE_REMOTE_CHANNEL_H
#define MLFABRIC_ROCE_REMOTE_CHANNEL_H

#include "ns3/roce-channel.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-link
 * A RoceChannel whose two ports may belong to different processes of ns-3's distributed
 * simulator (the mpi module: MpiInterface with DistributedSimulatorImpl or
 * NullMessageSimulatorImpl).
 *
 * Every process builds the whole fabric; a node belongs to the process whose rank is its
 * system id. A frame towards a port of this process goes the RoceChannel way, one event;
 * a frame towards another process's port is encoded (EncodeRemoteFrame) and handed to
 * MpiInterface::SendPacket with the arrival time a RoceChannel gives it
 * (GetArrivalDelay: serialization, the ports' pipeline latencies and the delay). The
 * receiving process's engine schedules it at that time on the port's MpiReceiver, which
 * this channel aggregates to its local ends.
 * The channel's Delay attribute is what both engines read as the cable's lookahead.
 */
class RoceRemoteChannel : public RoceChannel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RoceRemoteChannel() = default;

    /**
     * Connect both ends; an end of this process gets the MpiReceiver that frames from the
     * other process reach it through.
     * \param a one port
     * \param b the other port
     */
    void Connect(Ptr<RocePort> a, Ptr<RocePort> b) override;

    using RoceChannel::Transmit;
    /**
     * Carry a frame from \p from to its peer, across processes when the peer is remote.
     * \param from sending port (of this process)
     * \param frame the frame
     * \param isPfc true for a PFC frame
     * \param txTime its serialization time
     */
    void Transmit(const RocePort* from, RoceFrame&& frame, bool isPfc, Time txTime) override;

    /**
     * A frame has reached \p to.
     * \param to receiving port (of this process)
     * \param payload message payload it carried
     */
    void Arrived(const RocePort* to, uint32_t payload) override;

    /**
     * \return this process's share of the payload on the cable: what it sent across
     *         minus what arrived from across, modulo 2^64, plus frames between its own
     *         ports. Summed over the processes it is the payload on the cable.
     */
    uint64_t GetPayloadInFlight() const override;

    /** \return frames this process sent to the other process on this cable */
    uint64_t GetFramesSentAcross() const;
    /** \return frames that arrived from the other process on this cable */
    uint64_t GetFramesReceivedAcross() const;

  private:
    /** \param port an end \return true if it belongs to another process */
    static bool IsRemote(const RocePort* port);
    /**
     * A frame from the other process, for local end \p to.
     * \param to the receiving end (0 or 1)
     * \param packet the encoded frame
     */
    void ReceiveAcross(uint8_t to, Ptr<Packet> packet);

    uint64_t m_payloadSentAcross{0};     //!< payload sent to the other process
    uint64_t m_payloadReceivedAcross{0}; //!< payload arrived from the other process
    uint64_t m_framesSentAcross{0};      //!< frames sent to the other process
    uint64_t m_framesReceivedAcross{0};  //!< frames arrived from the other process
};

} // namespace ns3

#endif /* MLFABRIC_ROCE_REMOTE_CHANNEL_H */
