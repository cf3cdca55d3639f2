/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// HPCC-PINT: the logarithmic code's error bound and bias, the switch's utilisation EWMA
// in closed form, the sender's use of the decoded value, and the field's wire cost.
#include "cc-fake-qp.h"

#include "ns3/cc-hpcc-pint.h"
#include "ns3/core-module.h"
#include "ns3/pint-telemetry.h"
#include "ns3/roce-header.h"
#include "ns3/roce-wire.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace ns3;

namespace
{

/** The value the code stands for: u scaled to the integer 512 u, rounded up. */
double
Scaled(double u)
{
    return std::max(1.0, std::ceil(u * PintCode::kMaxConcurrent)) / PintCode::kMaxConcurrent;
}

TEST(PintCode, RelativeErrorIsAtMostTheLogBaseMinusOne)
{
    for (double b : {1.01, 1.05, 1.2})
    {
        const PintCode code(b);
        double worst = 0;
        // Utilisations from 1/512 to 512, 20000 per decade (steps of 0.012 %, fine
        // against the 1 % between codes of b = 1.01).
        for (double u = 1.0 / 512; u <= 512; u *= std::pow(10.0, 1.0 / 20000))
        {
            const double v = Scaled(u);
            for (double draw : {0.0, 0.999999})
            {
                const double decoded = code.Decode(code.Encode(u, draw));
                const double error = std::abs(decoded - v) / v;
                // Rounded up: decoded <= b v; rounded down: decoded >= v / b.
                EXPECT_LE(error, b - 1 + 1e-9) << "b " << b << " u " << u;
                worst = std::max(worst, error);
            }
        }
        // The bound is reached (a value just above a power of b rounded up), so the
        // carried value is a code of b's resolution, not the exact number.
        EXPECT_GT(worst, 0.95 * (b - 1)) << b;
    }
}

TEST(PintCode, RandomisedRoundingIsUnbiased)
{
    const double b = 1.2;
    const PintCode code(b);
    for (double u : {0.003, 0.37, 0.95, 1.6})
    {
        // Evenly spread draws: the mean of the decoded values is the scaled u, up to
        // one draw's share of the gap between the two neighbouring codes.
        const int n = 100000;
        double sum = 0;
        for (int i = 0; i < n; ++i)
        {
            sum += code.Decode(code.Encode(u, (i + 0.5) / n));
        }
        const double v = Scaled(u);
        EXPECT_NEAR(sum / n, v, (b - 1) * v / n * 2) << u;
    }
}

TEST(PintCode, FieldHoldsTheLargestUtilisation)
{
    // Largest exponent: log(512^2) / log(b): 255.6 for 1.05 (8 bits, 1 byte, the
    // simulator's default), 1253.9 for 1.01 (11 bits, 2 bytes, its run.py's).
    EXPECT_EQ(PintCode(1.05).GetBits(), 8u);
    EXPECT_EQ(PintCode(1.05).GetBytes(), 1u);
    EXPECT_EQ(PintCode(1.01).GetBits(), 11u);
    EXPECT_EQ(PintCode(1.01).GetBytes(), 2u);
    EXPECT_EQ(PintCode(1.05).Encode(512, 0.999999), 255); // rounded down
    EXPECT_EQ(PintCode(1.01).Encode(512, 0.999999), 1253);
    // Rounded up, u = 512 takes the exponent one past: 256 does not fit the simulator's
    // one byte (it would wrap to 0 there); the model's field has 16 bits.
    EXPECT_EQ(PintCode(1.05).Encode(512, 0.0), 256);
}

/** 100 Gb/s, T = 10 us, 1000-byte packets back to back (80 ns apart). */
constexpr uint64_t kRate = 100'000'000'000;
const Time kPeriod = MicroSeconds(10);
const Time kGap = NanoSeconds(80);

TEST(PintUtilization, LineRateWithoutQueueApproachesOneAsTheEwma)
{
    PintUtilization port;
    uint64_t tx = 0;
    port.Update(Time(0), tx, 0, kRate, kPeriod); // the first departure is the reference
    const double w = kGap.GetSeconds() / kPeriod.GetSeconds();
    for (int n = 1; n <= 300; ++n)
    {
        tx += 1000;
        const double u = port.Update(kGap * n, tx, 0, kRate, kPeriod);
        EXPECT_NEAR(u, 1 - std::pow(1 - w, n), 1e-9) << n;
    }
}

TEST(PintUtilization, StandingQueueAddsItsShareOfTheBdp)
{
    // Half a BDP (62500 bytes) queued throughout: u -> 1 + Q / (B T) = 1.5.
    PintUtilization port;
    uint64_t tx = 0;
    port.Update(Time(0), tx, 62500, kRate, kPeriod);
    double u = 0;
    for (int n = 1; n <= 5000; ++n)
    {
        tx += 1000;
        u = port.Update(kGap * n, tx, 62500, kRate, kPeriod);
    }
    EXPECT_NEAR(u, 1.5, 1e-9);

    // After a gap longer than T the old estimate is gone: u = Q/(B T) + bytes/(B gap).
    const Time later = kGap * 5000 + MicroSeconds(20);
    u = port.Update(later, tx + 1000, 12500, kRate, kPeriod);
    EXPECT_NEAR(u, 0.1 + 1000 * 8.0 / (kRate * 20e-6), 1e-12);
}

/** 100 Gb/s, base RTT 10 us (FakeQueuePair): one BDP = 125000 B, W_AI = 50 B. */
class HpccPintTest : public testing::Test
{
  protected:
    void
    SetUp() override
    {
        cc = CreateObject<CcHpccPint>();
        cc->SetAttribute("TargetUtilization", DoubleValue(0.95));
        cc->SetAttribute("MaxStage", UintegerValue(5));
        cc->SetAttribute("AiRate", DataRateValue(DataRate("40Mb/s")));
        cc->AssignStreams(7);
    }

    void
    TearDown() override
    {
        Simulator::Destroy();
    }

    /** An ACK for \p acked carrying the PINT code \p power, snd_nxt at \p sndNxt. */
    void
    Ack(uint64_t acked, uint64_t sndNxt, uint16_t power)
    {
        qp.sndNxt = sndNxt;
        qp.sndUna = acked;
        AckSample ack;
        ack.ackedSeq = acked;
        ack.hasPint = true;
        ack.pintPower = power;
        cc->OnAck(ack);
    }

    FakeQueuePair qp;
    Ptr<CcHpccPint> cc;
};

TEST_F(HpccPintTest, AsksForPintNotInt)
{
    cc->Init(&qp);
    EXPECT_EQ(cc->GetName(), "hpcc-pint");
    EXPECT_FALSE(cc->NeedsInt());
    EXPECT_DOUBLE_EQ(cc->GetPintSettings().logBase, 1.05);
    EXPECT_EQ(cc->GetPintSettings().period, qp.baseRtt); // UtilizationPeriod 0: the base RTT

    Ptr<CcHpccPint> set = CreateObject<CcHpccPint>();
    set->SetAttribute("UtilizationPeriod", TimeValue(MicroSeconds(13)));
    set->Init(&qp);
    EXPECT_EQ(set->GetPintSettings().period, MicroSeconds(13));
}

TEST_F(HpccPintTest, DecodedUtilizationDrivesHpccsWindowLaw)
{
    cc->Init(&qp);
    EXPECT_EQ(qp.window, 125000U);
    const PintCode code(1.05);
    // The first ACK marks the first RTT only.
    Ack(1000, 100000, 200);
    EXPECT_EQ(qp.window, 125000U);
    // An ACK without the field says nothing.
    qp.sndNxt = 100000;
    AckSample bare;
    bare.ackedSeq = 2000;
    cc->OnAck(bare);
    EXPECT_EQ(qp.window, 125000U);

    // Fast reaction from Wc = 125000: U is the decoded value, not smoothed again.
    const uint16_t high = 132; // 1.05^132 / 512 = 1.224
    const double u1 = code.Decode(high);
    ASSERT_GT(u1, 0.95);
    Ack(3000, 100000, high);
    EXPECT_DOUBLE_EQ(cc->GetUtilization(), u1);
    const double w1 = 125000 * 0.95 / u1 + 50;
    EXPECT_EQ(qp.window, static_cast<uint64_t>(std::llround(w1)));
    EXPECT_EQ(cc->GetReferenceWindow(), 125000U);

    // Passing snd_nxt of the first RTT moves the reference.
    Ack(100001, 200000, high);
    EXPECT_EQ(cc->GetReferenceWindow(), static_cast<uint64_t>(std::llround(w1)));
    EXPECT_EQ(cc->GetIncreaseStage(), 0u);

    // A low utilisation: additive increase from the new reference.
    const uint16_t low = 120; // 0.68
    ASSERT_LT(code.Decode(low), 0.95);
    Ack(200001, 300000, low);
    EXPECT_EQ(cc->GetReferenceWindow(), static_cast<uint64_t>(std::llround(w1 + 50)));
    EXPECT_EQ(cc->GetIncreaseStage(), 1u);
}

TEST_F(HpccPintTest, SampleProbabilityIsTheShareOfAcksUsed)
{
    cc->SetAttribute("SampleProbability", DoubleValue(0.25));
    cc->Init(&qp);
    // Codes cycle through 40 overloads (U from 0.96 to 6.4), so a sampled ACK changes the
    // window unless it is a multiple of 40 ACKs after the previous sample.
    const int acks = 4000;
    const uint32_t initial = qp.windowChanges;
    while (qp.windowChanges == initial)
    {
        Ack(1, 1 << 30, 130); // until the first RTT is marked and one sample taken
    }
    const uint32_t before = qp.windowChanges;
    for (int i = 0; i < acks; ++i)
    {
        Ack(2, 1 << 30, 127 + i % 40);
    }
    const double used = qp.windowChanges - before;
    // Binomial(4000, 0.25): mean 1000, sd 27.4; with this stream it lands within 4 sd.
    EXPECT_NEAR(used, acks * 0.25, 4 * std::sqrt(acks * 0.25 * 0.75));
}

TEST(PintWire, TheFieldCostsTwoBytesInThePeersFormatAndNoneInRoce)
{
    RoceHeader h;
    h.payload = 1000;
    const uint32_t plain = h.GetWireBytes();
    h.Set(RoceHeader::WANT_PINT);
    // RoCEv2: the code rides in the IPv4 Identification field.
    EXPECT_EQ(h.GetWireBytes(), plain);
    wire::SetFormat(wire::Format::HpccPeer);
    // The simulator's SeqTs header grows by its 2-byte PINT union.
    EXPECT_EQ(h.GetWireBytes(), wire::peer::kDataHeader + 2 + 1000);
    wire::SetFormat(wire::Format::RoceV2);
}

} // namespace
