/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "remote-frame.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/roce-header.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RemoteFrame");
NS_OBJECT_ENSURE_REGISTERED(RemoteFrameHeader);

namespace
{
constexpr uint8_t kPfcBit = 1;  //!< RemoteFrameHeader::isPfc
constexpr uint8_t kRoceBit = 2; //!< RemoteFrameHeader::isRoce
} // namespace

TypeId
RemoteFrameHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RemoteFrameHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mlfabric")
                            .AddConstructor<RemoteFrameHeader>();
    return tid;
}

TypeId
RemoteFrameHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RemoteFrameHeader::Print(std::ostream& os) const
{
    os << "wire=" << wireBytes << " payload=" << payload << " prio=" << +priority
       << (isPfc ? " pfc" : "") << (isRoce ? " roce" : "");
}

uint32_t
RemoteFrameHeader::GetSerializedSize() const
{
    return 4 + 4 + 1 + 1 + 4;
}

void
RemoteFrameHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU32(wireBytes);
    start.WriteU32(payload);
    start.WriteU8(priority);
    start.WriteU8((isPfc ? kPfcBit : 0) | (isRoce ? kRoceBit : 0));
    // A marker that catches a stream read out of step.
    start.WriteU32(0x4d4c4652); // "MLFR"
}

uint32_t
RemoteFrameHeader::Deserialize(Buffer::Iterator start)
{
    wireBytes = start.ReadU32();
    payload = start.ReadU32();
    priority = start.ReadU8();
    const uint8_t bits = start.ReadU8();
    isPfc = (bits & kPfcBit) != 0;
    isRoce = (bits & kRoceBit) != 0;
    const uint32_t marker = start.ReadU32();
    NS_ABORT_MSG_IF(marker != 0x4d4c4652, "a frame from another process is corrupt");
    return GetSerializedSize();
}

Ptr<Packet>
EncodeRemoteFrame(const RoceFrame& frame, bool isPfc)
{
    RemoteFrameHeader h;
    h.wireBytes = frame.wireBytes;
    h.payload = frame.payload;
    h.priority = frame.priority;
    h.isPfc = isPfc;
    h.isRoce = frame.header != nullptr && !frame.packet;
    NS_ABORT_MSG_IF(!h.isRoce && !frame.packet, "a frame with neither packet nor header");
    Ptr<Packet> p = h.isRoce ? Create<Packet>() : frame.packet->Copy();
    if (h.isRoce)
    {
        p->AddHeader(*frame.header);
    }
    p->AddHeader(h);
    return p;
}

RoceFrame
DecodeRemoteFrame(Ptr<Packet> packet, bool& isPfc)
{
    RemoteFrameHeader h;
    packet->RemoveHeader(h);
    RoceFrame frame;
    frame.wireBytes = h.wireBytes;
    frame.payload = h.payload;
    frame.priority = h.priority;
    isPfc = h.isPfc;
    if (h.isRoce)
    {
        frame.header = MakeRoceHeader();
        packet->RemoveHeader(*frame.header);
    }
    else
    {
        frame.packet = packet;
    }
    return frame;
}

} // namespace ns3
