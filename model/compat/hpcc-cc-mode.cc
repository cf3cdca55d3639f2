/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-cc-mode.h"

#include "ns3/attribute-default.h"
#include "ns3/boolean.h"
#include "ns3/cc-peer-window.h"
#include "ns3/cc-registry.h"
#include "ns3/config.h"
#include "ns3/dcqcn-alpha-mapping.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <cmath>
#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccCcMode");

namespace
{

/** Sets one configuration key on a scheme, blaming the key for a rejected value. */
class ParameterSetter
{
  public:
    ParameterSetter(const HpccConfig& config, std::string scheme)
        : m_config(config)
        , m_scheme(std::move(scheme))
    {
    }

    /** Set \p attribute from \p key's \p value. */
    void
    Set(const std::string& key, const std::string& attribute, const std::string& value) const
    {
        try
        {
            SetCcParameter(m_scheme, attribute, value);
        }
        catch (const InputError& e)
        {
            throw InputError(m_config.Where(key) + ": " + key + ": " + e.what());
        }
    }

    /** Refuse to run when \p key is absent; \p builtIn says what the simulator would do. */
    void
    Require(const std::string& key, const std::string& builtIn) const
    {
        if (!m_config.Has(key))
        {
            throw InputError(m_config.path + ": " + key + " not given; " + m_scheme +
                             " needs it (the HPCC simulator's built-in value " + builtIn + ")");
        }
    }

  private:
    const HpccConfig& m_config;
    std::string m_scheme;
};

/** \return microseconds as exact attribute text */
std::string
Us(double us)
{
    return std::to_string(std::llround(us * 1e6)) + "ps";
}

/** \return a rate as exact attribute text */
std::string
Bps(uint64_t bps)
{
    return std::to_string(bps) + "bps";
}

/** \return a real number as attribute text, to the last bit */
std::string
Real(double v)
{
    std::ostringstream out;
    out << std::setprecision(17) << v;
    return out.str();
}

/** \return 0/1 as attribute text */
std::string
Bool(bool b)
{
    return b ? "true" : "false";
}

/** DCQCN parameters common to both flavours. */
void
SetDcqcn(const HpccConfig& c, const ParameterSetter& p)
{
    p.Require("EWMA_GAIN", "1/16 is 0 in integer arithmetic, so alpha never moves");
    p.Require("RP_TIMER", "is 0 us, an increase timer that never advances time");
    p.Require("RATE_AI", "is an empty rate string");
    p.Require("RATE_HAI", "is an empty rate string");
    p.Set("EWMA_GAIN", "Gain", Real(c.ewmaGain));
    p.Set("ALPHA_RESUME_INTERVAL", "AlphaInterval", Us(c.alphaResumeInterval));
    p.Set("RP_TIMER", "IncreaseTimer", Us(c.rpTimer));
    p.Set("FAST_RECOVERY_TIMES", "FastRecoverySteps", std::to_string(c.fastRecoveryTimes));
    p.Set("RATE_AI", "RateAi", Bps(c.rateAiBps));
    p.Set("RATE_HAI", "RateHai", Bps(c.rateHaiBps));
    p.Set("MIN_RATE", "MinRate", Bps(c.minRateBps));
}

} // namespace

HpccCcChoice
MapHpccCcMode(uint32_t ccMode, HpccFidelity fidelity)
{
    HpccCcChoice c;
    c.ccMode = ccMode;
    switch (ccMode)
    {
    case 1:
        c.scheme = fidelity == HpccFidelity::Peer ? "dcqcn-hpccns3" : "dcqcn";
        c.peerName = "DCQCN";
        break;
    case 3:
        c.scheme = "hpcc";
        c.peerName = "HPCC";
        break;
    case 7:
        c.scheme = "timely";
        c.peerName = "TIMELY";
        break;
    case 8:
        c.scheme = "dctcp";
        c.peerName = "DCTCP";
        break;
    case 10:
        c.scheme = "hpcc-pint";
        c.peerName = "HPCC-PINT";
        break;
    default:
        c.scheme = "none";
        c.exact = false;
        c.warning = "CC_MODE " + std::to_string(ccMode) +
                    " names no congestion control (1 DCQCN, 3 HPCC, 7 TIMELY, 8 DCTCP, "
                    "10 HPCC-PINT): the HPCC simulator then silently runs without one, and so "
                    "does this run (line rate, window only)";
        break;
    }
    return c;
}

bool
HpccUsesPeerWindow(const HpccConfig& config, const std::string& scheme)
{
    return config.hasWin && scheme != "hpcc" && scheme != "hpcc-pint" && scheme != "dctcp";
}

void
ApplyHpccCcParameters(const HpccConfig& c, const HpccCcChoice& choice)
{
    NS_LOG_FUNCTION(choice.scheme);
    const ParameterSetter p(c, choice.scheme);
    ResetAttributeDefault("ns3::RdmaNic::CnpInterval");
    if (choice.scheme == "dcqcn-hpccns3")
    {
        SetDcqcn(c, p);
        p.Set("RATE_DECREASE_INTERVAL", "DecreaseInterval", Us(c.rateDecreaseInterval));
        p.Set("CLAMP_TARGET_RATE", "ClampTargetRate", Bool(c.clampTargetRate));
        p.Set("CC_MODE", "RateOnFirstCnp", "1");
    }
    else if (choice.scheme == "dcqcn")
    {
        SetDcqcn(c, p);
        // The simulator's slotted alpha in the paper's model: N = the decrease slot,
        // K = N + one alpha slot, the gain of the slots in N per CNP.
        const DcqcnPaperEquivalent e =
            DcqcnPaperEquivalentOf(PicoSeconds(std::llround(c.alphaResumeInterval * 1e6)),
                                   PicoSeconds(std::llround(c.rateDecreaseInterval * 1e6)),
                                   c.ewmaGain);
        p.Set("EWMA_GAIN", "Gain", Real(e.gain));
        p.Set("ALPHA_RESUME_INTERVAL",
              "AlphaInterval",
              std::to_string(e.alphaInterval.GetPicoSeconds()) + "ps");
        Config::SetDefault("ns3::RdmaNic::CnpInterval", TimeValue(e.cnpInterval));
    }
    else if (choice.scheme == "hpcc")
    {
        p.Require("RATE_AI", "is an empty rate string");
        p.Set("U_TARGET", "TargetUtilization", Real(c.uTarget));
        p.Set("MI_THRESH", "MaxStage", std::to_string(c.miThresh));
        p.Set("RATE_AI", "AiRate", Bps(c.rateAiBps));
        p.Set("FAST_REACT", "FastReact", Bool(c.fastReact));
        p.Set("MIN_RATE", "MinRate", Bps(c.minRateBps));
    }
    else if (choice.scheme == "hpcc-pint")
    {
        // HPCC's keys; the simulator's PINT reacts on every sampled ACK (FAST_REACT
        // is not read).
        p.Require("RATE_AI", "is an empty rate string");
        p.Set("U_TARGET", "TargetUtilization", Real(c.uTarget));
        p.Set("MI_THRESH", "MaxStage", std::to_string(c.miThresh));
        p.Set("RATE_AI", "AiRate", Bps(c.rateAiBps));
        p.Set("MIN_RATE", "MinRate", Bps(c.minRateBps));
        p.Set("CC_MODE", "FastReact", "true");
        p.Set("PINT_LOG_BASE", "LogBase", Real(c.pintLogBase));
        p.Set("PINT_PROB", "SampleProbability", Real(c.pintProb));
    }
    else if (choice.scheme == "timely")
    {
        p.Require("RATE_AI", "is an empty rate string");
        p.Require("RATE_HAI", "is an empty rate string");
        p.Set("RATE_AI", "AiRate", Bps(c.rateAiBps));
        p.Set("RATE_HAI", "HaiRate", Bps(c.rateHaiBps));
        p.Set("MIN_RATE", "MinRate", Bps(c.minRateBps));
        // Constants the simulator hard-codes in its TIMELY.
        p.Set("CC_MODE", "HaiThreshold", "5");
        p.Set("CC_MODE", "Alpha", "0.875");
        p.Set("CC_MODE", "Beta", "0.8");
        p.Set("CC_MODE", "TLow", "50us");
        p.Set("CC_MODE", "THigh", "500us");
        p.Set("CC_MODE", "MinRtt", "20us");
        p.Set("CC_MODE", "CountLowRttIncreases", "true");
    }
    else if (choice.scheme == "dctcp")
    {
        p.Require("EWMA_GAIN", "1/16 is 0 in integer arithmetic, so alpha never moves");
        p.Set("EWMA_GAIN", "Gain", Real(c.ewmaGain));
        p.Set("DCTCP_RATE_AI", "AiRate", Bps(c.dctcpRateAiBps));
        p.Set("MIN_RATE", "MinRate", Bps(c.minRateBps));
        p.Set("HAS_WIN", "RateWindow", Bool(c.hasWin));
    }
    std::string typeId = CcTypeIdName(choice.scheme);
    if (HpccUsesPeerWindow(c, choice.scheme))
    {
        Config::SetDefault("ns3::CcPeerWindow::Scheme", StringValue(choice.scheme));
        Config::SetDefault("ns3::CcPeerWindow::VariableWindow", BooleanValue(c.varWin));
        typeId = "ns3::CcPeerWindow";
    }
    Config::SetDefault("ns3::RdmaNic::CongestionControl",
                       TypeIdValue(TypeId::LookupByName(typeId)));
}

} // namespace ns3
