/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-header.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/roce-wire.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceHeader");
NS_OBJECT_ENSURE_REGISTERED(RoceHeader);

namespace
{

/**
 * The fixed part of the header as it sits in the packet buffer. The encoding is
 * in-memory only (wire cost comes from GetWireBytes), so one block copy replaces a
 * dozen field-by-field buffer calls per hop.
 */
struct FixedFields
{
    uint8_t type;
    uint8_t priority;
    uint8_t flags;
    uint8_t nHops;
    uint32_t src;
    uint32_t dst;
    uint32_t srcQp;
    uint32_t dstQp;
    uint32_t payload;
    uint32_t entropy;
    uint32_t sackBytes;
    uint64_t seq;
    uint64_t imm;
    int64_t timestampPs;
    uint64_t sackSeq;
    uint16_t pintPower;
    uint16_t highFlags; // the flag bits above the first byte
    float pintLogBase;
    int64_t pintEwmaPs;
};

static_assert(sizeof(FixedFields) == 80, "FixedFields must have no padding");

constexpr uint32_t kFixedBytes = sizeof(FixedFields);
constexpr uint32_t kHopBytes = 4 * 8;

} // namespace

TypeId
RoceHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mlfabric")
                            .AddConstructor<RoceHeader>();
    return tid;
}

TypeId
RoceHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RoceHeader::Print(std::ostream& os) const
{
    static const char* names[] = {"DATA", "ACK", "NACK", "CNP"};
    os << names[type] << " prio=" << unsigned(priority) << " " << src << ":" << srcQp << "->" << dst
       << ":" << dstQp << " seq=" << seq << " len=" << payload << " flags=0x" << std::hex
       << unsigned(flags) << std::dec << " hops=" << unsigned(nHops);
}

uint32_t
RoceHeader::GetSerializedSize() const
{
    return kFixedBytes + nHops * kHopBytes;
}

void
RoceHeader::Serialize(Buffer::Iterator i) const
{
    const FixedFields f{type,
                        priority,
                        static_cast<uint8_t>(flags & 0xff),
                        nHops,
                        src,
                        dst,
                        srcQp,
                        dstQp,
                        payload,
                        entropy,
                        sackBytes,
                        seq,
                        imm,
                        timestampPs,
                        sackSeq,
                        pintPower,
                        static_cast<uint16_t>(flags >> 8),
                        pintLogBase,
                        pintEwmaPs};
    i.Write(reinterpret_cast<const uint8_t*>(&f), kFixedBytes);
    for (uint32_t h = 0; h < nHops; ++h)
    {
        const uint64_t hop[4] = {static_cast<uint64_t>(hops[h].timestamp.GetPicoSeconds()),
                                 hops[h].txBytes,
                                 hops[h].qlenBytes,
                                 hops[h].rateBps};
        i.Write(reinterpret_cast<const uint8_t*>(hop), kHopBytes);
    }
}

uint32_t
RoceHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    uint8_t bytes[kFixedBytes + kMaxIntHops * kHopBytes];
    i.Read(bytes, kFixedBytes);
    const uint8_t hopCount = std::min<uint8_t>(bytes[3], kMaxIntHops);
    i.Read(bytes + kFixedBytes, hopCount * kHopBytes);
    Decode(bytes);
    return GetSerializedSize();
}

void
RoceHeader::PeekFrom(const Packet& packet)
{
    // Packet::CopyData is a block copy; Buffer::Iterator::Read goes byte by byte.
    uint8_t bytes[kFixedBytes + kMaxIntHops * kHopBytes];
    const uint32_t got = packet.CopyData(bytes, sizeof(bytes));
    NS_ASSERT(got >= kFixedBytes);
    Decode(bytes);
}

void
RoceHeader::Decode(const uint8_t* bytes)
{
    FixedFields f;
    std::memcpy(&f, bytes, kFixedBytes);
    type = static_cast<Type>(f.type);
    priority = f.priority;
    flags = static_cast<uint16_t>(f.flags | (f.highFlags << 8));
    nHops = f.nHops;
    src = f.src;
    dst = f.dst;
    srcQp = f.srcQp;
    dstQp = f.dstQp;
    payload = f.payload;
    entropy = f.entropy;
    sackBytes = f.sackBytes;
    seq = f.seq;
    imm = f.imm;
    timestampPs = f.timestampPs;
    sackSeq = f.sackSeq;
    pintPower = f.pintPower;
    pintLogBase = f.pintLogBase;
    pintEwmaPs = f.pintEwmaPs;
    for (uint32_t h = 0; h < nHops; ++h)
    {
        uint64_t hop[4];
        std::memcpy(hop, bytes + kFixedBytes + h * kHopBytes, kHopBytes);
        hops[h].timestamp = PicoSeconds(static_cast<int64_t>(hop[0]));
        hops[h].txBytes = hop[1];
        hops[h].qlenBytes = hop[2];
        hops[h].rateBps = hop[3];
    }
}

uint32_t
RoceHeader::GetWireBytes() const
{
    if (wire::GetFormat() == wire::Format::HpccPeer)
    {
        const uint32_t intBytes =
            Has(WANT_INT) ? wire::peer::kIntHeader : (Has(WANT_PINT) ? wire::peer::kPintHeader : 0);
        if (type == DATA)
        {
            return wire::peer::kDataHeader + intBytes + payload;
        }
        return std::max(wire::peer::kMinControl, wire::peer::kDataHeader + intBytes);
    }
    // INT travels in the UDP payload: a hop counter plus one record per hop. PINT's code
    // fits the 16-bit IPv4 Identification field, as its paper proposes: no extra bytes.
    const uint32_t intBytes = Has(WANT_INT) ? wire::kIntShim + nHops * wire::kIntHop : 0;
    uint32_t transport = 0;
    switch (type)
    {
    case DATA:
        transport = wire::kBth + payload + wire::kIcrc;
        break;
    case ACK:
    case NACK:
        transport = wire::kBth + wire::kAeth + wire::kIcrc;
        break;
    case CNP:
        transport = wire::kBth + wire::kCnpPad + wire::kIcrc;
        break;
    }
    return wire::FrameBytes(transport + intBytes) + wire::kPhyOverhead;
}

namespace
{

/** \return the free headers; never destroyed, so frames may outlive static cleanup */
std::vector<RoceHeader*>&
FreeHeaders()
{
    static auto* headers = new std::vector<RoceHeader*>();
    return *headers;
}

} // namespace

void
RoceHeaderRecycler::operator()(RoceHeader* header) const
{
    FreeHeaders().push_back(header);
}

RoceHeaderPtr
MakeRoceHeader()
{
    auto& free = FreeHeaders();
    if (free.empty())
    {
        return RoceHeaderPtr(new RoceHeader());
    }
    RoceHeader* header = free.back();
    free.pop_back();
    *header = RoceHeader();
    return RoceHeaderPtr(header);
}

bool
RoceHeader::PushHop(const IntHop& hop)
{
    if (nHops >= kMaxIntHops)
    {
        return false;
    }
    hops[nHops++] = hop;
    return true;
}

} // namespace ns3
