/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Lossy egress thresholds and the shared headroom pool of the switch buffer, against
// the closed forms of the dynamic threshold.

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/effective-settings.h"
#include "ns3/incast-scenario.h"
#include "ns3/input-error.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kBuffer = 1'000'000;
constexpr uint32_t kPacket = 1000;
constexpr uint32_t kMaxFrame = 4200;

class SwitchBufferTest : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

/**
 * An MMU of \p ports ports at 100 Gb/s, 1 us cables and \p buffer bytes, configured
 * after \p setup.
 */
template <typename Setup>
Ptr<SharedBufferMmu>
MakeMmu(uint32_t ports, Setup setup, uint64_t buffer = kBuffer)
{
    Ptr<SharedBufferMmu> mmu = CreateObject<SharedBufferMmu>();
    mmu->SetAttribute("BufferBytes", UintegerValue(buffer));
    setup(*mmu);
    std::vector<SharedBufferMmu::PortConfig> config(ports);
    for (auto& port : config)
    {
        port.rateBps = 100'000'000'000;
        port.delay = MicroSeconds(1);
    }
    mmu->Configure(config, kMaxFrame);
    return mmu;
}

/**
 * Offer packets round robin from ingress ports 0..senders-1 to egress port `senders`,
 * none leaving, until \p attempts were offered.
 * \return packets admitted
 */
uint64_t
Flood(SharedBufferMmu& mmu, uint32_t senders, uint32_t attempts, uint8_t priority)
{
    uint64_t admitted = 0;
    for (uint32_t i = 0; i < attempts; ++i)
    {
        admitted += mmu.Admit(i % senders, senders, priority, kPacket) == SharedBufferMmu::ADMITTED;
    }
    return admitted;
}

/**
 * The k-th packet enters while (k-1) b + b <= alpha (S - (k-1) b): the egress queue
 * stops at b floor(alpha (S + b) / ((1 + alpha) b)), next to alpha S / (1 + alpha).
 */
uint64_t
EgressFixedPoint(double alpha, uint64_t pool)
{
    const double k = std::floor(alpha * static_cast<double>(pool + kPacket) /
                                ((1 + alpha) * static_cast<double>(kPacket)));
    return static_cast<uint64_t>(k) * kPacket;
}

} // namespace

// N -> 1 lossy: the egress queue stops at the fixed point of its own threshold, and every
// packet it refuses after is an egress drop.
TEST_F(SwitchBufferTest, LossyEgressQueueStopsAtItsFixedPoint)
{
    const uint32_t senders = 16;
    Ptr<SharedBufferMmu> mmu = MakeMmu(senders + 1,
                                       [](SharedBufferMmu& m)
                                       {
                                           m.SetAttribute("PfcEnabled", BooleanValue(false));
                                           m.SetAttribute("Alpha", DoubleValue(8));
                                           m.SetAttribute("LossyEgressAlpha", DoubleValue(0.5));
                                       });
    ASSERT_EQ(mmu->GetSharedPoolBytes(), kBuffer); // lossy ports carve nothing
    const uint64_t admitted = Flood(*mmu, senders, 2000, 3);
    const uint64_t expected = EgressFixedPoint(0.5, kBuffer);
    EXPECT_EQ(expected, 333'000u); // alpha S / (1 + alpha) = 333,333
    EXPECT_EQ(admitted * kPacket, expected);
    EXPECT_EQ(mmu->GetPeakEgressBytes(senders, 3), expected);
    EXPECT_EQ(mmu->GetEgressDrops(), 2000 - admitted);
    EXPECT_EQ(mmu->GetDrops(), 2000 - admitted);
}

// Without the egress threshold the same incast holds N alpha S / (1 + N alpha) at ingress.
TEST_F(SwitchBufferTest, IngressAccountingAloneLetsTheQueueGrowWithItsFeeders)
{
    const uint32_t senders = 16;
    Ptr<SharedBufferMmu> mmu = MakeMmu(senders + 1,
                                       [](SharedBufferMmu& m)
                                       {
                                           m.SetAttribute("PfcEnabled", BooleanValue(false));
                                           m.SetAttribute("LossyEgressAlpha", DoubleValue(0));
                                       });
    Flood(*mmu, senders, 2000, 3);
    const double alpha = 0.125;
    const double fixed = senders * alpha * kBuffer / (1 + senders * alpha); // 666,667
    EXPECT_NEAR(static_cast<double>(mmu->GetPeakEgressBytes(senders, 3)), fixed, senders * kPacket);
    EXPECT_EQ(mmu->GetEgressDrops(), 0u);
    EXPECT_GT(mmu->GetDrops(), 0u);
}

// The defaults: egress alpha 8 (SONiC's dynamic_th 3) binds once N alpha_in > 8, here
// 128 feeders at alpha_in = 1/8, where ingress alone would allow 16/17 of the pool.
TEST_F(SwitchBufferTest, DefaultEgressThresholdBindsOnWideIncast)
{
    const uint32_t senders = 128;
    Ptr<SharedBufferMmu> mmu = MakeMmu(
        senders + 1, [](SharedBufferMmu& m) { m.SetAttribute("PfcEnabled", BooleanValue(false)); });
    EXPECT_EQ(mmu->GetLossyEgressAlpha(), 8.0);
    Flood(*mmu, senders, 4000, 3);
    EXPECT_EQ(mmu->GetPeakEgressBytes(senders, 3), EgressFixedPoint(8, kBuffer)); // 889,000
    EXPECT_GT(mmu->GetEgressDrops(), 0u);
}

// Lossless traffic is bounded by PFC at ingress, never by the lossy egress threshold.
TEST_F(SwitchBufferTest, LosslessTrafficIgnoresTheEgressThreshold)
{
    const uint32_t senders = 16;
    const uint64_t buffer = 4'000'000; // 17 lossless ports carve 8 x 8 KiB and headroom each
    const auto setup = [](SharedBufferMmu& m)
    {
        m.SetAttribute("Alpha", DoubleValue(8));
        m.SetAttribute("LossyEgressAlpha", DoubleValue(0.5));
    };
    Ptr<SharedBufferMmu> mmu = MakeMmu(senders + 1, setup, buffer);
    const uint64_t pool = mmu->GetSharedPoolBytes();
    Flood(*mmu, senders, 8000, 3); // priority 3 is lossless by default
    EXPECT_GT(mmu->GetPeakEgressBytes(senders, 3), EgressFixedPoint(0.5, pool));
    EXPECT_EQ(mmu->GetEgressDrops(), 0u);
    // Priority 0 of the same ports is lossy: its queue stops at its threshold. Each
    // feeder's first 8 packets go to its 8 KiB allotment, outside the shared pool: with
    // those R bytes queued, the k-th shared packet enters while R + k b <= alpha (S - (k-1) b).
    Ptr<SharedBufferMmu> lossy = MakeMmu(senders + 1, setup, buffer);
    Flood(*lossy, senders, 8000, 0);
    EXPECT_GT(lossy->GetEgressDrops(), 0u);
    const double reserved = senders * 8.0 * kPacket;
    const double k =
        std::floor((0.5 * static_cast<double>(pool + kPacket) - reserved) / (1.5 * kPacket));
    EXPECT_EQ(lossy->GetPeakEgressBytes(senders, 0), static_cast<uint64_t>(reserved + k * kPacket));
}

// A shared headroom pool is carved once instead of every lossless queue's headroom, and
// no frame is admitted past it.
TEST_F(SwitchBufferTest, HeadroomPoolIsCarvedOnceAndBounded)
{
    const uint32_t ports = 8;
    Ptr<SharedBufferMmu> perQueue = MakeMmu(ports, [](SharedBufferMmu&) {});
    const uint64_t headroom = perQueue->GetHeadroomBytes(0);
    EXPECT_EQ(perQueue->GetCarvedBytes(), ports * (8 * 8192 + headroom));
    EXPECT_EQ(perQueue->GetQueueHeadroomSumBytes(), ports * headroom);

    const uint64_t pool = 3 * kMaxFrame;
    Ptr<SharedBufferMmu> pooled = MakeMmu(
        ports,
        [&](SharedBufferMmu& m) { m.SetAttribute("HeadroomPoolBytes", UintegerValue(pool)); });
    EXPECT_EQ(pooled->GetCarvedBytes(), ports * 8 * 8192 + pool);
    // Fill every queue's allotment and its shared share, then push into headroom.
    uint64_t admitted = 0;
    for (uint32_t i = 0; i < 20000; ++i)
    {
        admitted += pooled->Admit(i % ports, 0, 3, kPacket) == SharedBufferMmu::ADMITTED;
    }
    EXPECT_EQ(pooled->GetPeakHeadroomUsedBytes(), pool / kPacket * kPacket);
    EXPECT_EQ(pooled->GetHeadroomUsedBytes(), pool / kPacket * kPacket);
    EXPECT_EQ(pooled->GetDrops(), 20000 - admitted);
    EXPECT_GT(pooled->GetDrops(), 0u);
}

TEST_F(SwitchBufferTest, HeadroomPoolSmallerThanAFrameIsRefused)
{
    EXPECT_THROW(MakeMmu(4,
                         [](SharedBufferMmu& m)
                         { m.SetAttribute("HeadroomPoolBytes", UintegerValue(kMaxFrame - 1)); }),
                 InputError);
}

// Packet level: 16 -> 1 without PFC; the switch holds the egress fixed point, drops
// there, and loss recovery delivers every byte.
TEST_F(SwitchBufferTest, LossyIncastPeaksAtTheEgressFixedPoint)
{
    Config::SetDefault("ns3::RdmaNic::AckTimeout", UintegerValue(10));
    Config::SetDefault("ns3::SharedBufferMmu::Alpha", DoubleValue(8));
    Config::SetDefault("ns3::SharedBufferMmu::LossyEgressAlpha", DoubleValue(0.5));
    IncastConfig config;
    config.senders = 16;
    config.messageBytes = 256 * 1024;
    config.pfc = false;
    config.bufferBytes = 1ULL << 20;
    const IncastResult r = RunIncast(config);
    EXPECT_GT(r.egressDrops, 0u);
    EXPECT_EQ(r.drops, r.egressDrops);
    // The run header states the admission the switch used.
    ASSERT_EQ(r.effective.buffers.size(), 1u);
    EXPECT_EQ(r.effective.buffers[0].lossyEgressAlpha, 0.5);
    const std::string header = FormatEffectiveSettings(r.effective);
    EXPECT_NE(header.find("switch buffers: alpha 8, lossy egress alpha 0.5, headroom per queue "
                          "(1 switches)"),
              std::string::npos)
        << header;
    EXPECT_EQ(EffectiveSettingsToJson(r.effective)["switch_buffers"][0]["lossy_egress_alpha"], 0.5);
    EXPECT_EQ(r.bytesDelivered, r.bytesExpected);
    // The data queue reaches alpha S / (1 + alpha) to within one frame; ACKs and CNPs
    // queued toward the senders add at most a frame each.
    const double fixed = 0.5 * static_cast<double>(config.bufferBytes) / 1.5;
    const double frame = config.mtu + 100;
    EXPECT_GE(static_cast<double>(r.maxBufferBytes), fixed - frame);
    EXPECT_LE(static_cast<double>(r.maxBufferBytes), fixed + frame + config.senders * 100.0);
}

// Packet level: a lossless incast holds with a headroom pool smaller than the queues'
// headroom added up (they never all fill at once); the pool is never exceeded, and one
// far too small drops.
TEST_F(SwitchBufferTest, LosslessIncastHoldsWithASmallerHeadroomPool)
{
    IncastConfig config;
    config.senders = 16;
    config.messageBytes = 1ULL << 20;
    config.bufferBytes = 8ULL << 20;
    const IncastResult perQueue = RunIncast(config);
    ASSERT_EQ(perQueue.drops, 0u);
    ASSERT_GT(perQueue.peakHeadroomBytes, 0u);
    const uint64_t sum = perQueue.queueHeadroomBytes;
    Simulator::Destroy();

    // The 16 queues hold at most three quarters of their headroom at once here (619,542
    // of 823,616 B): a pool of seven eighths of it suffices.
    const uint64_t pool = sum * 7 / 8;
    Config::SetDefault("ns3::SharedBufferMmu::HeadroomPoolBytes", UintegerValue(pool));
    const IncastResult pooled = RunIncast(config);
    EXPECT_EQ(pooled.drops, 0u);
    EXPECT_EQ(pooled.bytesDelivered, pooled.bytesExpected);
    EXPECT_EQ(pooled.headroomPoolBytes, pool);
    EXPECT_LT(pooled.headroomPoolBytes, pooled.queueHeadroomBytes);
    EXPECT_GT(pooled.peakHeadroomBytes, 0u);
    EXPECT_LE(pooled.peakHeadroomBytes, pool);
    Simulator::Destroy();

    Config::SetDefault("ns3::RdmaNic::AckTimeout", UintegerValue(10));
    Config::SetDefault("ns3::SharedBufferMmu::HeadroomPoolBytes", UintegerValue(2 * 4200));
    const IncastResult starved = RunIncast(config);
    EXPECT_GT(starved.drops, 0u);
    EXPECT_LE(starved.peakHeadroomBytes, 2u * 4200);
    EXPECT_EQ(starved.bytesDelivered, starved.bytesExpected);
}

// A relay stages credit-port packets on the shared pool under the dynamic threshold: the
// k-th is staged while k b <= alpha (S - (k-1) b). Past that a packet stays on its
// credits, and a staged packet's release lets the next one move.
TEST_F(SwitchBufferTest, StagedCreditPacketsObeyTheDynamicThreshold)
{
    const uint64_t credits = 64 * 1024;
    Ptr<SharedBufferMmu> mmu = CreateObject<SharedBufferMmu>();
    mmu->SetAttribute("BufferBytes", UintegerValue(kBuffer));
    mmu->SetAttribute("Alpha", DoubleValue(1.0));
    std::vector<SharedBufferMmu::PortConfig> config(2);
    for (auto& port : config)
    {
        port.rateBps = 100'000'000'000;
        port.delay = MicroSeconds(1);
    }
    config[0].creditBytes = credits;
    mmu->Configure(config, kMaxFrame);
    const uint64_t pool = mmu->GetSharedPoolBytes();
    const uint64_t fixedPoint = EgressFixedPoint(1.0, pool);
    ASSERT_GT(fixedPoint, credits); // the pool, not the credits, ends the staging

    uint64_t staged = 0;
    while (mmu->Admit(0, 1, 2, kPacket) == SharedBufferMmu::ADMITTED &&
           mmu->Stage(0, 1, 2, kPacket))
    {
        staged += kPacket;
    }
    EXPECT_EQ(staged, fixedPoint);
    EXPECT_EQ(mmu->GetEgressBytes(1, 2), staged); // the held packet is on its credits
    EXPECT_EQ(mmu->GetUsedBytes(), staged + kPacket);
    EXPECT_FALSE(mmu->Stage(0, 1, 2, kPacket));

    mmu->ReleaseStaged(0, 1, 2, kPacket);
    EXPECT_TRUE(mmu->Admit(0, 1, 2, kPacket) == SharedBufferMmu::ADMITTED);
    EXPECT_TRUE(mmu->Stage(0, 1, 2, kPacket));
    mmu->Release(0, 1, 2, kPacket); // the packet that kept its credits leaves
    for (uint64_t b = 0; b < staged; b += kPacket)
    {
        mmu->ReleaseStaged(0, 1, 2, kPacket);
    }
    EXPECT_EQ(mmu->GetUsedBytes(), 0u);
    EXPECT_EQ(mmu->GetEgressBytes(1, 2), 0u);
}
