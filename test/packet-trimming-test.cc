/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Packet trimming on a lossy fabric: an incast through one switch with PFC off and a
// small buffer. With trimming every byte arrives exactly once and no data packet is
// dropped (their payload is cut and the header NACKed at once); without it the same
// run drops, and recovers only by NACKs of gaps and timeouts.

#include "ns3/config.h"
#include "ns3/incast-scenario.h"
#include "ns3/nstime.h"
#include "ns3/packet-trimming.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/** 8 senders x 1 MiB to one receiver, 100 Gb/s, PFC off, a 256 KiB switch buffer. */
IncastResult
LossyIncast(bool trim)
{
    Config::SetDefault("ns3::RdmaNic::RetransmitTimeout", TimeValue(MicroSeconds(100)));
    IncastConfig config;
    config.senders = 8;
    config.messageBytes = 1 << 20;
    config.pfc = false;
    config.bufferBytes = 256 << 10;
    config.trim = trim;
    config.invariantPeriod = MicroSeconds(10);
    IncastResult r = RunIncast(config);
    Simulator::Destroy();
    Config::Reset();
    return r;
}

/** Every sender's message arrived exactly once, every byte of it. */
void
ExpectExactlyOnce(const IncastResult& r)
{
    EXPECT_EQ(r.bytesDelivered, r.bytesExpected);
    for (const auto& f : r.flows)
    {
        EXPECT_EQ(f.timesReceived, 1u) << "sender " << f.sender;
        EXPECT_TRUE(f.completion.IsStrictlyPositive()) << "sender " << f.sender;
    }
    EXPECT_TRUE(r.invariants.violations.empty()) << r.invariants.violations.front();
}

} // namespace

TEST(PacketTrimmingTest, TrimToHeaderKeepsTheHeaderAndItsSequence)
{
    RoceFrame frame;
    frame.header = MakeRoceHeader();
    frame.header->type = RoceHeader::DATA;
    frame.header->payload = 4096;
    frame.header->seq = 81920;
    frame.header->priority = 3;
    frame.wireBytes = frame.header->GetWireBytes();
    frame.payload = 4096;
    EXPECT_EQ(frame.wireBytes, 4096u + 82);
    EXPECT_EQ(TrimToHeader(frame, 7), 4096u);
    // The RoCEv2 headers alone are 62 bytes of frame, padded to Ethernet's 64-byte
    // minimum, plus preamble and gap.
    EXPECT_EQ(frame.wireBytes, 84u);
    EXPECT_EQ(frame.payload, 0u);
    EXPECT_EQ(frame.priority, 7);
    EXPECT_EQ(frame.header->priority, 7);
    EXPECT_EQ(frame.header->seq, 81920u);
    EXPECT_TRUE(frame.header->Has(RoceHeader::TRIMMED));
}

TEST(PacketTrimmingTest, LossyIncastDeliversEveryByteOnceWithTrimming)
{
    const IncastResult trimmed = LossyIncast(true);
    ExpectExactlyOnce(trimmed);
    EXPECT_GT(trimmed.trims, 0u);
    EXPECT_EQ(trimmed.drops, 0u);
    EXPECT_EQ(trimmed.pfcPauseFrames, 0u);
    EXPECT_GE(trimmed.nacks, 1u);

    const IncastResult dropped = LossyIncast(false);
    ExpectExactlyOnce(dropped);
    EXPECT_EQ(dropped.trims, 0u);
    EXPECT_GT(dropped.drops, 0u);
    EXPECT_GT(dropped.timeouts + dropped.nacks, 0u);
}
