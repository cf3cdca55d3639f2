/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ROCE_WIRE_H
#define MLFABRIC_ROCE_WIRE_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-link
 * Bytes a RoCEv2 frame occupies on an Ethernet wire, beyond its payload.
 *
 * Serialization time and switch buffer use are charged from these, not from the
 * simulated packet's buffer size, so that the model is exact whatever the in-memory
 * header encoding is.
 */
namespace wire
{
constexpr uint32_t kPreambleSfd = 8;    //!< preamble and start-of-frame delimiter
constexpr uint32_t kInterFrameGap = 12; //!< minimum idle time between frames
constexpr uint32_t kEthernet = 14;      //!< destination, source, EtherType
constexpr uint32_t kFcs = 4;            //!< frame check sequence
constexpr uint32_t kIpv4 = 20;          //!< IPv4 header without options
constexpr uint32_t kUdp = 8;            //!< UDP header (destination port 4791)
constexpr uint32_t kBth = 12;           //!< InfiniBand base transport header
constexpr uint32_t kIcrc = 4;           //!< invariant CRC
constexpr uint32_t kAeth = 4;           //!< ACK extended transport header
constexpr uint32_t kCnpPad = 16;        //!< reserved bytes of a CNP after the BTH
constexpr uint32_t kMinFrame = 64;      //!< minimum Ethernet frame, header to FCS
constexpr uint32_t kIntHop = 8;         //!< one INT hop record (HPCC's packing)
constexpr uint32_t kIntShim = 2;        //!< INT hop counter

/** Per-frame cost on the wire but not in a switch buffer. */
constexpr uint32_t kPhyOverhead = kPreambleSfd + kInterFrameGap;

/**
 * \param l4Payload UDP payload bytes
 * \return frame bytes (header to FCS) of a RoCEv2 packet around them, at least 64
 */
constexpr uint32_t
FrameBytes(uint32_t l4Payload)
{
    const uint32_t frame = kEthernet + kIpv4 + kUdp + l4Payload + kFcs;
    return frame < kMinFrame ? kMinFrame : frame;
}

/** RoCEv2 overhead of a data packet: 82 bytes on the wire around the payload. */
constexpr uint32_t kDataOverhead = kPhyOverhead + kEthernet + kIpv4 + kUdp + kBth + kIcrc + kFcs;
static_assert(kDataOverhead == 82, "RoCEv2 per-packet wire overhead is 82 bytes");

/** Wire bytes of a PFC (MAC control) frame: a minimum frame plus preamble and gap. */
constexpr uint32_t kPfcWireBytes = kMinFrame + kPhyOverhead;

/**
 * Bytes a frame occupies on a link with its own framing (scale-up links such as
 * NVLink-class ones): its payload split into packets of at most \p maxPayload bytes,
 * each with a \p header, each rounded up to whole flits; a frame without payload
 * (control) is one header. No preamble, gap or Ethernet/IP/UDP headers.
 * \param payload message payload of the frame
 * \param header header bytes per packet
 * \param maxPayload payload bytes per packet, at least 1
 * \param flit flit bytes, at least 1
 * \return bytes on the wire
 */
constexpr uint32_t
LinkFramedBytes(uint32_t payload, uint32_t header, uint32_t maxPayload, uint32_t flit)
{
    auto flits = [flit](uint32_t bytes)
    {
        return (bytes + flit - 1) / flit * flit;
    };
    if (payload == 0)
    {
        return flits(header);
    }
    const uint32_t full = payload / maxPayload;
    const uint32_t rest = payload % maxPayload;
    return full * flits(maxPayload + header) + (rest > 0 ? flits(rest + header) : 0);
}

static_assert(LinkFramedBytes(256, 16, 256, 16) == 272, "one full scale-up packet");
static_assert(LinkFramedBytes(4096, 16, 256, 16) == 16 * 272, "a RoCE MTU in 16 packets");
static_assert(LinkFramedBytes(1, 16, 256, 16) == 32, "a short packet takes whole flits");
static_assert(LinkFramedBytes(0, 16, 256, 16) == 16, "a control frame is one header");

/**
 * How packets are sized on the wire, process-wide.
 *
 * RoceV2 is the real layout above. HpccPeer reproduces the HPCC ns-3 simulator's
 * sizes, for like-for-like comparisons with it: a 48-byte header on data packets
 * (PPP padded to 14, IPv4, UDP, sequence and priority), its fixed 42-byte INT header
 * when INT is on, control frames padded to 60 bytes, and no preamble, FCS or gap.
 */
enum class Format
{
    RoceV2,  //!< real RoCEv2 over Ethernet
    HpccPeer //!< the HPCC ns-3 simulator's simplified sizes
};

/** Choose the wire format for every packet built from now on. \param format the format */
void SetFormat(Format format);
/** \return the wire format in use */
Format GetFormat();
/** \return bytes on the wire but not in a switch buffer (preamble, gap) */
uint32_t PhyOverheadBytes();
/** \return wire bytes of a PFC frame */
uint32_t PfcWireBytes();

/** Sizes of the HPCC peer's packets. */
namespace peer
{
constexpr uint32_t kDataHeader = 14 + 20 + 8 + 6; //!< PPP (as 14), IPv4, UDP, SeqTs
constexpr uint32_t kIntHeader = 42;               //!< five 8-byte hops and a hop count
constexpr uint32_t kPintHeader = 2;               //!< HPCC-PINT's field (always 2 B there)
constexpr uint32_t kMinControl = 60;              //!< ACK, NACK and PFC padding
} // namespace peer

} // namespace wire

} // namespace ns3

#endif /* MLFABRIC_ROCE_WIRE_H */
