/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-header.h"

#include "roce-wire.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceHeader");
NS_OBJECT_ENSURE_REGISTERED(RoceHeader);

namespace
{
constexpr uint32_t kFixedBytes = 4 + 4 * 4 + 8 + 4 + 8 + 8;
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
    os << names[type] << " prio=" << unsigned(priority) << " " << src << ":" << srcQp << "->"
       << dst << ":" << dstQp << " seq=" << seq << " len=" << payload << " flags=0x" << std::hex
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
    i.WriteU8(type);
    i.WriteU8(priority);
    i.WriteU8(flags);
    i.WriteU8(nHops);
    i.WriteU32(src);
    i.WriteU32(dst);
    i.WriteU32(srcQp);
    i.WriteU32(dstQp);
    i.WriteU64(seq);
    i.WriteU32(payload);
    i.WriteU64(imm);
    i.WriteU64(static_cast<uint64_t>(timestampPs));
    for (uint32_t h = 0; h < nHops; ++h)
    {
        i.WriteU64(static_cast<uint64_t>(hops[h].timestamp.GetPicoSeconds()));
        i.WriteU64(hops[h].txBytes);
        i.WriteU64(hops[h].qlenBytes);
        i.WriteU64(hops[h].rateBps);
    }
}

uint32_t
RoceHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    type = static_cast<Type>(i.ReadU8());
    priority = i.ReadU8();
    flags = i.ReadU8();
    nHops = i.ReadU8();
    src = i.ReadU32();
    dst = i.ReadU32();
    srcQp = i.ReadU32();
    dstQp = i.ReadU32();
    seq = i.ReadU64();
    payload = i.ReadU32();
    imm = i.ReadU64();
    timestampPs = static_cast<int64_t>(i.ReadU64());
    for (uint32_t h = 0; h < nHops; ++h)
    {
        hops[h].timestamp = PicoSeconds(static_cast<int64_t>(i.ReadU64()));
        hops[h].txBytes = i.ReadU64();
        hops[h].qlenBytes = i.ReadU64();
        hops[h].rateBps = i.ReadU64();
    }
    return GetSerializedSize();
}

uint32_t
RoceHeader::GetWireBytes() const
{
    // INT travels in the UDP payload: a hop counter plus one record per hop.
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
