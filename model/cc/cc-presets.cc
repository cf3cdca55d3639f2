/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cc-presets.h"

#include "ns3/cc-registry.h"
#include "ns3/dcqcn-alpha-mapping.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

#include <cstdio>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CcPresets");

namespace
{

const char* const kHpccNs3 = "hpcc-ns3";
const char* const kAstraSimNs3 = "astra-sim-ns3";

/** \return a rate as attribute text, exact to the bit/s */
std::string
Bps(uint64_t bps)
{
    return std::to_string(bps) + "bps";
}

void
CheckPreset(const std::string& preset)
{
    if (preset != kHpccNs3 && preset != kAstraSimNs3)
    {
        throw InputError("unknown congestion-control preset '" + preset + "' (known: " + kHpccNs3 +
                         ", " + kAstraSimNs3 + ")");
    }
}

/** \return a time as exact attribute text */
std::string
Ps(Time t)
{
    return std::to_string(t.GetPicoSeconds()) + "ps";
}

/** \return a real number as attribute text, to the last bit */
std::string
Real(double v)
{
    char text[32];
    std::snprintf(text, sizeof(text), "%.17g", v);
    return text;
}

/**
 * Paper DCQCN with the alpha of the peer's slotted DCQCN (DcqcnPaperEquivalentOf);
 * the receivers' CNP interval is CcPresetCnpInterval.
 */
void
SetPaperDcqcnAlpha(Time alphaSlot, Time decreaseSlot, double gain)
{
    const DcqcnPaperEquivalent e = DcqcnPaperEquivalentOf(alphaSlot, decreaseSlot, gain);
    SetCcParameter("dcqcn", "Gain", Real(e.gain));
    SetCcParameter("dcqcn", "AlphaInterval", Ps(e.alphaInterval));
}

/** run.py's templates; its rates scale with the host rate (bw, Gb/s). */
void
ApplyHpccNs3(uint64_t hostRateBps)
{
    const std::string gain = "0.00390625";
    const std::string minRate = "1000Mb/s";
    // dcqcn: ai = 5 bw/25 Mb/s, hai = 50 bw/25 Mb/s.
    const std::string dcqcnAi = Bps(hostRateBps / 5000);
    const std::string dcqcnHai = Bps(hostRateBps / 500);
    SetCcParameter("dcqcn-hpccns3", "Gain", gain);
    SetCcParameter("dcqcn-hpccns3", "AlphaInterval", "1us");
    SetCcParameter("dcqcn-hpccns3", "DecreaseInterval", "4us");
    SetCcParameter("dcqcn-hpccns3", "IncreaseTimer", "300us");
    SetCcParameter("dcqcn-hpccns3", "FastRecoverySteps", "1");
    SetCcParameter("dcqcn-hpccns3", "RateAi", dcqcnAi);
    SetCcParameter("dcqcn-hpccns3", "RateHai", dcqcnHai);
    SetCcParameter("dcqcn-hpccns3", "MinRate", minRate);
    SetCcParameter("dcqcn-hpccns3", "ClampTargetRate", "false");
    SetCcParameter("dcqcn-hpccns3", "RateOnFirstCnp", "1");
    // dcqcn_paper: alpha and decrease slots 50 us, timer 55 us.
    SetPaperDcqcnAlpha(MicroSeconds(50), MicroSeconds(50), 1.0 / 256);
    SetCcParameter("dcqcn", "IncreaseTimer", "55us");
    SetCcParameter("dcqcn", "FastRecoverySteps", "1");
    SetCcParameter("dcqcn", "RateAi", dcqcnAi);
    SetCcParameter("dcqcn", "RateHai", dcqcnHai);
    SetCcParameter("dcqcn", "MinRate", minRate);
    // hp: ai = 10 bw/25 Mb/s, MI_THRESH 0, FAST_REACT 1.
    SetCcParameter("hpcc", "TargetUtilization", "0.95");
    SetCcParameter("hpcc", "MaxStage", "0");
    SetCcParameter("hpcc", "AiRate", Bps(hostRateBps / 2500));
    SetCcParameter("hpcc", "FastReact", "true");
    SetCcParameter("hpcc", "MinRate", minRate);
    // timely: ai = 10 bw/10 Mb/s, hai = 50 bw/10 Mb/s; constants hard-coded in RdmaHw.
    SetCcParameter("timely", "AiRate", Bps(hostRateBps / 1000));
    SetCcParameter("timely", "HaiRate", Bps(hostRateBps / 200));
    SetCcParameter("timely", "HaiThreshold", "5");
    SetCcParameter("timely", "Alpha", "0.875");
    SetCcParameter("timely", "Beta", "0.8");
    SetCcParameter("timely", "TLow", "50us");
    SetCcParameter("timely", "THigh", "500us");
    SetCcParameter("timely", "MinRtt", "20us");
    SetCcParameter("timely", "CountLowRttIncreases", "true");
    SetCcParameter("timely", "MinRate", minRate);
    SetCcParameter("timely", "SegmentBytes", "0"); // RdmaHw updates once per round trip
    // dctcp: g = 1/16, ai 615 Mb/s (one 1 KB MTU per 13 us RTT).
    SetCcParameter("dctcp", "Gain", "0.0625");
    SetCcParameter("dctcp", "AiRate", "615Mb/s");
    SetCcParameter("dctcp", "MinRate", minRate);
}

/** config.txt of astra-network-ns3 (branch astra-sim). */
void
ApplyAstraSimNs3()
{
    const std::string gain = "0.00390625";
    const std::string minRate = "100Mb/s";
    SetCcParameter("dcqcn-hpccns3", "Gain", gain);
    SetCcParameter("dcqcn-hpccns3", "AlphaInterval", "1us");
    SetPaperDcqcnAlpha(MicroSeconds(1), MicroSeconds(4), 1.0 / 256);
    for (const std::string dcqcn : {"dcqcn", "dcqcn-hpccns3"})
    {
        SetCcParameter(dcqcn, "IncreaseTimer", "900us");
        SetCcParameter(dcqcn, "FastRecoverySteps", "1");
        SetCcParameter(dcqcn, "RateAi", "50Mb/s");
        SetCcParameter(dcqcn, "RateHai", "100Mb/s");
        SetCcParameter(dcqcn, "MinRate", minRate);
    }
    SetCcParameter("dcqcn-hpccns3", "DecreaseInterval", "4us");
    SetCcParameter("dcqcn-hpccns3", "ClampTargetRate", "false");
    SetCcParameter("dcqcn-hpccns3", "RateOnFirstCnp", "1");
    SetCcParameter("hpcc", "TargetUtilization", "0.95");
    SetCcParameter("hpcc", "MaxStage", "0");
    SetCcParameter("hpcc", "AiRate", "50Mb/s");
    SetCcParameter("hpcc", "FastReact", "true");
    SetCcParameter("hpcc", "MinRate", minRate);
    SetCcParameter("timely", "AiRate", "50Mb/s");
    SetCcParameter("timely", "HaiRate", "100Mb/s");
    SetCcParameter("timely", "HaiThreshold", "5");
    SetCcParameter("timely", "Alpha", "0.875");
    SetCcParameter("timely", "Beta", "0.8");
    SetCcParameter("timely", "TLow", "50us");
    SetCcParameter("timely", "THigh", "500us");
    SetCcParameter("timely", "MinRtt", "20us");
    SetCcParameter("timely", "CountLowRttIncreases", "true");
    SetCcParameter("timely", "MinRate", minRate);
    SetCcParameter("timely", "SegmentBytes", "0"); // RdmaHw updates once per round trip
    // The peer's DCTCP shares EWMA_GAIN with DCQCN.
    SetCcParameter("dctcp", "Gain", gain);
    SetCcParameter("dctcp", "AiRate", "1000Mb/s");
    SetCcParameter("dctcp", "MinRate", minRate);
}

} // namespace

std::vector<std::string>
CcPresetNames()
{
    return {kHpccNs3, kAstraSimNs3};
}

void
ApplyCcPreset(const std::string& preset, uint64_t hostRateBps)
{
    CheckPreset(preset);
    if (hostRateBps == 0)
    {
        throw InputError("congestion-control preset '" + preset + "': host rate must be > 0");
    }
    NS_LOG_INFO("preset " << preset << " for host rate " << hostRateBps << " bit/s");
    if (preset == kHpccNs3)
    {
        ApplyHpccNs3(hostRateBps);
    }
    else
    {
        ApplyAstraSimNs3();
    }
}

Time
CcPresetCnpInterval(const std::string& preset)
{
    CheckPreset(preset);
    // The decrease slot of the peer's DCQCN: dcqcn_paper's 50 us, config.txt's 4 us.
    return preset == kHpccNs3 ? MicroSeconds(50) : MicroSeconds(4);
}

std::string
CcPresetScheme(const std::string& preset)
{
    CheckPreset(preset);
    return preset == kHpccNs3 ? "hpcc" : "none";
}

EcnThresholdMap
CcPresetEcnMap(const std::string& preset, const std::string& scheme, uint64_t hostRateBps)
{
    CheckPreset(preset);
    CcTypeIdName(scheme);
    if (preset == kAstraSimNs3)
    {
        return EcnThresholdMap::Parse("25Gbps:100KB/400KB/0.2,40Gbps:200KB/800KB/0.2,"
                                      "100Gbps:400KB/1600KB/0.2,200Gbps:600KB/2400KB/0.2,"
                                      "400Gbps:800KB/3200KB/0.2,2400Gbps:800KB/3200KB/0.2");
    }
    if (hostRateBps == 0)
    {
        throw InputError("congestion-control preset '" + preset + "': host rate must be > 0");
    }
    // run.py writes the host rate and four times it (the fabric links of its fat tree).
    EcnThresholdMap map;
    for (uint64_t rate : {hostRateBps, 4 * hostRateBps})
    {
        if (scheme == "dctcp")
        {
            // K = 30 KB per 10 Gb/s, step marking.
            const uint64_t k = rate * 3 / 1000000;
            map.Set(rate, {k, k, 1.0});
        }
        else
        {
            // Kmin/Kmax = 100/400 KB per 25 Gb/s.
            map.Set(rate, {rate * 4 / 1000000, rate * 16 / 1000000, 0.2});
        }
    }
    return map;
}

} // namespace ns3
