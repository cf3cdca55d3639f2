/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REMOTE_FRAME_H
#define MLFABRIC_REMOTE_FRAME_H

#include "ns3/header.h"
#include "ns3/packet.h"
#include "ns3/roce-port.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-link
 * What a RoceFrame carries besides its packet or RoCE header, at the front of the bytes
 * sent to another simulation process: its wire size, traffic class, payload, whether it
 * is a PFC frame, and whether a RoceHeader (a RoCE frame) or a packet (anything else)
 * follows.
 *
 * The encoding is in host byte order, as RoceHeader's: the processes of one run share
 * a byte order.
 */
class RemoteFrameHeader : public Header
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    /** \return GetTypeId(), for a header read through a Header reference */
    TypeId GetInstanceTypeId() const override;
    /**
     * Write the fields.
     * \param os the stream
     */
    void Print(std::ostream& os) const override;
    /** \return 14: the fields below */
    uint32_t GetSerializedSize() const override;
    /**
     * Write the fields.
     * \param start where the header goes
     */
    void Serialize(Buffer::Iterator start) const override;
    /**
     * Read what Serialize() wrote.
     * \param start where the header begins
     * \return the bytes read
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

    uint32_t wireBytes{0}; //!< the frame's bytes on the wire
    uint32_t payload{0};   //!< message payload it carries
    uint8_t priority{0};   //!< traffic class
    bool isPfc{false};     //!< a PFC frame
    bool isRoce{false};    //!< a RoceHeader follows (else the frame's packet)
};

/**
 * \ingroup mlfabric-link
 * \param frame a frame leaving for a port of another process
 * \param isPfc true for a PFC frame
 * \return the frame as one packet: a RemoteFrameHeader, then the RoceHeader of a RoCE
 *         frame (its payload is virtual and stays so) or a copy of the frame's packet
 */
Ptr<Packet> EncodeRemoteFrame(const RoceFrame& frame, bool isPfc);

/**
 * \ingroup mlfabric-link
 * The inverse of EncodeRemoteFrame().
 * \param packet the bytes another process sent; consumed
 * \param isPfc set to true for a PFC frame
 * \return the frame, equal in every field to the one encoded
 */
RoceFrame DecodeRemoteFrame(Ptr<Packet> packet, bool& isPfc);

} // namespace ns3

#endif /* MLFABRIC_REMOTE_FRAME_H */
