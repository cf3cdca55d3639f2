/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Wire sizes of every packet kind, in the real RoCEv2 layout and the HPCC peer's.

#include "ns3/roce-header.h"
#include "ns3/roce-wire.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

RoceHeader
Make(RoceHeader::Type type, uint32_t payload = 0, bool withInt = false, uint8_t hops = 0)
{
    RoceHeader h;
    h.type = type;
    h.payload = payload;
    if (withInt)
    {
        h.Set(RoceHeader::WANT_INT);
        for (uint8_t i = 0; i < hops; ++i)
        {
            h.PushHop(IntHop{});
        }
    }
    return h;
}

class RoceWireTest : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        wire::SetFormat(wire::Format::RoceV2);
    }
};

} // namespace

TEST_F(RoceWireTest, RoceV2SizesFollowTheRealLayout)
{
    // 8 preamble + 14 Ethernet + 20 IPv4 + 8 UDP + 12 BTH + 4 ICRC + 4 FCS + 12 gap.
    EXPECT_EQ(Make(RoceHeader::DATA, 4096).GetWireBytes(), 4096u + 82);
    EXPECT_EQ(Make(RoceHeader::DATA, 2).GetWireBytes(), 2u + 82);
    // One payload byte makes a 63-byte frame, padded to Ethernet's minimum of 64.
    EXPECT_EQ(Make(RoceHeader::DATA, 1).GetWireBytes(), 64u + 20);
    // ACK: + 4 AETH.
    EXPECT_EQ(Make(RoceHeader::ACK).GetWireBytes(), 86u);
    EXPECT_EQ(Make(RoceHeader::NACK).GetWireBytes(), 86u);
    // CNP: BTH + 16 reserved + ICRC.
    EXPECT_EQ(Make(RoceHeader::CNP).GetWireBytes(), 98u);
    // PFC: a 64-byte frame.
    EXPECT_EQ(wire::PfcWireBytes(), 84u);
    EXPECT_EQ(wire::PhyOverheadBytes(), 20u);
    // INT: 2 bytes of hop count and 8 per hop, growing as switches stamp.
    EXPECT_EQ(Make(RoceHeader::DATA, 1000, true, 0).GetWireBytes(), 1000u + 82 + 2);
    EXPECT_EQ(Make(RoceHeader::DATA, 1000, true, 3).GetWireBytes(), 1000u + 82 + 2 + 24);
}

TEST_F(RoceWireTest, HpccPeerSizesMatchItsSimplifiedHeaders)
{
    wire::SetFormat(wire::Format::HpccPeer);
    EXPECT_EQ(Make(RoceHeader::DATA, 1000).GetWireBytes(), 1048u);
    EXPECT_EQ(Make(RoceHeader::DATA, 1000, true, 3).GetWireBytes(), 1090u);
    EXPECT_EQ(Make(RoceHeader::ACK).GetWireBytes(), 60u);
    EXPECT_EQ(Make(RoceHeader::ACK, 0, true, 5).GetWireBytes(), 90u);
    EXPECT_EQ(wire::PfcWireBytes(), 60u);
    EXPECT_EQ(wire::PhyOverheadBytes(), 0u);
}

TEST_F(RoceWireTest, HeaderRoundTripsThroughAPacket)
{
    RoceHeader h = Make(RoceHeader::DATA, 512, true, 2);
    h.src = 7;
    h.dst = 1u << 30;
    h.srcQp = 3;
    h.dstQp = 99;
    h.seq = 5ULL << 32;
    h.imm = 0xDEADBEEFCAFEULL;
    h.timestampPs = 123456789;
    h.hops[1].txBytes = 42;
    h.hops[1].timestamp = PicoSeconds(77);
    Ptr<Packet> p = Create<Packet>(512);
    p->AddHeader(h);
    RoceHeader fast;
    fast.PeekFrom(*p);
    RoceHeader slow;
    p->PeekHeader(slow);
    for (const RoceHeader* r : {&fast, &slow})
    {
        EXPECT_EQ(r->dst, h.dst);
        EXPECT_EQ(r->seq, h.seq);
        EXPECT_EQ(r->imm, h.imm);
        EXPECT_EQ(r->timestampPs, h.timestampPs);
        EXPECT_EQ(r->nHops, 2);
        EXPECT_EQ(r->hops[1].txBytes, 42u);
        EXPECT_EQ(r->hops[1].timestamp, PicoSeconds(77));
        EXPECT_EQ(r->GetWireBytes(), h.GetWireBytes());
    }
}
