/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// A RoceFrame encoded for another simulation process comes back equal in every field,
// through the same Packet::Serialize and deserializing constructor ns-3's mpi module uses.

#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/remote-frame.h"
#include "ns3/roce-header.h"
#include "ns3/roce-wire.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

#include <vector>

using namespace ns3;

namespace
{

/** \return \p p after the byte round trip of MpiInterface::SendPacket and its receiver */
Ptr<Packet>
AcrossProcesses(Ptr<Packet> p)
{
    std::vector<uint8_t> bytes(p->GetSerializedSize());
    EXPECT_EQ(p->Serialize(bytes.data(), bytes.size()), 1);
    return Create<Packet>(bytes.data(), bytes.size(), true);
}

} // namespace

TEST(RemoteFrame, RoceFrameWithIntHopsRoundTrips)
{
    RoceFrame frame;
    frame.header = MakeRoceHeader();
    RoceHeader& h = *frame.header;
    h.type = RoceHeader::DATA;
    h.priority = 3;
    h.Set(RoceHeader::ECT);
    h.Set(RoceHeader::WANT_INT);
    h.Set(RoceHeader::LAST);
    h.src = 7;
    h.dst = 1'000'003;
    h.srcQp = 42;
    h.dstQp = 43;
    h.seq = 5'000'000'000'123ULL; // beyond 32 bits: sizes are 64-bit
    h.payload = 4096;
    h.imm = 0xfeedfacecafebeefULL;
    h.timestampPs = 123'456'789'012LL;
    for (uint64_t i = 0; i < 3; ++i)
    {
        IntHop hop;
        hop.timestamp = PicoSeconds(1000 * (i + 1));
        hop.txBytes = (1ULL << 40) + i;
        hop.qlenBytes = 1500 * i;
        hop.rateBps = 400'000'000'000ULL;
        ASSERT_TRUE(h.PushHop(hop));
    }
    frame.wireBytes = h.GetWireBytes();
    frame.priority = 3;
    frame.payload = 4096;

    bool isPfc = true;
    RoceFrame back = DecodeRemoteFrame(AcrossProcesses(EncodeRemoteFrame(frame, false)), isPfc);
    EXPECT_FALSE(isPfc);
    EXPECT_FALSE(back.packet);
    ASSERT_NE(back.header, nullptr);
    EXPECT_EQ(back.wireBytes, frame.wireBytes);
    EXPECT_EQ(back.wireBytes, 4096 + wire::kDataOverhead + wire::kIntShim + 3 * wire::kIntHop);
    EXPECT_EQ(back.priority, 3);
    EXPECT_EQ(back.payload, 4096u);
    const RoceHeader& b = *back.header;
    EXPECT_EQ(b.type, h.type);
    EXPECT_EQ(b.priority, h.priority);
    EXPECT_EQ(b.flags, h.flags);
    EXPECT_EQ(b.src, h.src);
    EXPECT_EQ(b.dst, h.dst);
    EXPECT_EQ(b.srcQp, h.srcQp);
    EXPECT_EQ(b.dstQp, h.dstQp);
    EXPECT_EQ(b.seq, h.seq);
    EXPECT_EQ(b.payload, h.payload);
    EXPECT_EQ(b.imm, h.imm);
    EXPECT_EQ(b.timestampPs, h.timestampPs);
    ASSERT_EQ(b.nHops, 3);
    for (int i = 0; i < 3; ++i)
    {
        EXPECT_EQ(b.hops[i].timestamp, h.hops[i].timestamp);
        EXPECT_EQ(b.hops[i].txBytes, h.hops[i].txBytes);
        EXPECT_EQ(b.hops[i].qlenBytes, h.hops[i].qlenBytes);
        EXPECT_EQ(b.hops[i].rateBps, h.hops[i].rateBps);
    }
    // The payload stays virtual: only headers cross, not 4096 zero bytes.
    EXPECT_LT(EncodeRemoteFrame(frame, false)->GetSize(), 200u);
}

TEST(RemoteFrame, PfcFrameKeepsItsPacket)
{
    PfcHeader pfc;
    pfc.SetQuanta(3, 0xffff);
    pfc.SetQuanta(5, 0);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(pfc);
    RoceFrame frame;
    frame.packet = p;
    frame.wireBytes = wire::kPfcWireBytes;

    bool isPfc = false;
    RoceFrame back = DecodeRemoteFrame(AcrossProcesses(EncodeRemoteFrame(frame, true)), isPfc);
    EXPECT_TRUE(isPfc);
    EXPECT_EQ(back.header, nullptr);
    ASSERT_TRUE(back.packet);
    EXPECT_EQ(back.wireBytes, wire::kPfcWireBytes);
    EXPECT_EQ(back.payload, 0u);
    PfcHeader read;
    back.packet->RemoveHeader(read);
    EXPECT_EQ(read.GetQuanta(3), 0xffff);
    EXPECT_EQ(read.GetQuanta(5), 0);
    EXPECT_TRUE(read.IsEnabled(3));
    EXPECT_TRUE(read.IsEnabled(5));
    EXPECT_FALSE(read.IsEnabled(4));
    // The sender's packet is not changed by the encoding.
    EXPECT_EQ(p->GetSize(), pfc.GetSerializedSize());
}
