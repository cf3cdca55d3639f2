/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ROCE_HEADER_H
#define MLFABRIC_ROCE_HEADER_H

#include "ns3/header.h"
#include "ns3/int-hop.h"
#include "ns3/packet.h"

#include <array>
#include <cstdint>
#include <memory>

namespace ns3
{

/**
 * \ingroup mlfabric-link
 * The transport header of every RoCEv2 packet mlfabric simulates.
 *
 * It stands for IPv4 + UDP + BTH (+ AETH on ACKs) and carries what those headers
 * carry that the model uses: node addresses, queue-pair numbers, the ECN field,
 * a 64-bit byte sequence (the 24-bit PSN of real hardware cannot wrap here), and the
 * INT stack HPCC needs. The simulated encoding is not the wire encoding: the bytes a
 * packet costs on the wire come from GetWireBytes(), which follows the real layout.
 */
class RoceHeader : public Header
{
  public:
    /** Packet kind. */
    enum Type : uint8_t
    {
        DATA = 0, //!< payload of a message
        ACK = 1,  //!< cumulative acknowledgement
        NACK = 2, //!< sequence gap: resend from the carried sequence (selective repeat:
                  //!< the missing bytes start there; sackSeq/sackBytes arrived)
        CNP = 3,  //!< congestion notification (DCQCN)
    };

    /** Bits of the flags field. */
    enum Flag : uint16_t
    {
        LAST = 1,         //!< last packet of a message
        ECT = 2,          //!< ECN-capable transport
        CE = 4,           //!< congestion experienced (set by a switch)
        WANT_INT = 8,     //!< switches stamp INT hops
        WANT_CNP = 16,    //!< the receiver answers CE marks with CNPs
        ECN_ECHO = 32,    //!< (ACK) acknowledged data carried CE
        TRIMMED = 64,     //!< (DATA) a switch cut the payload off: only the header arrives;
                          //!< (NACK) the packet sackSeq/sackBytes names was trimmed: lost
        WANT_PINT = 128,  //!< switches fold their utilisation into pintPower (HPCC-PINT)
        IN_NETWORK = 256, //!< a chunk, result or credit of an in-switch reduction
    };

    RoceHeader() = default;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    /** \return GetTypeId(), for a header read through a Header reference */
    TypeId GetInstanceTypeId() const override;
    /**
     * Write the kind, priority, endpoints, sequence, length, flags and hop count.
     * \param os the stream
     */
    void Print(std::ostream& os) const override;
    /** \return the in-memory encoding's size: the fixed fields and nHops hop records */
    uint32_t GetSerializedSize() const override;
    /**
     * Write the fields and the valid INT hops in host order; only simulations read them.
     * \param start where the header goes
     */
    void Serialize(Buffer::Iterator start) const override;
    /**
     * Read what Serialize() wrote; at most kMaxIntHops hops are read.
     * \param start where the header begins
     * \return the bytes read
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * Read the header at the front of \p packet, as PeekHeader does, with block copies:
     * this runs for every packet at every hop.
     * \param packet a packet whose first header is a RoceHeader
     */
    void PeekFrom(const Packet& packet);

    /** \return bytes this packet occupies on the wire, preamble and gap included */
    uint32_t GetWireBytes() const;

    /**
     * \param flag one Flag bit
     * \return true if \p flag is set
     */
    bool
    Has(Flag flag) const
    {
        return (flags & flag) != 0;
    }

    /** Set \p flag. \param flag one Flag bit */
    void
    Set(Flag flag)
    {
        flags |= flag;
    }

    /**
     * Append an INT hop record, if room is left.
     * \param hop the switch egress state to record
     * \return false when the stack is full
     */
    bool PushHop(const IntHop& hop);

    /**
     * Echo in this reply what the data packet measured of its path: the INT stack (HPCC)
     * and the PINT field (HPCC-PINT), each only if the packet asked for it.
     * \param data the packet acknowledged
     */
    void
    EchoTelemetry(const RoceHeader& data)
    {
        if (data.Has(WANT_INT))
        {
            Set(WANT_INT);
            nHops = data.nHops;
            hops = data.hops;
        }
        if (data.Has(WANT_PINT))
        {
            Set(WANT_PINT);
            pintPower = data.pintPower;
        }
    }

    Type type{DATA};        //!< packet kind
    uint8_t priority{0};    //!< traffic class (0..7)
    uint16_t flags{0};      //!< Flag bits
    uint8_t nHops{0};       //!< valid entries of hops
    uint32_t src{0};        //!< source node id
    uint32_t dst{0};        //!< destination node id
    uint32_t srcQp{0};      //!< source queue-pair number
    uint32_t dstQp{0};      //!< destination queue-pair number
    uint64_t seq{0};        //!< DATA: first payload byte; ACK/NACK: next expected byte
    uint32_t payload{0};    //!< payload bytes (DATA)
    uint64_t imm{0};        //!< DATA: message tag (immediate data)
    int64_t timestampPs{0}; //!< DATA: transmit time; ACK: the echoed transmit time
    uint32_t entropy{0};    //!< DATA: path entropy (UDP source port index); switches hash it
    uint64_t sackSeq{0};    //!< NACK (selective repeat): first byte of the packet it saw;
                            //!< DATA: first byte of its message (unordered delivery)
    uint32_t sackBytes{0};  //!< NACK (selective repeat): that packet's payload; 0: none.
                            //!< DATA with TRIMMED: the payload the switch cut off
    uint16_t pintPower{0};  //!< HPCC-PINT: the largest encoded utilisation on the path
    float pintLogBase{0};   //!< HPCC-PINT: the code's log base, configured fabric-wide
    int64_t pintEwmaPs{0};  //!< HPCC-PINT: the switches' utilisation EWMA period T, ps
    std::array<IntHop, kMaxIntHops> hops; //!< INT stack

  private:
    /** Fill the fields from the serialized bytes \p bytes (fixed part, then hops). */
    void Decode(const uint8_t* bytes);
};

/**
 * \ingroup mlfabric-link
 * Returns a RoceHeader to a free list instead of the heap.
 */
struct RoceHeaderRecycler
{
    /** \param header a header from MakeRoceHeader(), no longer used */
    void operator()(RoceHeader* header) const;
};

/**
 * \ingroup mlfabric-link
 * The decoded header a frame carries from hop to hop, owned by one frame at a time.
 */
using RoceHeaderPtr = std::unique_ptr<RoceHeader, RoceHeaderRecycler>;

/**
 * \ingroup mlfabric-link
 * \return a default-constructed header, from the free list when it has one (a frame
 *         is built per packet and hop count, so headers are recycled, not allocated)
 */
RoceHeaderPtr MakeRoceHeader();

} // namespace ns3

#endif /* MLFABRIC_ROCE_HEADER_H */
