/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-config.h"

#include "ns3/input-error.h"
#include "ns3/input-file.h"
#include "ns3/log.h"
#include "ns3/units.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccConfig");

namespace
{

/** The values that follow a key on its line, and where the line is. */
class KeyLine
{
  public:
    KeyLine(std::string where, std::string key, std::vector<std::string> values)
        : m_where(std::move(where))
        , m_key(std::move(key))
        , m_values(std::move(values))
    {
    }

    /** Throw InputError("file:line: KEY: what"). */
    [[noreturn]] void
    Fail(const std::string& what) const
    {
        throw InputError(m_where + ": " + m_key + ": " + what);
    }

    /** Require exactly \p n values. */
    void
    Expect(size_t n) const
    {
        if (m_values.size() != n)
        {
            Fail("expects " + std::to_string(n) + (n == 1 ? " value" : " values") + ", got " +
                 std::to_string(m_values.size()));
        }
    }

    /** \return the only value */
    const std::string&
    Text() const
    {
        Expect(1);
        return m_values[0];
    }

    /** \return value \p i as a whole number in [min, max] */
    uint64_t
    Uint(size_t i, uint64_t min, uint64_t max) const
    {
        const std::string& text = m_values.at(i);
        errno = 0;
        char* end = nullptr;
        const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
        if (text.empty() || text[0] == '-' || *end != '\0' || errno == ERANGE)
        {
            Fail("not a whole number (got '" + text + "')");
        }
        if (v < min || v > max)
        {
            Fail("must be in [" + std::to_string(min) + ", " + std::to_string(max) + "] (got " +
                 text + ")");
        }
        return v;
    }

    /** \return the only value as a whole number in [min, max] */
    uint64_t
    Uint(uint64_t min, uint64_t max) const
    {
        Expect(1);
        return Uint(0, min, max);
    }

    /** \return the only value, 0 or 1 */
    bool
    Flag() const
    {
        return Uint(0, 1) == 1;
    }

    /** \return value \p i as a real number in [min, max] */
    double
    Real(size_t i, double min, double max) const
    {
        const std::string& text = m_values.at(i);
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(v))
        {
            Fail("not a number (got '" + text + "')");
        }
        if (v < min || v > max)
        {
            std::ostringstream range;
            range << "must be in [" << min << ", " << max << "] (got " << text << ")";
            Fail(range.str());
        }
        return v;
    }

    /** \return the only value as a real number in [min, max] */
    double
    Real(double min, double max) const
    {
        Expect(1);
        return Real(0, min, max);
    }

    /** \return the only value as a rate in bit/s (ns-3 strings such as 50Mb/s) */
    uint64_t
    Rate() const
    {
        return Rate(Text());
    }

    /**
     * \return value \p i as a map's link rate: the simulator reads it into a uint64_t, so
     * only a whole number of bit/s (no unit, no exponent) means what it says
     */
    uint64_t
    MapRate(size_t i) const
    {
        const std::string& text = m_values.at(i);
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
        {
            Fail("link rate '" + text +
                 "' must be a whole number of bit/s without a unit, as the HPCC simulator "
                 "reads it (e.g. 100000000000 for 100 Gb/s)");
        }
        return Uint(i, 1, std::numeric_limits<uint64_t>::max());
    }

    /** \return the number of values */
    size_t
    Count() const
    {
        return m_values.size();
    }

  private:
    /** \return \p text as a rate in bit/s, read as the simulator's DataRate reads it */
    uint64_t
    Rate(const std::string& text) const
    {
        return ParseNs3DataRate(text, m_where + ": " + m_key);
    }

    std::string m_where;
    std::string m_key;
    std::vector<std::string> m_values;
};

/** Largest time value, in microseconds, the models accept (one hour). */
constexpr double kMaxMicroseconds = 3.6e9;

/** Which member of an HpccEcnEntry a map key fills. */
enum class EcnField
{
    Kmin,
    Kmax,
    Pmax,
};

/** Read a "N rate value rate value ..." map. */
void
ReadEcnMap(HpccConfig& c, const KeyLine& v, EcnField field)
{
    if (v.Count() == 0)
    {
        v.Fail("expects a count followed by rate/value pairs");
    }
    const uint64_t n = v.Uint(0, 1, 64);
    if (v.Count() != 1 + 2 * n)
    {
        v.Fail("announces " + std::to_string(n) + " rates, so expects " +
               std::to_string(1 + 2 * n) + " values, got " + std::to_string(v.Count()));
    }
    for (uint64_t i = 0; i < n; ++i)
    {
        const uint64_t rate = v.MapRate(1 + 2 * i);
        HpccEcnEntry& e = c.ecn[rate];
        switch (field)
        {
        case EcnField::Kmin:
            e.kminKb = v.Uint(2 + 2 * i, 0, 1u << 30);
            e.hasKmin = true;
            break;
        case EcnField::Kmax:
            e.kmaxKb = v.Uint(2 + 2 * i, 0, 1u << 30);
            e.hasKmax = true;
            break;
        case EcnField::Pmax:
            e.pmax = v.Real(2 + 2 * i, 0, 1);
            e.hasPmax = true;
            break;
        }
    }
}

using Handler = std::function<void(HpccConfig&, const KeyLine&)>;

/** Every key of the simulator, in the order of its documentation, with its reader. */
const std::vector<std::pair<std::string, Handler>>&
Handlers()
{
    static const std::vector<std::pair<std::string, Handler>> handlers = {
        {"ENABLE_QCN",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.enableQcn = v.Flag();
         }},
        {"USE_DYNAMIC_PFC_THRESHOLD",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.useDynamicPfcThreshold = v.Flag();
         }},
        {"PACKET_PAYLOAD_SIZE",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.packetPayloadSize = static_cast<uint32_t>(v.Uint(64, 9000));
         }},
        {"TOPOLOGY_FILE",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.topologyFile = v.Text();
         }},
        {"FLOW_FILE",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.flowFile = v.Text();
         }},
        {"TRACE_FILE",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.traceFile = v.Text();
         }},
        {"TRACE_OUTPUT_FILE",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.traceOutputFile = v.Text();
         }},
        {"FCT_OUTPUT_FILE",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.fctOutputFile = v.Text();
         }},
        {"PFC_OUTPUT_FILE",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.pfcOutputFile = v.Text();
         }},
        {"SIMULATOR_STOP_TIME",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.simulatorStopTime = v.Real(1e-9, 3600);
         }},
        {"CC_MODE",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.ccMode = static_cast<uint32_t>(v.Uint(0, 0xFFFFFFFF));
         }},
        {"ALPHA_RESUME_INTERVAL",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.alphaResumeInterval = v.Real(1e-3, kMaxMicroseconds);
         }},
        {"RATE_DECREASE_INTERVAL",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.rateDecreaseInterval = v.Real(1e-3, kMaxMicroseconds);
         }},
        {"CLAMP_TARGET_RATE",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.clampTargetRate = v.Flag();
         }},
        {"RP_TIMER",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.rpTimer = v.Real(1e-3, kMaxMicroseconds);
         }},
        {"EWMA_GAIN",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.ewmaGain = v.Real(0, 1);
         }},
        {"FAST_RECOVERY_TIMES",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.fastRecoveryTimes = static_cast<uint32_t>(v.Uint(0, 1000));
         }},
        {"RATE_AI",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.rateAiBps = v.Rate();
         }},
        {"RATE_HAI",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.rateHaiBps = v.Rate();
         }},
        {"MIN_RATE",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.minRateBps = v.Rate();
         }},
        {"DCTCP_RATE_AI",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.dctcpRateAiBps = v.Rate();
         }},
        {"ERROR_RATE_PER_LINK",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.errorRatePerLink = v.Real(0, 1);
         }},
        {"L2_CHUNK_SIZE",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.l2ChunkSize = static_cast<uint32_t>(v.Uint(0, 0xFFFFFFFF));
         }},
        {"L2_ACK_INTERVAL",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.l2AckInterval = static_cast<uint32_t>(v.Uint(0, 0xFFFFFFFF));
         }},
        {"L2_BACK_TO_ZERO",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.l2BackToZero = v.Flag();
         }},
        {"HAS_WIN",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.hasWin = v.Flag();
         }},
        {"GLOBAL_T",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.globalT = v.Flag();
         }},
        {"VAR_WIN",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.varWin = v.Flag();
         }},
        {"FAST_REACT",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.fastReact = v.Flag();
         }},
        {"U_TARGET",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.uTarget = v.Real(1e-6, 1);
         }},
        {"MI_THRESH",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.miThresh = static_cast<uint32_t>(v.Uint(0, 1000));
         }},
        {"INT_MULTI",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.intMulti = static_cast<uint32_t>(v.Uint(1, 1u << 20));
         }},
        {"MULTI_RATE",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.multiRate = v.Flag();
         }},
        {"SAMPLE_FEEDBACK",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.sampleFeedback = v.Flag();
         }},
        {"PINT_LOG_BASE",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.pintLogBase = v.Real(1.000001, 2);
         }},
        {"PINT_PROB",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.pintProb = v.Real(0, 1);
         }},
        {"RATE_BOUND",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.rateBound = v.Flag();
         }},
        {"ACK_HIGH_PRIO",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.ackHighPrio = static_cast<uint32_t>(v.Uint(0, 1));
         }},
        {"LINK_DOWN",
         [](HpccConfig& c, const KeyLine& v)
         {
             v.Expect(3);
             c.linkDownTimeUs = v.Uint(0, 0, 1ULL << 40);
             c.linkDownA = static_cast<uint32_t>(v.Uint(1, 0, 0xFFFFFFFF));
             c.linkDownB = static_cast<uint32_t>(v.Uint(2, 0, 0xFFFFFFFF));
         }},
        {"ENABLE_TRACE",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.enableTrace = v.Flag();
         }},
        {"KMAX_MAP",
         [](HpccConfig& c, const KeyLine& v)
         {
             ReadEcnMap(c, v, EcnField::Kmax);
         }},
        {"KMIN_MAP",
         [](HpccConfig& c, const KeyLine& v)
         {
             ReadEcnMap(c, v, EcnField::Kmin);
         }},
        {"PMAX_MAP",
         [](HpccConfig& c, const KeyLine& v)
         {
             ReadEcnMap(c, v, EcnField::Pmax);
         }},
        {"BUFFER_SIZE",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.bufferSizeMiB = static_cast<uint32_t>(v.Uint(1, 1u << 20));
         }},
        {"QLEN_MON_FILE",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.qlenMonFile = v.Text();
         }},
        {"QLEN_MON_START",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.qlenMonStartNs = v.Uint(0, 1ULL << 62);
         }},
        {"QLEN_MON_END",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.qlenMonEndNs = v.Uint(0, 1ULL << 62);
         }},
        {"PAUSE_TIME",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.pauseTime = v.Real(0, 1e9);
         }},
        {"DATA_RATE",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.dataRate = v.Text();
         }},
        {"LINK_DELAY",
         [](HpccConfig& c, const KeyLine& v)
         {
             c.linkDelay = v.Text();
         }},
    };
    return handlers;
}

} // namespace

bool
HpccConfig::Has(const std::string& key) const
{
    return lines.count(key) > 0;
}

std::string
HpccConfig::Where(const std::string& key) const
{
    const auto it = lines.find(key);
    return it == lines.end() ? path : path + ":" + std::to_string(it->second);
}

const std::vector<std::string>&
HpccConfigKeys()
{
    static const std::vector<std::string> keys = []
    {
        std::vector<std::string> k;
        for (const auto& [key, handler] : Handlers())
        {
            k.push_back(key);
        }
        return k;
    }();
    return keys;
}

HpccConfig
ReadHpccConfig(const std::string& path)
{
    CheckInputFile(path);
    std::ifstream in(path);
    if (!in)
    {
        throw InputError(path + ": cannot open the configuration file");
    }
    std::map<std::string, const Handler*> handlers;
    for (const auto& [key, handler] : Handlers())
    {
        handlers[key] = &handler;
    }

    HpccConfig config;
    config.path = path;
    std::string text;
    uint32_t lineNo = 0;
    while (std::getline(in, text))
    {
        ++lineNo;
        std::istringstream tokens(text);
        std::string key;
        if (!(tokens >> key) || key[0] == '#')
        {
            continue;
        }
        std::vector<std::string> values;
        for (std::string value; tokens >> value;)
        {
            values.push_back(value);
        }
        const std::string where = path + ":" + std::to_string(lineNo);
        // Keys are identifiers; anything else is not a configuration file at all.
        if (key.find_first_not_of(
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") !=
            std::string::npos)
        {
            throw InputError(where + ": not a KEY value line (a key is letters, digits and _)");
        }
        const auto it = handlers.find(key);
        if (it == handlers.end())
        {
            config.warnings.push_back(where + ": unknown key " + key + ", ignored");
            continue;
        }
        if (config.Has(key))
        {
            config.warnings.push_back(where + ": " + key + " given again (first on line " +
                                      std::to_string(config.lines[key]) + "); this value wins");
        }
        (*it->second)(config, KeyLine(where, key, values));
        config.lines[key] = lineNo;
    }
    NS_LOG_INFO(path << ": " << config.lines.size() << " keys, " << config.warnings.size()
                     << " warnings");
    return config;
}

} // namespace ns3
