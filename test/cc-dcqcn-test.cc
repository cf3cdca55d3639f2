/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// DCQCN reaction point (paper) and the HPCC-ns3 flavour, against hand-computed updates.
#include "cc-fake-qp.h"

#include "ns3/boolean.h"
#include "ns3/cc-dcqcn-hpccns3.h"
#include "ns3/cc-dcqcn.h"
#include "ns3/core-module.h"
#include "ns3/data-rate.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ns3;

namespace
{

constexpr double kG = 1e9;

/** Run the simulator until absolute time t. */
void
RunTo(Time t)
{
    Simulator::Stop(t - Simulator::Now());
    Simulator::Run();
}

class DcqcnTest : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
    }

    /** A paper DCQCN with g = 1/16 and the given timer, byte counter and steps. */
    Ptr<CcDcqcn>
    Make(Time timer, uint64_t byteCounter, uint32_t f, const char* ai, const char* hai)
    {
        Ptr<CcDcqcn> cc = CreateObject<CcDcqcn>();
        cc->SetAttribute("Gain", DoubleValue(1.0 / 16));
        cc->SetAttribute("IncreaseTimer", TimeValue(timer));
        cc->SetAttribute("ByteCounter", UintegerValue(byteCounter));
        cc->SetAttribute("FastRecoverySteps", UintegerValue(f));
        cc->SetAttribute("RateAi", DataRateValue(DataRate(ai)));
        cc->SetAttribute("RateHai", DataRateValue(DataRate(hai)));
        cc->Init(&qp);
        return cc;
    }

    FakeQueuePair qp;
};

TEST_F(DcqcnTest, PaperDefaults)
{
    Ptr<CcDcqcn> cc = CreateObject<CcDcqcn>();
    DoubleValue g;
    cc->GetAttribute("Gain", g);
    EXPECT_DOUBLE_EQ(g.Get(), 1.0 / 256);
    TimeValue k;
    cc->GetAttribute("AlphaInterval", k);
    EXPECT_EQ(k.Get(), MicroSeconds(55));
    UintegerValue b;
    cc->GetAttribute("ByteCounter", b);
    EXPECT_EQ(b.Get(), 10000000U);
    UintegerValue f;
    cc->GetAttribute("FastRecoverySteps", f);
    EXPECT_EQ(f.Get(), 5U);
    EXPECT_TRUE(cc->NeedsCnp());
    EXPECT_FALSE(cc->NeedsInt());
    EXPECT_EQ(cc->GetName(), "dcqcn");
}

TEST_F(DcqcnTest, CnpCutsWithOldAlphaThenRaisesAlpha)
{
    // No increase events: only CNPs and the alpha clock act.
    Ptr<CcDcqcn> cc = Make(Seconds(1), 0, 5, "40Mb/s", "400Mb/s");
    EXPECT_EQ(qp.rate, qp.lineRate);
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 1.0);

    cc->OnCnp(); // t = 0, alpha 1: R_C = 100 G (1 - 1/2)
    EXPECT_EQ(cc->GetCurrentRate(), 50e9);
    EXPECT_EQ(cc->GetTargetRate(), 100e9);
    EXPECT_EQ(qp.rate, 50e9);
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 1.0); // (15/16) 1 + 1/16

    Simulator::Schedule(MicroSeconds(10), [&] { cc->OnCnp(); });
    RunTo(MicroSeconds(11));
    EXPECT_EQ(cc->GetTargetRate(), 50e9);
    EXPECT_EQ(cc->GetCurrentRate(), 25e9);

    // 120 us later two alpha intervals (55 us) have passed without a CNP.
    RunTo(MicroSeconds(129));
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 15.0 / 16 * 15.0 / 16);
    Simulator::Schedule(MicroSeconds(1), [&] { cc->OnCnp(); });
    RunTo(MicroSeconds(131));
    const double alpha = 225.0 / 256; // 0.87890625
    EXPECT_EQ(cc->GetTargetRate(), 25e9);
    EXPECT_EQ(cc->GetCurrentRate(), 14013671875ULL); // 25 G (1 - alpha/2)
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 15.0 / 16 * alpha + 1.0 / 16);

    // The alpha clock restarted at the CNP (130 us): one decay at 185 us, none before.
    RunTo(MicroSeconds(184));
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 15.0 / 16 * alpha + 1.0 / 16);
    RunTo(MicroSeconds(186));
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), (15.0 / 16 * alpha + 1.0 / 16) * 15.0 / 16);
}

TEST_F(DcqcnTest, TimerOnlyFastRecoveryThenAdditive)
{
    // F = 2, byte counter off: two fast-recovery steps, then additive for ever.
    Ptr<CcDcqcn> cc = Make(MicroSeconds(55), 0, 2, "1Gb/s", "5Gb/s");
    cc->OnCnp(); // 50 G, target 100 G
    Simulator::Schedule(MicroSeconds(1), [&] { cc->OnCnp(); });
    RunTo(MicroSeconds(2)); // alpha still 1: 25 G, target 50 G
    EXPECT_EQ(cc->GetCurrentRate(), 25e9);
    EXPECT_EQ(cc->GetTargetRate(), 50e9);

    RunTo(MicroSeconds(57)); // T = 1: fast recovery
    EXPECT_EQ(cc->GetTimerCount(), 1U);
    EXPECT_EQ(cc->GetCurrentRate(), 37.5 * kG);
    RunTo(MicroSeconds(112)); // T = 2: fast recovery
    EXPECT_EQ(cc->GetCurrentRate(), 43.75 * kG);
    EXPECT_EQ(cc->GetTargetRate(), 50e9);
    RunTo(MicroSeconds(167)); // T = 3: additive, R_T 51 G
    EXPECT_EQ(cc->GetTargetRate(), 51e9);
    EXPECT_EQ(cc->GetCurrentRate(), 47.375 * kG);
    RunTo(MicroSeconds(222)); // T = 4: still additive without a byte counter
    EXPECT_EQ(cc->GetTargetRate(), 52e9);
    EXPECT_EQ(cc->GetCurrentRate(), 49.6875 * kG);
    EXPECT_EQ(qp.rate, 49.6875 * kG);
}

TEST_F(DcqcnTest, ByteCounterAndTimerReachHyperIncrease)
{
    // F = 1, B = 1 MB.
    Ptr<CcDcqcn> cc = Make(MicroSeconds(55), 1000000, 1, "1Gb/s", "5Gb/s");
    cc->OnCnp();
    Simulator::Schedule(MicroSeconds(1), [&] { cc->OnCnp(); });
    RunTo(MicroSeconds(2)); // 25 G, target 50 G; T = BC = 0

    cc->OnSend(600000);
    EXPECT_EQ(cc->GetByteCounterCount(), 0U);
    cc->OnSend(400000); // BC = 1, max(T, BC) = 1 <= F: fast recovery
    EXPECT_EQ(cc->GetByteCounterCount(), 1U);
    EXPECT_EQ(cc->GetCurrentRate(), 37.5 * kG);
    cc->OnSend(1000000); // BC = 2 > F, T = 0 <= F: additive
    EXPECT_EQ(cc->GetTargetRate(), 51e9);
    EXPECT_EQ(cc->GetCurrentRate(), 44.25 * kG);

    RunTo(MicroSeconds(57)); // T = 1: min(T, BC) = 1 <= F: additive
    EXPECT_EQ(cc->GetTargetRate(), 52e9);
    EXPECT_EQ(cc->GetCurrentRate(), 48.125 * kG);
    RunTo(MicroSeconds(112)); // T = 2: min = 2 > F: hyper, R_T += (2 - 1) R_HAI
    EXPECT_EQ(cc->GetTargetRate(), 57e9);
    EXPECT_EQ(cc->GetCurrentRate(), 52.5625 * kG);
    cc->OnSend(1000000); // BC = 3, min = 2: hyper step 1
    EXPECT_EQ(cc->GetTargetRate(), 62e9);
    EXPECT_EQ(cc->GetCurrentRate(), 57.28125 * kG);
    RunTo(MicroSeconds(167)); // T = 3, min = 3: hyper step 2
    EXPECT_EQ(cc->GetTargetRate(), 72e9);
    EXPECT_EQ(cc->GetCurrentRate(), 64.640625 * kG);

    // A CNP restarts both counters.
    cc->OnCnp();
    EXPECT_EQ(cc->GetTimerCount(), 0U);
    EXPECT_EQ(cc->GetByteCounterCount(), 0U);
    EXPECT_EQ(cc->GetTargetRate(), 64.640625 * kG);
}

TEST_F(DcqcnTest, RecoversToLineRateAndGoesQuiet)
{
    Ptr<CcDcqcn> cc = CreateObject<CcDcqcn>();
    cc->Init(&qp);
    cc->OnSend(5000000); // before any CNP the byte counter does nothing
    EXPECT_EQ(qp.rate, qp.lineRate);
    cc->OnCnp();
    EXPECT_LT(qp.rate, qp.lineRate);
    // With the timer stopped at line rate the event list empties by itself.
    Simulator::Run();
    EXPECT_EQ(cc->GetCurrentRate(), qp.lineRate);
    EXPECT_EQ(qp.rate, qp.lineRate);
    EXPECT_LT(Simulator::Now(), MilliSeconds(5));
}

TEST_F(DcqcnTest, RateNeverBelowMinRate)
{
    Ptr<CcDcqcn> cc = Make(Seconds(1), 0, 5, "40Mb/s", "400Mb/s");
    for (int i = 0; i < 40; ++i)
    {
        cc->OnCnp();
    }
    EXPECT_EQ(cc->GetCurrentRate(), 100e6);
    EXPECT_EQ(qp.rate, 100e6);
}

TEST_F(DcqcnTest, StopCancelsTheTimer)
{
    Ptr<CcDcqcn> cc = Make(MicroSeconds(55), 0, 5, "40Mb/s", "400Mb/s");
    cc->OnCnp();
    const uint64_t cut = qp.rate;
    const uint32_t changes = qp.rateChanges;
    cc->Stop();
    Simulator::Run();
    EXPECT_EQ(cc->GetTimerCount(), 0U);
    EXPECT_EQ(qp.rateChanges, changes);
    EXPECT_EQ(qp.rate, cut);
}

class DcqcnHpccNs3Test : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
    }

    /** g = 1/16, alpha slots 10 us, decrease slots 4 us, timer 100 us, F = 1. */
    Ptr<CcDcqcnHpccNs3>
    Make(bool clamp)
    {
        Ptr<CcDcqcnHpccNs3> cc = CreateObject<CcDcqcnHpccNs3>();
        cc->SetAttribute("Gain", DoubleValue(1.0 / 16));
        cc->SetAttribute("AlphaInterval", TimeValue(MicroSeconds(10)));
        cc->SetAttribute("DecreaseInterval", TimeValue(MicroSeconds(4)));
        cc->SetAttribute("IncreaseTimer", TimeValue(MicroSeconds(100)));
        cc->SetAttribute("FastRecoverySteps", UintegerValue(1));
        cc->SetAttribute("RateAi", DataRateValue(DataRate("1Gb/s")));
        cc->SetAttribute("RateHai", DataRateValue(DataRate("5Gb/s")));
        cc->SetAttribute("ClampTargetRate", BooleanValue(clamp));
        cc->Init(&qp);
        return cc;
    }

    /** An ACK with the ECN echo, the peer's congestion signal. */
    static AckSample
    Marked()
    {
        AckSample ack;
        ack.ecnEcho = true;
        return ack;
    }

    FakeQueuePair qp;
};

TEST_F(DcqcnHpccNs3Test, PeerDefaults)
{
    Ptr<CcDcqcnHpccNs3> cc = CreateObject<CcDcqcnHpccNs3>();
    TimeValue t;
    cc->GetAttribute("AlphaInterval", t);
    EXPECT_EQ(t.Get(), MicroSeconds(55));
    cc->GetAttribute("DecreaseInterval", t);
    EXPECT_EQ(t.Get(), MicroSeconds(4));
    cc->GetAttribute("IncreaseTimer", t);
    EXPECT_EQ(t.Get(), MicroSeconds(1500));
    DataRateValue r;
    cc->GetAttribute("RateAi", r);
    EXPECT_EQ(r.Get().GetBitRate(), 5000000U);
    cc->GetAttribute("RateHai", r);
    EXPECT_EQ(r.Get().GetBitRate(), 50000000U);
    EXPECT_FALSE(cc->NeedsCnp()); // the signal rides in the ACK
    EXPECT_EQ(cc->GetName(), "dcqcn-hpccns3");
}

TEST_F(DcqcnHpccNs3Test, SlottedAlphaAndCuts)
{
    Ptr<CcDcqcnHpccNs3> cc = Make(false);
    AckSample clean;
    cc->OnAck(clean);
    EXPECT_EQ(qp.rate, qp.lineRate);

    cc->OnAck(Marked()); // t = 0: alpha = 1, R_T = R_C = 100 G, cut due at 4 us + 1 ns
    EXPECT_EQ(qp.rate, qp.lineRate);
    RunTo(NanoSeconds(4000));
    EXPECT_EQ(qp.rate, qp.lineRate);
    RunTo(NanoSeconds(4002));
    EXPECT_EQ(cc->GetCurrentRate(), 50e9);
    EXPECT_EQ(cc->GetTargetRate(), 100e9); // stage 0, no clamp: R_T kept

    // A signal at 12 us; the slot [0, 10 us) had none (the first signal is not counted).
    Simulator::Schedule(MicroSeconds(12) - Simulator::Now(), [&] { cc->OnAck(Marked()); });
    RunTo(NanoSeconds(12000));
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 15.0 / 16);
    RunTo(NanoSeconds(12002)); // cut at the end of the decrease slot, 12 us + 1 ns
    EXPECT_EQ(cc->GetCurrentRate(), 26562500000ULL); // 50 G (1 - 0.9375/2)
    EXPECT_EQ(cc->GetTargetRate(), 100e9);
    RunTo(MicroSeconds(21)); // the slot [10, 20 us) saw the signal
    const double alpha20 = 15.0 / 16 * 15.0 / 16 + 1.0 / 16;
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), alpha20);
    RunTo(MicroSeconds(45)); // two quiet slots since
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), alpha20 * 15.0 / 16 * 15.0 / 16);

    // Timer restarted at the cut (12.001 us): fast recovery (stage 0 < F) at 112.001 us.
    RunTo(MicroSeconds(113));
    EXPECT_EQ(cc->GetStage(), 1U);
    EXPECT_EQ(cc->GetCurrentRate(), 63281250000ULL); // (26.5625 G + 100 G) / 2

    // A signal at 150 us; stage 1, so the cut at 152.001 us clamps R_T to R_C.
    Simulator::Schedule(MicroSeconds(150) - Simulator::Now(), [&] { cc->OnAck(Marked()); });
    RunTo(MicroSeconds(153));
    const double alpha = alpha20 * std::pow(15.0 / 16, 13); // 13 quiet slots [20, 150 us)
    const double r0 = 63281250000.0;
    const double cut = r0 * (1 - alpha / 2);
    EXPECT_EQ(cc->GetTargetRate(), 63281250000ULL);
    EXPECT_NEAR(cc->GetCurrentRate(), cut, 1);
    EXPECT_EQ(cc->GetStage(), 0U);

    RunTo(MicroSeconds(253)); // stage 0: fast recovery
    const double fr = (cut + r0) / 2;
    EXPECT_NEAR(cc->GetCurrentRate(), fr, 2);
    RunTo(MicroSeconds(353)); // stage 1 == F: additive
    EXPECT_EQ(cc->GetTargetRate(), 64281250000ULL);
    const double ai = (fr + 64281250000.0) / 2;
    EXPECT_NEAR(cc->GetCurrentRate(), ai, 2);
    RunTo(MicroSeconds(453)); // stage 2 > F: hyper
    EXPECT_EQ(cc->GetTargetRate(), 69281250000ULL);
    EXPECT_NEAR(cc->GetCurrentRate(), (ai + 69281250000.0) / 2, 2);
    EXPECT_NEAR(qp.rate, (ai + 69281250000.0) / 2, 2);
}

TEST_F(DcqcnHpccNs3Test, ClampTargetRateSetsTargetOnEveryCut)
{
    Ptr<CcDcqcnHpccNs3> cc = Make(true);
    cc->OnAck(Marked());
    Simulator::Schedule(MicroSeconds(12), [&] { cc->OnCnp(); });
    RunTo(MicroSeconds(13));
    EXPECT_EQ(cc->GetTargetRate(), 50e9); // clamped at the second cut
    EXPECT_EQ(cc->GetCurrentRate(), 26562500000ULL);
}

TEST_F(DcqcnHpccNs3Test, RateOnFirstCnpAndQuietAfterRecovery)
{
    Ptr<CcDcqcnHpccNs3> cc = CreateObject<CcDcqcnHpccNs3>();
    cc->SetAttribute("RateOnFirstCnp", DoubleValue(0.5));
    cc->Init(&qp);
    AckSample nack;
    nack.ecnEcho = true;
    cc->OnNack(nack);
    EXPECT_EQ(qp.rate, 50e9);
    EXPECT_EQ(cc->GetTargetRate(), 50e9);
    // Once back at line rate no event is left: an idle QP costs nothing.
    Simulator::Run();
    EXPECT_EQ(qp.rate, qp.lineRate);
}

} // namespace
