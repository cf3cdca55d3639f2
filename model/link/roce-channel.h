/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ROCE_CHANNEL_H
#define MLFABRIC_ROCE_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/roce-port.h"

#include <memory>
#include <vector>

namespace ns3
{

class RocePort;

/**
 * \ingroup mlfabric-link
 * A full-duplex point-to-point cable between two RocePorts.
 *
 * A frame reaches the peer one serialization time plus the propagation delay after it
 * starts: one event per frame and direction. The frame waits in a record the channel
 * keeps and reuses, so the event carries only a pointer.
 */
class RoceChannel : public Channel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RoceChannel() = default;

    /**
     * Connect both ends.
     * \param a one port
     * \param b the other port
     */
    virtual void Connect(Ptr<RocePort> a, Ptr<RocePort> b);

    /** \param from one end \return the other end */
    Ptr<RocePort> GetPeer(const RocePort* from) const;

    /** \return the one-way propagation delay */
    Time GetDelay() const;

    /**
     * Carry a frame from \p from to its peer (virtual: a cable between simulation
     * processes carries it through the distributed simulator).
     * \param from sending port
     * \param frame the frame, its wire size and payload included
     * \param isPfc true for a PFC frame
     * \param txTime its serialization time
     */
    virtual void Transmit(const RocePort* from, RoceFrame&& frame, bool isPfc, Time txTime);

    /**
     * Carry a frame given as a packet from \p from to its peer.
     * \param from sending port
     * \param packet the frame
     * \param wireBytes its wire size
     * \param payload message payload it carries
     * \param isPfc true for a PFC frame
     * \param txTime its serialization time
     */
    void Transmit(const RocePort* from,
                  Ptr<Packet> packet,
                  uint32_t wireBytes,
                  uint32_t payload,
                  bool isPfc,
                  Time txTime);

    /**
     * A frame has reached \p to.
     * \param to receiving port
     * \param payload message payload it carried
     */
    virtual void Arrived(const RocePort* to, uint32_t payload);

    /** \return message payload on the cable now, both directions */
    virtual uint64_t GetPayloadInFlight() const;

    /** \return 2: a cable has two ends */
    std::size_t GetNDevices() const override;
    /** \param i 0 or 1 \return the port at end \p i */
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    /** Drop both ports and the frames still recorded on the cable. */
    void DoDispose() override;

    /**
     * \param from sending port
     * \param to receiving port
     * \param wireBytes the frame's size on the wire
     * \param isPfc true for a PFC frame
     * \param txTime its serialization time
     * \return from the start of transmission to the frame's delivery at \p to: the
     *         cable's delay and, for a frame other than PFC, the sender's transmit and the
     *         receiver's arrival latencies
     */
    Time GetArrivalDelay(const RocePort* from,
                         const RocePort* to,
                         uint32_t wireBytes,
                         bool isPfc,
                         Time txTime) const;

  private:
    /** A frame on the cable. */
    struct InFlight
    {
        RoceFrame frame; //!< the frame
        bool isPfc;      //!< a PFC frame
    };

    /** Hand the frame \p f to port \p to (0 or 1) and recycle its record. */
    void Deliver(uint8_t to, InFlight* f);

    Time m_delay;                                     //!< propagation delay
    Ptr<RocePort> m_ends[2];                          //!< the two ports
    uint64_t m_inFlight{0};                           //!< payload sent and not yet arrived
    std::vector<std::unique_ptr<InFlight>> m_records; //!< every record, for disposal
    std::vector<InFlight*> m_free; //!< records of delivered frames, reused: no allocation
};

} // namespace ns3

#endif /* MLFABRIC_ROCE_CHANNEL_H */
