/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Scheme registry, parameter validation, peer presets, and that every scheme acts.
#include "cc-fake-qp.h"

#include "ns3/boolean.h"
#include "ns3/cc-presets.h"
#include "ns3/cc-registry.h"
#include "ns3/core-module.h"
#include "ns3/data-rate.h"
#include "ns3/input-error.h"
#include "ns3/pint-telemetry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

using namespace ns3;

namespace
{

/** \return the message of the InputError f throws, or "" if it throws none */
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

class CcRegistryTest : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        Config::Reset();
        Simulator::Destroy();
    }
};

TEST_F(CcRegistryTest, NamesMapToTypeIds)
{
    const std::vector<std::string> expected = {"none",
                                               "dcqcn",
                                               "dcqcn-hpccns3",
                                               "dcqcn-window",
                                               "hpcc",
                                               "hpcc-pint",
                                               "timely",
                                               "dctcp",
                                               "swift",
                                               "nscc"};
    EXPECT_EQ(CcSchemeNames(), expected);
    EXPECT_EQ(CcTypeIdName("hpcc"), "ns3::CcHpcc");
    EXPECT_EQ(CcTypeIdName("hpcc-pint"), "ns3::CcHpccPint");
    EXPECT_EQ(CcTypeIdName("dcqcn-hpccns3"), "ns3::CcDcqcnHpccNs3");
    for (const auto& name : CcSchemeNames())
    {
        Ptr<RdmaCongestionOps> cc = CreateCongestionOps(name);
        ASSERT_NE(cc, nullptr);
        EXPECT_EQ(cc->GetName(), name);
        EXPECT_EQ(cc->GetInstanceTypeId().GetName(), CcTypeIdName(name));
    }
}

TEST_F(CcRegistryTest, UnknownSchemeIsOneClearError)
{
    EXPECT_EQ(ErrorOf([] { CreateCongestionOps("cubic"); }),
              "unknown congestion control 'cubic' (known: none, dcqcn, dcqcn-hpccns3, "
              "dcqcn-window, hpcc, hpcc-pint, timely, dctcp, swift, nscc)");
    EXPECT_NE(ErrorOf([] { CcTypeIdName(""); }), "");
}

TEST_F(CcRegistryTest, ParameterRangesAreChecked)
{
    EXPECT_EQ(ErrorOf([] { CheckCcParameter("hpcc", "TargetUtilization", "1"); }), "");
    EXPECT_EQ(ErrorOf([] { CheckCcParameter("hpcc", "TargetUtilization", "1.5"); }),
              "congestion control 'hpcc': TargetUtilization = '1.5' is invalid; it must be a "
              "number in (0, 1]");
    EXPECT_NE(ErrorOf([] { CheckCcParameter("hpcc", "TargetUtilization", "0"); }), "");
    EXPECT_NE(ErrorOf([] { CheckCcParameter("hpcc", "TargetUtilization", "-0.5"); }), "");
    EXPECT_NE(ErrorOf([] { CheckCcParameter("hpcc", "TargetUtilization", "high"); }), "");
    EXPECT_EQ(ErrorOf([] { CheckCcParameter("hpcc", "MaxStage", "1.5"); }),
              "congestion control 'hpcc': MaxStage = '1.5' is invalid; it must be an integer "
              "in [0, 1000]");
    EXPECT_EQ(ErrorOf([] { CheckCcParameter("dcqcn", "AlphaInterval", "55us"); }), "");
    EXPECT_EQ(ErrorOf([] { CheckCcParameter("dcqcn", "AlphaInterval", "soon"); }),
              "congestion control 'dcqcn': AlphaInterval = 'soon' is invalid; it must be a "
              "time with a unit (e.g. 55us) of at least 1ns");
    EXPECT_NE(ErrorOf([] { CheckCcParameter("dcqcn", "AlphaInterval", "0us"); }), "");
    EXPECT_EQ(ErrorOf([] { CheckCcParameter("dcqcn", "RateAi", "fast"); }),
              "congestion control 'dcqcn': RateAi = 'fast' is invalid; it must be a rate with "
              "a unit (e.g. 40Mb/s)");
    // Rates and times follow the unit grammar: no bare numbers, b is a bit and B a byte.
    EXPECT_EQ(ErrorOf([] { CheckCcParameter("dcqcn", "RateAi", "40"); }),
              "congestion control 'dcqcn': RateAi = '40' is invalid; it must be a rate with "
              "a unit (e.g. 40Mb/s)");
    EXPECT_NE(ErrorOf([] { CheckCcParameter("dcqcn", "RateAi", "40mbps"); }), "");
    EXPECT_NE(ErrorOf([] { CheckCcParameter("dcqcn", "AlphaInterval", "55"); }), "");
    EXPECT_EQ(ErrorOf([] { CheckCcParameter("hpcc", "FastReact", "maybe"); }),
              "congestion control 'hpcc': FastReact = 'maybe' is invalid; it must be true or "
              "false");
    const std::string unknown = ErrorOf([] { CheckCcParameter("hpcc", "Eta", "0.9"); });
    EXPECT_EQ(unknown.rfind("congestion control 'hpcc' has no parameter 'Eta' (known: ", 0), 0U);
    EXPECT_NE(unknown.find("TargetUtilization"), std::string::npos);
    EXPECT_NE(ErrorOf([] { CheckCcParameter("reno", "Gain", "1"); }), "");
}

TEST_F(CcRegistryTest, SetParameterChangesTheDefault)
{
    SetCcParameter("hpcc", "TargetUtilization", "0.8");
    DoubleValue eta;
    CreateCongestionOps("hpcc")->GetAttribute("TargetUtilization", eta);
    EXPECT_DOUBLE_EQ(eta.Get(), 0.8);
    EXPECT_NE(ErrorOf([] { SetCcParameter("hpcc", "TargetUtilization", "2"); }), "");
    CreateCongestionOps("hpcc")->GetAttribute("TargetUtilization", eta);
    EXPECT_DOUBLE_EQ(eta.Get(), 0.8);
}

/** Feed a scheme every congestion signal there is, spread over 1 ms. */
void
Congest(Ptr<RdmaCongestionOps> cc, FakeQueuePair& qp)
{
    static IntHop hops[1];
    for (int i = 0; i < 50; ++i)
    {
        Simulator::Schedule(MicroSeconds(20 * i),
                            [cc, &qp, i]
                            {
                                // A hop sending at line rate with a growing queue.
                                hops[0].timestamp = Simulator::Now();
                                hops[0].txBytes = 250000ULL * i;
                                hops[0].qlenBytes = 100000ULL * (i + 1);
                                hops[0].rateBps = qp.lineRate;
                                AckSample ack = qp.Deliver(20000, MicroSeconds(100 + 20 * i), true);
                                ack.nHops = 1;
                                ack.hops = hops;
                                // The same hop as HPCC-PINT's code: u = 1 + queue / BDP.
                                ack.hasPint = true;
                                ack.pintPower = PintCode(1.05).Encode(1.0 + 0.1 * (i + 1), 0.5);
                                qp.sndNxt += 20000;
                                cc->OnCnp();
                                cc->OnAck(ack);
                            });
    }
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
}

void
CountCut(uint32_t* cuts, uint64_t oldValue, uint64_t newValue)
{
    *cuts += newValue < oldValue;
}

TEST_F(CcRegistryTest, EverySchemeActsOnCongestion)
{
    for (const auto& name : CcSchemeNames())
    {
        FakeQueuePair qp;
        Ptr<RdmaCongestionOps> cc = CreateCongestionOps(name);
        uint32_t cuts = 0;
        cc->TraceConnectWithoutContext("Rate", MakeBoundCallback(&CountCut, &cuts));
        cc->TraceConnectWithoutContext("Window", MakeBoundCallback(&CountCut, &cuts));
        cc->Init(&qp);
        const uint64_t window = qp.window;
        Congest(cc, qp);
        if (name == "none")
        {
            EXPECT_EQ(qp.rate, qp.lineRate);
            EXPECT_EQ(qp.window, 0U);
            EXPECT_EQ(cuts, 0U);
        }
        else
        {
            const bool slower = qp.rate < qp.lineRate;
            const bool smaller = window != 0 && qp.window < window;
            EXPECT_TRUE(slower || smaller) << name << " ignored congestion";
            EXPECT_GT(cuts, 0U) << name << " traced none of its cuts";
        }
        cc->Stop();
        Simulator::Destroy();
    }
}

/** KEY value lines of a peer config file. */
std::map<std::string, std::string>
ReadPeerConfig(const std::string& path)
{
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << path;
    std::map<std::string, std::string> keys;
    std::string line;
    while (std::getline(in, line))
    {
        std::istringstream words(line);
        std::string key;
        if (words >> key)
        {
            std::string rest;
            std::getline(words, rest);
            keys[key] = rest.substr(rest.find_first_not_of(' ') == std::string::npos
                                        ? rest.size()
                                        : rest.find_first_not_of(' '));
        }
    }
    return keys;
}

template <typename V, typename A>
A
Attr(const std::string& scheme, const std::string& name)
{
    V value;
    CreateCongestionOps(scheme)->GetAttribute(name, value);
    return value.Get();
}

uint64_t
RateAttr(const std::string& scheme, const std::string& name)
{
    return Attr<DataRateValue, DataRate>(scheme, name).GetBitRate();
}

Time
TimeAttr(const std::string& scheme, const std::string& name)
{
    return Attr<TimeValue, Time>(scheme, name);
}

double
DoubleAttr(const std::string& scheme, const std::string& name)
{
    return Attr<DoubleValue, double>(scheme, name);
}

uint64_t
UintAttr(const std::string& scheme, const std::string& name)
{
    return Attr<UintegerValue, uint64_t>(scheme, name);
}

/** The map of a config's "N rate value rate value ..." key. */
std::map<uint64_t, double>
PeerMap(const std::string& text)
{
    std::istringstream in(text);
    int n = 0;
    in >> n;
    std::map<uint64_t, double> out;
    for (int i = 0; i < n; ++i)
    {
        double rate = 0;
        double value = 0;
        in >> rate >> value;
        out[static_cast<uint64_t>(rate)] = value;
    }
    return out;
}

// A parameter is read with the unit grammar and handed to ns-3 exactly: 5MBps is 5
// megabytes per second, as ns-3's DataRate reads it, and Tbps (which it lacks) works.
TEST_F(CcRegistryTest, RatesAreReadWithTheUnitGrammar)
{
    SetCcParameter("dcqcn", "RateAi", "5MBps");
    EXPECT_EQ(RateAttr("dcqcn", "RateAi"), 40000000U);
    SetCcParameter("dcqcn", "RateAi", "5Mbps");
    EXPECT_EQ(RateAttr("dcqcn", "RateAi"), 5000000U);
    SetCcParameter("dcqcn", "RateAi", "0.001Tbps");
    EXPECT_EQ(RateAttr("dcqcn", "RateAi"), 1000000000U);
}

TEST_F(CcRegistryTest, HpccNs3PresetMatchesTheConfigsItsRunPyWrites)
{
    // The configs run.py wrote for the 100 Gb/s fat tree (shared/data/hpcc).
    const std::string dir = std::string(MLFABRIC_SHARED_DIR) + "/data/hpcc/";
    auto dcqcn = ReadPeerConfig(dir + "config_fat_websearch_2ms_dcqcn.txt");
    auto hp = ReadPeerConfig(dir + "config_fat_websearch_2ms_hpcc.txt");
    ApplyCcPreset("hpcc-ns3", 100000000000ULL);

    const std::string d = "dcqcn-hpccns3";
    EXPECT_EQ(TimeAttr(d, "AlphaInterval"),
              MicroSeconds(std::stoi(dcqcn["ALPHA_RESUME_INTERVAL"])));
    EXPECT_EQ(TimeAttr(d, "DecreaseInterval"),
              MicroSeconds(std::stoi(dcqcn["RATE_DECREASE_INTERVAL"])));
    EXPECT_EQ(TimeAttr(d, "IncreaseTimer"), MicroSeconds(std::stoi(dcqcn["RP_TIMER"])));
    EXPECT_DOUBLE_EQ(DoubleAttr(d, "Gain"), std::stod(dcqcn["EWMA_GAIN"]));
    EXPECT_EQ(UintAttr(d, "FastRecoverySteps"), std::stoul(dcqcn["FAST_RECOVERY_TIMES"]));
    EXPECT_EQ(RateAttr(d, "RateAi"), DataRate(dcqcn["RATE_AI"]).GetBitRate());
    EXPECT_EQ(RateAttr(d, "RateHai"), DataRate(dcqcn["RATE_HAI"]).GetBitRate());
    EXPECT_EQ(RateAttr(d, "MinRate"), DataRate(dcqcn["MIN_RATE"]).GetBitRate());
    BooleanValue clamp;
    CreateCongestionOps(d)->GetAttribute("ClampTargetRate", clamp);
    EXPECT_EQ(clamp.Get(), dcqcn["CLAMP_TARGET_RATE"] == "1");

    EXPECT_DOUBLE_EQ(DoubleAttr("hpcc", "TargetUtilization"), std::stod(hp["U_TARGET"]));
    EXPECT_EQ(UintAttr("hpcc", "MaxStage"), std::stoul(hp["MI_THRESH"]));
    EXPECT_EQ(RateAttr("hpcc", "AiRate"), DataRate(hp["RATE_AI"]).GetBitRate());
    BooleanValue fast;
    CreateCongestionOps("hpcc")->GetAttribute("FastReact", fast);
    EXPECT_EQ(fast.Get(), hp["FAST_REACT"] == "1");
    EXPECT_EQ(RateAttr("hpcc", "MinRate"), DataRate(hp["MIN_RATE"]).GetBitRate());

    // ECN: both configs carry the same maps (KB, x 1000 in the peer).
    const EcnThresholdMap ecn = CcPresetEcnMap("hpcc-ns3", "hpcc", 100000000000ULL);
    const auto kmin = PeerMap(hp["KMIN_MAP"]);
    const auto kmax = PeerMap(hp["KMAX_MAP"]);
    const auto pmax = PeerMap(hp["PMAX_MAP"]);
    ASSERT_EQ(kmin.size(), 2U);
    EXPECT_EQ(ecn.GetN(), kmin.size());
    for (const auto& [rate, kb] : kmin)
    {
        const EcnMapEntry e = ecn.Lookup(rate);
        EXPECT_EQ(e.kminBytes, static_cast<uint64_t>(kb * 1000)) << rate;
        EXPECT_EQ(e.kmaxBytes, static_cast<uint64_t>(kmax.at(rate) * 1000)) << rate;
        EXPECT_DOUBLE_EQ(e.pmax, pmax.at(rate)) << rate;
    }
    EXPECT_EQ(CcPresetScheme("hpcc-ns3"), "hpcc");
}

TEST_F(CcRegistryTest, HpccNs3PresetScalesWithTheHostRate)
{
    ApplyCcPreset("hpcc-ns3", 25000000000ULL);
    EXPECT_EQ(RateAttr("dcqcn-hpccns3", "RateAi"), 5000000U);        // 5 x 25/25 Mb/s
    EXPECT_EQ(RateAttr("dcqcn-hpccns3", "RateHai"), 50000000U);      // 50 x 25/25 Mb/s
    EXPECT_EQ(RateAttr("hpcc", "AiRate"), 10000000U);                // 10 x 25/25 Mb/s
    EXPECT_EQ(RateAttr("timely", "AiRate"), 25000000U);              // 10 x 25/10 Mb/s
    EXPECT_EQ(RateAttr("timely", "HaiRate"), 125000000U);            // 50 x 25/10 Mb/s
    EXPECT_EQ(TimeAttr("dcqcn", "IncreaseTimer"), MicroSeconds(55)); // dcqcn_paper
    // dcqcn_paper's 50 us slots in the paper's model: K = N + one slot, above N.
    EXPECT_EQ(TimeAttr("dcqcn", "AlphaInterval"), MicroSeconds(100));
    EXPECT_DOUBLE_EQ(DoubleAttr("dcqcn", "Gain"), 1.0 / 256);
    EXPECT_EQ(CcPresetCnpInterval("hpcc-ns3"), MicroSeconds(50));
    EXPECT_DOUBLE_EQ(DoubleAttr("dctcp", "Gain"), 1.0 / 16);
    EXPECT_EQ(RateAttr("dctcp", "AiRate"), 615000000U);
    // DCTCP marks in steps: K = 30 KB per 10 Gb/s.
    const EcnMapEntry step = CcPresetEcnMap("hpcc-ns3", "dctcp", 100000000000ULL).Lookup(100e9);
    EXPECT_EQ(step.kminBytes, 300000U);
    EXPECT_EQ(step.kmaxBytes, 300000U);
    EXPECT_DOUBLE_EQ(step.pmax, 1.0);
}

TEST_F(CcRegistryTest, AstraSimPreset)
{
    ApplyCcPreset("astra-sim-ns3");
    for (const std::string scheme : {"dcqcn", "dcqcn-hpccns3"})
    {
        EXPECT_EQ(TimeAttr(scheme, "IncreaseTimer"), MicroSeconds(900)) << scheme;
        EXPECT_EQ(RateAttr(scheme, "RateAi"), 50000000U) << scheme;
        EXPECT_EQ(RateAttr(scheme, "RateHai"), 100000000U) << scheme;
        EXPECT_EQ(UintAttr(scheme, "FastRecoverySteps"), 1U) << scheme;
    }
    // The slotted flavour keeps the peer's 1 us slots; the paper's gets N = 4 us (the
    // decrease slot), K = 5 us and the gain of four slots per CNP.
    EXPECT_EQ(TimeAttr("dcqcn-hpccns3", "AlphaInterval"), MicroSeconds(1));
    EXPECT_EQ(TimeAttr("dcqcn", "AlphaInterval"), MicroSeconds(5));
    EXPECT_EQ(CcPresetCnpInterval("astra-sim-ns3"), MicroSeconds(4));
    EXPECT_DOUBLE_EQ(DoubleAttr("dcqcn", "Gain"), 1 - std::pow(255.0 / 256, 4));
    EXPECT_EQ(UintAttr("hpcc", "MaxStage"), 0U);
    EXPECT_DOUBLE_EQ(DoubleAttr("dctcp", "Gain"), 1.0 / 256);
    EXPECT_EQ(RateAttr("timely", "MinRate"), 100000000U);
    EXPECT_EQ(CcPresetScheme("astra-sim-ns3"), "none");
    const EcnThresholdMap ecn = CcPresetEcnMap("astra-sim-ns3", "dcqcn");
    EXPECT_EQ(ecn.Lookup(200e9).kminBytes, 600000U);
    EXPECT_EQ(ecn.Lookup(200e9).kmaxBytes, 2400000U);
    EXPECT_EQ(ecn.Lookup(2400e9).kmaxBytes, 3200000U);
}

TEST_F(CcRegistryTest, UnknownPresetIsOneClearError)
{
    EXPECT_EQ(ErrorOf([] { ApplyCcPreset("simai"); }),
              "unknown congestion-control preset 'simai' (known: hpcc-ns3, astra-sim-ns3)");
    EXPECT_NE(ErrorOf([] { CcPresetScheme("simai"); }), "");
    EXPECT_NE(ErrorOf([] { CcPresetEcnMap("hpcc-ns3", "cubic"); }), "");
}

} // namespace
