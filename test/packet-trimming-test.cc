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
#include "ns3/string.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/**
 * 8 senders x 1 MiB to one receiver, 100 Gb/s, PFC off, a 256 KiB switch buffer.
 * \param trim trimming at the switch
 * \param transport RdmaNic::Transport
 * \param cc congestion control; empty: none
 */
IncastResult
LossyIncast(bool trim, const std::string& transport = "GoBackN", const std::string& cc = "")
{
    Config::SetDefault("ns3::RdmaNic::RetransmitTimeout", TimeValue(MicroSeconds(100)));
    Config::SetDefault("ns3::RdmaNic::Transport", StringValue(transport));
    IncastConfig config;
    config.cc.scheme = cc;
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
    EXPECT_EQ(frame.header->sackBytes, 4096u); // the length it had, for the receiver's NACK
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

namespace
{

/** \return the payload the senders of \p r sent more than once */
uint64_t
ResentBytes(const IncastResult& r)
{
    uint64_t resent = 0;
    for (const auto& f : r.flows)
    {
        resent += f.retransmittedBytes;
    }
    return resent;
}

} // namespace

TEST(PacketTrimmingTest, SelectiveRepeatResendsExactlyTheTrimmedPacketsAtOnce)
{
    // Under NSCC each trimmed header names its packet; the sender resends it and nothing
    // else (1 MiB in full 4096-byte packets), without waiting for its timer.
    const IncastResult r = LossyIncast(true, "SelectiveRepeat", "nscc");
    ExpectExactlyOnce(r);
    EXPECT_GT(r.trims, 0u);
    EXPECT_EQ(r.drops, 0u);
    EXPECT_EQ(ResentBytes(r), r.trims * 4096);
    EXPECT_EQ(r.timeouts, 0u);

    // Without congestion control the eight senders keep the queue full: the same packet
    // may be trimmed again and again, and a queue pair whose oldest packet is for the
    // retransmission timeout resends by it too. Every trimmed packet is still resent,
    // and every byte arrives once.
    const IncastResult flat = LossyIncast(true, "SelectiveRepeat");
    ExpectExactlyOnce(flat);
    EXPECT_EQ(flat.drops, 0u);
    EXPECT_GE(ResentBytes(flat), flat.trims * 4096);
}
