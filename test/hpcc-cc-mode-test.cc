/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// CC_MODE to scheme, loudly when it names none; the configuration's parameters on the
// scheme; the settings a run does not model.

#include "ns3/attribute.h"
#include "ns3/hpcc-cc-mode.h"
#include "ns3/hpcc-unmodelled.h"
#include "ns3/input-error.h"
#include "ns3/nstime.h"
#include "ns3/type-id.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

using namespace ns3;

namespace
{

const std::string kData = std::string(MLFABRIC_SHARED_DIR) + "/data/hpcc/";

std::string
WriteFile(const std::string& name, const std::string& text)
{
    const std::string path = testing::TempDir() + name;
    std::ofstream(path) << text;
    return path;
}

/** \return the default of "ns3::Type::Attribute" as text */
std::string
DefaultOf(const std::string& type, const std::string& attribute)
{
    TypeId::AttributeInformation info;
    EXPECT_TRUE(TypeId::LookupByName(type).LookupAttributeByName(attribute, &info)) << attribute;
    return info.initialValue->SerializeToString(info.checker);
}

/** \return the default of a Time attribute */
Time
TimeDefaultOf(const std::string& type, const std::string& attribute)
{
    TimeValue value;
    TypeId::AttributeInformation info;
    EXPECT_TRUE(TypeId::LookupByName(type).LookupAttributeByName(attribute, &info)) << attribute;
    value.DeserializeFromString(info.initialValue->SerializeToString(info.checker), info.checker);
    return value.Get();
}

template <typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const InputError& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

TEST(HpccCcMode, TheFourSchemesMapExactly)
{
    const std::tuple<uint32_t, HpccFidelity, const char*, const char*> cases[] = {
        {1, HpccFidelity::Peer, "dcqcn-hpccns3", "DCQCN"},
        {1, HpccFidelity::Faithful, "dcqcn", "DCQCN"},
        {3, HpccFidelity::Peer, "hpcc", "HPCC"},
        {3, HpccFidelity::Faithful, "hpcc", "HPCC"},
        {7, HpccFidelity::Faithful, "timely", "TIMELY"},
        {8, HpccFidelity::Peer, "dctcp", "DCTCP"},
    };
    for (const auto& [mode, fidelity, scheme, name] : cases)
    {
        const HpccCcChoice c = MapHpccCcMode(mode, fidelity);
        EXPECT_EQ(c.ccMode, mode);
        EXPECT_EQ(c.scheme, scheme) << mode;
        EXPECT_EQ(c.peerName, name) << mode;
        EXPECT_TRUE(c.exact) << mode;
        EXPECT_TRUE(c.warning.empty()) << mode;
    }
}

TEST(HpccCcMode, AModeWithoutASchemeRunsNoneAndSaysSo)
{
    for (uint32_t mode : {0u, 2u, 12u, 99u})
    {
        const HpccCcChoice c = MapHpccCcMode(mode, HpccFidelity::Peer);
        EXPECT_EQ(c.scheme, "none");
        EXPECT_EQ(c.peerName, "");
        EXPECT_FALSE(c.exact);
        EXPECT_EQ(
            c.warning.rfind("CC_MODE " + std::to_string(mode) + " names no congestion control", 0),
            0u)
            << c.warning;
        EXPECT_NE(c.warning.find("silently runs without one"), std::string::npos);
    }
    for (HpccFidelity fidelity : {HpccFidelity::Peer, HpccFidelity::Faithful})
    {
        const HpccCcChoice pint = MapHpccCcMode(10, fidelity);
        EXPECT_EQ(pint.scheme, "hpcc-pint");
        EXPECT_EQ(pint.peerName, "HPCC-PINT");
        EXPECT_TRUE(pint.exact);
        EXPECT_EQ(pint.warning, "");
    }
}

TEST(HpccCcMode, PintRunsHpccPintWithTheFilesParameters)
{
    const std::string path = WriteFile("hpcc-pint.txt",
                                       "CC_MODE 10\nU_TARGET 0.9\nMI_THRESH 3\nRATE_AI 40Mb/s\n"
                                       "MIN_RATE 1000Mb/s\nFAST_REACT 0\nHAS_WIN 1\n"
                                       "PINT_LOG_BASE 1.01\nPINT_PROB 0.25\n");
    const HpccConfig c = ReadHpccConfig(path);
    const HpccCcChoice choice = MapHpccCcMode(c.ccMode, HpccFidelity::Peer);
    ApplyHpccCcParameters(c, choice);
    EXPECT_EQ(DefaultOf("ns3::RdmaNic", "CongestionControl"), "ns3::CcHpccPint");
    EXPECT_EQ(DefaultOf("ns3::CcHpccPint", "LogBase"), "1.01");
    EXPECT_EQ(DefaultOf("ns3::CcHpccPint", "SampleProbability"), "0.25");
    // HPCC's window law and its parameters, declared by HPCC.
    EXPECT_EQ(DefaultOf("ns3::CcHpcc", "TargetUtilization"), "0.9");
    EXPECT_EQ(DefaultOf("ns3::CcHpcc", "MaxStage"), "3");
    EXPECT_EQ(DefaultOf("ns3::CcHpcc", "AiRate"), "40000000bps");
    EXPECT_EQ(DefaultOf("ns3::CcHpcc", "MinRate"), "1000000000bps");
    // The simulator's PINT reacts on every sampled ACK whatever FAST_REACT says, and
    // keeps its own window (no CcPeerWindow around it).
    EXPECT_EQ(DefaultOf("ns3::CcHpcc", "FastReact"), "true");
    EXPECT_FALSE(HpccUsesPeerWindow(c, choice.scheme));
}

TEST(HpccCcMode, FatTreeParametersReachTheSchemes)
{
    const HpccConfig hp = ReadHpccConfig(kData + "config_fat_websearch_2ms_hpcc.txt");
    ApplyHpccCcParameters(hp, MapHpccCcMode(hp.ccMode, HpccFidelity::Peer));
    EXPECT_EQ(DefaultOf("ns3::CcHpcc", "TargetUtilization"), "0.95");
    EXPECT_EQ(DefaultOf("ns3::CcHpcc", "MaxStage"), "0");
    EXPECT_EQ(DefaultOf("ns3::CcHpcc", "AiRate"), "40000000bps");
    EXPECT_EQ(DefaultOf("ns3::CcHpcc", "FastReact"), "true");
    EXPECT_EQ(DefaultOf("ns3::CcHpcc", "MinRate"), "1000000000bps");

    const HpccConfig dc = ReadHpccConfig(kData + "config_fat_websearch_2ms_dcqcn.txt");
    ApplyHpccCcParameters(dc, MapHpccCcMode(dc.ccMode, HpccFidelity::Peer));
    EXPECT_EQ(DefaultOf("ns3::CcDcqcnHpccNs3", "Gain"), "0.00390625");
    EXPECT_EQ(TimeDefaultOf("ns3::CcDcqcnHpccNs3", "AlphaInterval"), MicroSeconds(1));
    EXPECT_EQ(TimeDefaultOf("ns3::CcDcqcnHpccNs3", "DecreaseInterval"), MicroSeconds(4));
    EXPECT_EQ(TimeDefaultOf("ns3::CcDcqcnHpccNs3", "IncreaseTimer"), MicroSeconds(300));
    EXPECT_EQ(DefaultOf("ns3::CcDcqcnHpccNs3", "FastRecoverySteps"), "1");
    EXPECT_EQ(DefaultOf("ns3::CcDcqcnHpccNs3", "RateAi"), "20000000bps");
    EXPECT_EQ(DefaultOf("ns3::CcDcqcnHpccNs3", "RateHai"), "200000000bps");
    EXPECT_EQ(DefaultOf("ns3::CcDcqcnHpccNs3", "ClampTargetRate"), "false");

    // DCTCP takes its window from HAS_WIN (0 in this file) and shares EWMA_GAIN.
    ApplyHpccCcParameters(dc, MapHpccCcMode(8, HpccFidelity::Peer));
    EXPECT_EQ(DefaultOf("ns3::CcDctcp", "Gain"), "0.00390625");
    EXPECT_EQ(DefaultOf("ns3::CcDctcp", "AiRate"), "1000000000bps");
    EXPECT_EQ(DefaultOf("ns3::CcDctcp", "RateWindow"), "false");

    // Faithful DCQCN: real CNPs, at most one per decrease interval.
    ApplyHpccCcParameters(dc, MapHpccCcMode(dc.ccMode, HpccFidelity::Faithful));
    EXPECT_EQ(TimeDefaultOf("ns3::CcDcqcn", "IncreaseTimer"), MicroSeconds(300));
    EXPECT_EQ(DefaultOf("ns3::CcDcqcn", "RateHai"), "200000000bps");
    EXPECT_EQ(TimeDefaultOf("ns3::RdmaNic", "CnpInterval"), MicroSeconds(4));
    // The slotted alpha (1 us slots, 4 us decrease slots) in the paper's model: K above
    // N by one slot, the gain of four slots per CNP.
    EXPECT_EQ(TimeDefaultOf("ns3::CcDcqcn", "AlphaInterval"), MicroSeconds(5));
    EXPECT_NEAR(std::stod(DefaultOf("ns3::CcDcqcn", "Gain")), 1 - std::pow(255.0 / 256, 4), 1e-6);
    // Another scheme gives the NIC its own CNP interval back.
    ApplyHpccCcParameters(hp, MapHpccCcMode(hp.ccMode, HpccFidelity::Faithful));
    EXPECT_EQ(TimeDefaultOf("ns3::RdmaNic", "CnpInterval"), MicroSeconds(50));
}

TEST(HpccCcMode, MissingOrBadParametersNameTheKey)
{
    const std::string noAi = WriteFile("hpcc-noai.txt", "CC_MODE 3\n");
    EXPECT_EQ(
        ErrorOf(
            [&]
            { ApplyHpccCcParameters(ReadHpccConfig(noAi), MapHpccCcMode(3, HpccFidelity::Peer)); })
            .rfind(noAi + ": RATE_AI not given; hpcc needs it", 0),
        0u);
    const std::string noTimer =
        WriteFile("hpcc-notimer.txt", "CC_MODE 1\nEWMA_GAIN 0.1\nRATE_AI 5Mb/s\nRATE_HAI 50Mb/s\n");
    EXPECT_NE(ErrorOf(
                  [&] {
                      ApplyHpccCcParameters(ReadHpccConfig(noTimer),
                                            MapHpccCcMode(1, HpccFidelity::Peer));
                  })
                  .find("RP_TIMER not given"),
              std::string::npos);
    // A value the file format accepts but the scheme does not: a gain of 0.
    const std::string zeroGain =
        WriteFile("hpcc-zerogain.txt",
                  "CC_MODE 1\nRP_TIMER 300\nRATE_AI 5Mb/s\nRATE_HAI 50Mb/s\nEWMA_GAIN 0\n");
    EXPECT_EQ(ErrorOf(
                  [&] {
                      ApplyHpccCcParameters(ReadHpccConfig(zeroGain),
                                            MapHpccCcMode(1, HpccFidelity::Faithful));
                  })
                  .rfind(zeroGain + ":5: EWMA_GAIN: ", 0),
              0u);
}

TEST(HpccCcMode, UnmodelledSettingsAreListed)
{
    EXPECT_TRUE(
        HpccUnmodelledSettings(ReadHpccConfig(kData + "config_fat_websearch_2ms_hpcc.txt"), "hpcc")
            .empty());
    EXPECT_TRUE(HpccUnmodelledSettings(ReadHpccConfig(kData + "config_fat_websearch_2ms_dcqcn.txt"),
                                       "dcqcn-hpccns3")
                    .empty());
    const auto example =
        HpccUnmodelledSettings(ReadHpccConfig(kData + "config_example.txt"), "hpcc");
    ASSERT_EQ(example.size(), 1u);
    EXPECT_EQ(example[0],
              kData + "config_example.txt:50: ENABLE_TRACE 1: the binary packet trace "
                      "(TRACE_OUTPUT_FILE) is not written");

    const std::string path = WriteFile("hpcc-unmodelled.txt",
                                       "MULTI_RATE 1\nSAMPLE_FEEDBACK 1\nHAS_WIN 0\n"
                                       "L2_BACK_TO_ZERO 1\nRATE_BOUND 0\nLINK_DOWN 100 1 2\n"
                                       "L2_CHUNK_SIZE 4000\nL2_ACK_INTERVAL 4000\n");
    const auto notes = HpccUnmodelledSettings(ReadHpccConfig(path), "hpcc");
    ASSERT_EQ(notes.size(), 7u);
    EXPECT_EQ(notes[0].rfind(path + ":4: L2_BACK_TO_ZERO 1:", 0), 0u) << notes[0];
    EXPECT_EQ(notes[1].rfind(path + ":7: L2_CHUNK_SIZE 4000:", 0), 0u) << notes[1];
    EXPECT_EQ(notes[2].rfind(path + ":5: RATE_BOUND 0:", 0), 0u) << notes[2];
    EXPECT_EQ(notes[3].rfind(path + ":6: LINK_DOWN 100 1 2:", 0), 0u) << notes[3];
    EXPECT_EQ(notes[4].rfind(path + ":1: MULTI_RATE 1:", 0), 0u) << notes[4];
    EXPECT_EQ(notes[5].rfind(path + ":2: SAMPLE_FEEDBACK 1:", 0), 0u) << notes[5];
    EXPECT_EQ(notes[6].rfind(path + ":3: HAS_WIN 0:", 0), 0u) << notes[6];
    // The same file with another scheme: the HPCC-only notes go.
    EXPECT_EQ(HpccUnmodelledSettings(ReadHpccConfig(path), "dcqcn").size(), 4u);

    // Windows: DCTCP's follows its rate; the others get the simulator's (below).
    const std::string win = WriteFile("hpcc-win.txt", "HAS_WIN 1\nVAR_WIN 0\nMULTI_RATE 0\n");
    const HpccConfig w = ReadHpccConfig(win);
    for (const char* scheme : {"dcqcn", "dcqcn-hpccns3", "timely", "none"})
    {
        EXPECT_TRUE(HpccUnmodelledSettings(w, scheme).empty()) << scheme;
    }
    const auto dctcp = HpccUnmodelledSettings(w, "dctcp");
    ASSERT_EQ(dctcp.size(), 1u);
    EXPECT_EQ(dctcp[0], win + ":2: VAR_WIN 0: DCTCP's window follows its rate here (VAR_WIN 1)");
}

TEST(HpccCcMode, WindowedSchemesRunInsideThePeerWindow)
{
    const HpccConfig hp = ReadHpccConfig(kData + "config_fat_websearch_2ms_hpcc.txt");
    const HpccConfig dc = ReadHpccConfig(kData + "config_fat_websearch_2ms_dcqcn.txt");
    // HPCC and DCTCP keep their own windows; HAS_WIN 0 means none.
    EXPECT_FALSE(HpccUsesPeerWindow(hp, "hpcc"));
    EXPECT_FALSE(HpccUsesPeerWindow(hp, "dctcp"));
    EXPECT_FALSE(HpccUsesPeerWindow(dc, "dcqcn-hpccns3"));
    EXPECT_TRUE(HpccUsesPeerWindow(hp, "dcqcn-hpccns3"));
    EXPECT_TRUE(HpccUsesPeerWindow(hp, "timely"));
    EXPECT_TRUE(HpccUsesPeerWindow(hp, "none"));

    ApplyHpccCcParameters(hp, MapHpccCcMode(3, HpccFidelity::Peer));
    EXPECT_EQ(DefaultOf("ns3::RdmaNic", "CongestionControl"), "ns3::CcHpcc");
    ApplyHpccCcParameters(dc, MapHpccCcMode(1, HpccFidelity::Peer));
    EXPECT_EQ(DefaultOf("ns3::RdmaNic", "CongestionControl"), "ns3::CcDcqcnHpccNs3");
    // The same DCQCN with the HPCC file's window keys (HAS_WIN 1, VAR_WIN 1).
    const std::string path = WriteFile(
        "hpcc-dcqcn-vwin.txt",
        "CC_MODE 1\nRP_TIMER 300\nEWMA_GAIN 0.00390625\nRATE_AI 20Mb/s\nRATE_HAI 200Mb/s\n"
        "HAS_WIN 1\nVAR_WIN 1\n");
    ApplyHpccCcParameters(ReadHpccConfig(path), MapHpccCcMode(1, HpccFidelity::Peer));
    EXPECT_EQ(DefaultOf("ns3::RdmaNic", "CongestionControl"), "ns3::CcPeerWindow");
    EXPECT_EQ(DefaultOf("ns3::CcPeerWindow", "Scheme"), "dcqcn-hpccns3");
    EXPECT_EQ(DefaultOf("ns3::CcPeerWindow", "VariableWindow"), "true");
}
