/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// DCQCN's alpha under persistent marking: the K > N rule, its warning, and the paper
// settings that reproduce the HPCC simulator's slotted alpha (presets, hpcc-compat).
#include "cc-fake-qp.h"

#include "ns3/cc-dcqcn-hpccns3.h"
#include "ns3/cc-dcqcn.h"
#include "ns3/cc-presets.h"
#include "ns3/config.h"
#include "ns3/core-module.h"
#include "ns3/dcqcn-alpha-mapping.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ns3;

namespace
{

constexpr double kG = 1.0 / 256;
/** One 1000-byte packet at 100 Gb/s (its 1048 wire bytes take 84 ns). */
const Time kPacketGap = NanoSeconds(84);

class DcqcnAlphaTest : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }

    /** Alpha of the paper model at the end of a run and just after its last CNP. */
    struct PaperRun
    {
        double atEnd{0};        //!< alpha at the end
        double afterLastCnp{0}; //!< alpha just after the last CNP
    };

    /**
     * The paper model: marks on every packet from 0 to \p markEnd and from \p resume to
     * \p end; the receiver sends a CNP for the first mark after each CNP interval.
     */
    PaperRun
    RunPaper(double gain, Time k, Time n, Time markEnd, Time resume, Time end)
    {
        Ptr<CcDcqcn> cc = CreateObject<CcDcqcn>();
        cc->SetAttribute("Gain", DoubleValue(gain));
        cc->SetAttribute("AlphaInterval", TimeValue(k));
        cc->Init(&qp);
        PaperRun run;
        Time lastCnp = Time(0) - n;
        for (Time t; t < end; t += kPacketGap)
        {
            if ((t < markEnd || t >= resume) && t - lastCnp >= n)
            {
                lastCnp = t;
                Simulator::Schedule(t,
                                    [cc, &run]()
                                    {
                                        cc->OnCnp();
                                        run.afterLastCnp = cc->GetAlpha();
                                    });
            }
        }
        Simulator::Stop(end);
        Simulator::Run();
        run.atEnd = cc->GetAlpha();
        cc->Stop();
        return run;
    }

    /** \return alpha of RunPaper at \p end */
    double
    PaperAlpha(double gain, Time k, Time n, Time markEnd, Time resume, Time end)
    {
        return RunPaper(gain, k, n, markEnd, resume, end).atEnd;
    }

    /** The HPCC simulator's model: every marked packet's ACK is a signal. */
    double
    SlottedAlpha(Time slot, Time decrease, Time markEnd, Time resume, Time end)
    {
        Ptr<CcDcqcnHpccNs3> cc = CreateObject<CcDcqcnHpccNs3>();
        cc->SetAttribute("Gain", DoubleValue(kG));
        cc->SetAttribute("AlphaInterval", TimeValue(slot));
        cc->SetAttribute("DecreaseInterval", TimeValue(decrease));
        cc->Init(&qp);
        for (Time t; t < end; t += kPacketGap)
        {
            if (t < markEnd || t >= resume)
            {
                Simulator::Schedule(t, &CcDcqcnHpccNs3::OnCnp, cc);
            }
        }
        Simulator::Stop(end);
        Simulator::Run();
        const double alpha = cc->GetAlpha();
        cc->Stop();
        return alpha;
    }

    FakeQueuePair qp;
};

} // namespace

TEST_F(DcqcnAlphaTest, KNotAboveNIsAWarningNamingBoth)
{
    EXPECT_EQ(DcqcnAlphaIntervalWarning(MicroSeconds(55), MicroSeconds(50)), "");
    const std::string w = DcqcnAlphaIntervalWarning(MicroSeconds(50), MicroSeconds(50));
    EXPECT_NE(w.find("K = 50us is not above the CNP interval N = 50us"), std::string::npos) << w;
    EXPECT_NE(DcqcnAlphaIntervalWarning(MicroSeconds(1), MicroSeconds(4)), "");
    // The built-in defaults are the paper's, K 55 us > N 50 us.
    EXPECT_EQ(DcqcnAlphaIntervalWarningForDefaults(), "");
    Config::SetDefault("ns3::CcDcqcn::AlphaInterval", TimeValue(MicroSeconds(1)));
    EXPECT_NE(DcqcnAlphaIntervalWarningForDefaults().find("N = 50us"), std::string::npos);
}

TEST_F(DcqcnAlphaTest, PersistentMarkingHoldsAlphaAtOneOnlyWithKAboveN)
{
    // K = N = 50 us: one decay between every two CNPs, alpha = g / (1 - (1 - g)^2); it
    // takes some 50 ms (256 CNPs per e-fold) to get there.
    const Time longRun = MilliSeconds(150);
    // Just after a CNP: the fixed point of alpha = (1 - g)^(decays + 1) alpha + g.
    const double equal =
        RunPaper(kG, MicroSeconds(50), MicroSeconds(50), longRun, longRun, longRun).afterLastCnp;
    EXPECT_NEAR(equal, kG / (1 - std::pow(1 - kG, 2)), 0.01);
    Simulator::Destroy();
    // K = 1 us against the NIC's N = 50 us: fifty decays per CNP, about 0.02.
    const Time end = MilliSeconds(2);
    const double fiftieth =
        RunPaper(kG, MicroSeconds(1), MicroSeconds(50), end, end, end).afterLastCnp;
    EXPECT_NEAR(fiftieth, kG / (1 - std::pow(1 - kG, 51)), 0.001);
    Simulator::Destroy();
    // K = 1 us, N = 4 us: four decays per CNP, alpha = g / (1 - (1 - g)^5), about 0.2.
    const double quarter =
        RunPaper(kG, MicroSeconds(1), MicroSeconds(4), end, end, end).afterLastCnp;
    EXPECT_NEAR(quarter, kG / (1 - std::pow(1 - kG, 5)), 0.01);
    Simulator::Destroy();
    // K = 55 us > N = 50 us (the paper): alpha stays at 1.
    EXPECT_GT(PaperAlpha(kG, MicroSeconds(55), MicroSeconds(50), end, end, end), 0.999);
    Simulator::Destroy();
    // The HPCC simulator's slotted alpha stays at 1 with any slots.
    EXPECT_GT(SlottedAlpha(MicroSeconds(1), MicroSeconds(4), end, end, end), 0.999);
}

TEST_F(DcqcnAlphaTest, MappingValues)
{
    const DcqcnPaperEquivalent run = DcqcnPaperEquivalentOf(MicroSeconds(1), MicroSeconds(4), kG);
    EXPECT_EQ(run.cnpInterval, MicroSeconds(4));
    EXPECT_EQ(run.alphaInterval, MicroSeconds(5));
    EXPECT_NEAR(run.gain, 1 - std::pow(1 - kG, 4), 1e-15);
    const DcqcnPaperEquivalent paper =
        DcqcnPaperEquivalentOf(MicroSeconds(50), MicroSeconds(50), kG);
    EXPECT_EQ(paper.cnpInterval, MicroSeconds(50));
    EXPECT_EQ(paper.alphaInterval, MicroSeconds(100));
    EXPECT_DOUBLE_EQ(paper.gain, kG);
}

TEST_F(DcqcnAlphaTest, MappedPaperAlphaFollowsTheSlottedAlpha)
{
    // Marks for 100 us, none for 1 ms (alpha decays), marks again for 400 us.
    const Time markEnd = MicroSeconds(100);
    const Time resume = MicroSeconds(1100);
    const Time end = MicroSeconds(1500);
    for (const auto& [slot, decrease] : {std::pair{MicroSeconds(1), MicroSeconds(4)},
                                         std::pair{MicroSeconds(50), MicroSeconds(50)}})
    {
        const DcqcnPaperEquivalent e = DcqcnPaperEquivalentOf(slot, decrease, kG);
        const double slotted = SlottedAlpha(slot, decrease, markEnd, resume, end);
        Simulator::Destroy();
        const double mapped =
            PaperAlpha(e.gain, e.alphaInterval, e.cnpInterval, markEnd, resume, end);
        Simulator::Destroy();
        const double naive = PaperAlpha(kG, slot, decrease, markEnd, resume, end);
        Simulator::Destroy();
        EXPECT_NEAR(mapped / slotted, 1.0, 0.05)
            << slot.As(Time::US) << ": slotted " << slotted << " mapped " << mapped;
        // Taking the 1 us slot as K and the 4 us decrease slot as N instead is far off.
        if (slot < decrease)
        {
            EXPECT_LT(naive / slotted, 0.8) << slot.As(Time::US) << ": naive " << naive;
        }
    }
}

TEST_F(DcqcnAlphaTest, PresetsKeepKAboveTheirCnpInterval)
{
    for (const std::string preset : CcPresetNames())
    {
        ApplyCcPreset(preset);
        Config::SetDefault("ns3::RdmaNic::CnpInterval", TimeValue(CcPresetCnpInterval(preset)));
        EXPECT_EQ(DcqcnAlphaIntervalWarningForDefaults(), "") << preset;
        Config::Reset();
    }
}

TEST_F(DcqcnAlphaTest, StateKeepsRecoveringWhileTheQueuePairIsIdle)
{
    // One CNP, then nothing sent: the timer recovers the rate on time, as the NIC's
    // rate-increase timer does, and alpha decays once per K.
    Ptr<CcDcqcn> cc = CreateObject<CcDcqcn>(); // paper: g 1/256, K 55 us, T 55 us, F 5
    cc->Init(&qp);
    Simulator::Schedule(Time(0), &CcDcqcn::OnCnp, cc);
    Simulator::Stop(MicroSeconds(280)); // five fast-recovery steps: R_C = 100 - 50 / 2^5 G
    Simulator::Run();
    EXPECT_NEAR(static_cast<double>(qp.rate), 100e9 - 50e9 / 32, 5);
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    EXPECT_EQ(qp.rate, qp.lineRate);
    EXPECT_EQ(cc->GetTargetRate(), qp.lineRate);
    const double periods = std::floor(10.28e-3 / 55e-6);
    EXPECT_NEAR(cc->GetAlpha(), std::pow(1 - kG, periods), 1e-12);
}
