/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "system-config.h"

#include "ns3/collective-config-json.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/units.h"

#include <functional>
#include <iostream>
#include <limits>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SystemConfig");

namespace
{

using Json = nlohmann::json;

/** Longest delay accepted, ns: in picoseconds it must fit 63 bits. */
constexpr uint64_t kMaxDelayNs = 9200000000000000;

/** Reads typed values of one key, with errors that name the file, line and key. */
class KeyReader
{
  public:
    KeyReader(const ConfigJson& doc, const std::string& key)
        : m_value(doc.Root().at(key))
        , m_where(doc.Where(key))
    {
    }

    [[noreturn]] void
    Fail(const std::string& what) const
    {
        throw InputError(m_where + ": " + what);
    }

    std::string
    String() const
    {
        if (!m_value.is_string())
        {
            Fail("expected a string, got " + ConfigJson::Describe(m_value));
        }
        return m_value.get<std::string>();
    }

    uint64_t
    Unsigned(uint64_t minimum, uint64_t maximum = std::numeric_limits<uint64_t>::max()) const
    {
        // nlohmann stores every integer literal without a sign as unsigned; comparing one
        // of 2^63 or more with 0 would wrap it to a negative number.
        if (!m_value.is_number_unsigned())
        {
            Fail("expected a non-negative integer, got " + ConfigJson::Describe(m_value));
        }
        uint64_t v = m_value.get<uint64_t>();
        if (v < minimum)
        {
            Fail("must be at least " + std::to_string(minimum) + ", got " +
                 ConfigJson::Describe(m_value));
        }
        if (v > maximum)
        {
            Fail("must be at most " + std::to_string(maximum) + ", got " +
                 ConfigJson::Describe(m_value));
        }
        return v;
    }

    double
    Number(bool strictlyPositive) const
    {
        if (!m_value.is_number())
        {
            Fail("expected a number, got " + ConfigJson::Describe(m_value));
        }
        double v = m_value.get<double>();
        if (v < 0 || (strictlyPositive && v == 0))
        {
            Fail(std::string("must be ") + (strictlyPositive ? "> 0" : ">= 0") + ", got " +
                 ConfigJson::Describe(m_value));
        }
        return v;
    }

    /**
     * \return a delay in ns: a JSON number is ASTRA-sim's nanoseconds, a string is a
     * duration with its unit (doc/units.md), e.g. "10ns"
     */
    uint64_t
    DelayNs(uint64_t maximum) const
    {
        if (!m_value.is_string())
        {
            return Unsigned(0, maximum);
        }
        const int64_t ps = ParseTime(m_value.get<std::string>(), m_where).GetPicoSeconds();
        if (ps % 1000 != 0 || static_cast<uint64_t>(ps / 1000) > maximum)
        {
            Fail("must be a whole number of nanoseconds up to " + std::to_string(maximum) +
                 "ns, got " + ConfigJson::Describe(m_value));
        }
        return static_cast<uint64_t>(ps / 1000);
    }

    /**
     * \return a bandwidth in GB/s (10^9 B/s), above 0: a JSON number is ASTRA-sim's GB/s,
     * a string is a rate with its unit (doc/units.md), e.g. "1600GBps"
     */
    double
    BandwidthGBps() const
    {
        if (!m_value.is_string())
        {
            return Number(true);
        }
        return static_cast<double>(ParseRateBps(m_value.get<std::string>(), m_where)) / 8e9;
    }

    bool
    Flag() const
    {
        if (m_value.is_boolean())
        {
            return m_value.get<bool>();
        }
        if (m_value.is_number_integer() && (m_value == 0 || m_value == 1))
        {
            return m_value == 1;
        }
        Fail("expected 0 or 1, got " + ConfigJson::Describe(m_value));
    }

    std::vector<std::string>
    Strings() const
    {
        if (!m_value.is_array())
        {
            Fail("expected a list of strings, got " + ConfigJson::Describe(m_value));
        }
        std::vector<std::string> out;
        for (const auto& item : m_value)
        {
            if (!item.is_string())
            {
                Fail("expected a list of strings, found " + ConfigJson::Describe(item));
            }
            out.push_back(item.get<std::string>());
        }
        return out;
    }

    std::vector<AlgorithmSpec>
    Implementations() const
    {
        std::vector<AlgorithmSpec> specs;
        for (const auto& name : Strings())
        {
            specs.push_back(ParseAlgorithmSpec(name, m_where));
        }
        if (specs.empty())
        {
            Fail("the list is empty; give one implementation per dimension");
        }
        return specs;
    }

    std::string
    CustomPrefix() const
    {
        auto names = Strings();
        if (names.size() != 1)
        {
            Fail("expected exactly one Chakra ET prefix, got " + std::to_string(names.size()));
        }
        return names.front();
    }

  private:
    const Json& m_value;
    std::string m_where;
};

using KeyHandler = std::function<void(const KeyReader&, SystemConfig&)>;

/** Every key ASTRA-sim 2.0 reads, and what it sets. */
const std::map<std::string, KeyHandler>&
KnownKeys()
{
    static const std::map<std::string, KeyHandler> keys = {
        {"scheduling-policy",
         [](const KeyReader& r, SystemConfig& c)
         {
             const auto v = r.String();
             if (v == "LIFO")
             {
                 c.schedulingPolicy = SchedulingPolicy::Lifo;
             }
             else if (v == "FIFO")
             {
                 c.schedulingPolicy = SchedulingPolicy::Fifo;
             }
             else if (v == "EXPLICIT")
             {
                 c.schedulingPolicy = SchedulingPolicy::Explicit;
             }
             else
             {
                 r.Fail("\"" + v + "\" is not LIFO, FIFO or EXPLICIT");
             }
         }},
        {"collective-optimization",
         [](const KeyReader& r, SystemConfig& c)
         {
             const auto v = r.String();
             if (v == "baseline")
             {
                 c.collectiveOptimization = CollectiveOptimization::Baseline;
             }
             else if (v == "localBWAware")
             {
                 c.collectiveOptimization = CollectiveOptimization::LocalBwAware;
             }
             else
             {
                 r.Fail("\"" + v + "\" is not baseline or localBWAware");
             }
         }},
        {"group-decomposition",
         [](const KeyReader& r, SystemConfig& c)
         {
             const auto v = r.String();
             if (v == "dimensions")
             {
                 c.groupDecomposition = GroupDecompositionMode::Dimensions;
             }
             else if (v == "member-ring")
             {
                 c.groupDecomposition = GroupDecompositionMode::MemberRing;
             }
             else
             {
                 r.Fail("\"" + v + "\" is not dimensions or member-ring");
             }
         }},
        {"endpoint-delay",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.endpointDelayNs = r.DelayNs(kMaxDelayNs);
         }},
        {"active-chunks-per-dimension",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.activeChunksPerDimension =
                 static_cast<uint32_t>(r.Unsigned(1, std::numeric_limits<uint32_t>::max()));
         }},
        {"preferred-dataset-splits",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.preferredDatasetSplits =
                 static_cast<uint32_t>(r.Unsigned(1, std::numeric_limits<uint32_t>::max()));
         }},
        {"all-reduce-implementation",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.allReduceImplementation = r.Implementations();
         }},
        {"reduce-scatter-implementation",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.reduceScatterImplementation = r.Implementations();
         }},
        {"all-gather-implementation",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.allGatherImplementation = r.Implementations();
         }},
        {"all-to-all-implementation",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.allToAllImplementation = r.Implementations();
         }},
        {"all-reduce-implementation-custom",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.allReduceCustom = r.CustomPrefix();
         }},
        {"reduce-scatter-implementation-custom",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.reduceScatterCustom = r.CustomPrefix();
         }},
        {"all-gather-implementation-custom",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.allGatherCustom = r.CustomPrefix();
         }},
        {"all-to-all-implementation-custom",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.allToAllCustom = r.CustomPrefix();
         }},
        {"per-node-custom-implementation",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.perNodeCustomImplementation = r.String();
         }},
        {"local-mem-bw",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.localMemBwGBps = r.BandwidthGBps();
         }},
        {"nccl-collnet-enable",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.ncclCollNetEnable = r.Flag();
         }},
        {"peak-perf",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.peakPerfTflops = r.Number(false);
         }},
        {"roofline-enabled",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.rooflineEnabled = r.Flag();
         }},
        {"trace-enabled",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.traceEnabled = r.Flag();
         }},
        {"replay-only",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.replayOnly = r.Flag();
         }},
        {"track-local-mem",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.trackLocalMem = r.Flag();
         }},
        {"local-mem-trace-filename",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.localMemTraceFilename = r.String();
         }},
        {"local-reduction-delay",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.localReductionDelay = r.Unsigned(0, kMaxDelayNs);
         }},
        {"model-shared-bus",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.modelSharedBus = r.Flag();
         }},
        {"L",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.logGpL = r.Number(false);
         }},
        {"o",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.logGpO = r.Number(false);
         }},
        {"g",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.logGpG = r.Number(false);
         }},
        {"G",
         [](const KeyReader& r, SystemConfig& c)
         {
             c.logGpBigG = r.Number(false);
         }},
        // Present in ASTRA-sim's own example files but read by 1.0 only: accepted quietly.
        {"boost-mode",
         [](const KeyReader& r, SystemConfig&)
         {
             r.Flag();
         }},
    };
    return keys;
}

/** ASTRA-sim 1.0 keys that 2.0 no longer reads: accepted with a warning. */
bool
IsRetiredKey(const std::string& key)
{
    return key == "inter-dimension-scheduling" || key == "intra-dimension-scheduling";
}

} // namespace

uint64_t
SystemConfig::GetEndpointDelayNs() const
{
    return static_cast<uint64_t>(static_cast<double>(endpointDelayNs) * injectionScale);
}

const std::vector<AlgorithmSpec>&
SystemConfig::GetImplementation(CollectiveType type) const
{
    switch (type)
    {
    case CollectiveType::AllReduce:
        return allReduceImplementation;
    case CollectiveType::ReduceScatter:
    case CollectiveType::ReduceScatterBlock:
        return reduceScatterImplementation;
    case CollectiveType::AllGather:
        return allGatherImplementation;
    case CollectiveType::AllToAll:
        return allToAllImplementation;
    default:
        break;
    }
    static const std::vector<AlgorithmSpec> none;
    return none;
}

const std::string&
SystemConfig::GetCustomImplementation(CollectiveType type) const
{
    switch (type)
    {
    case CollectiveType::AllReduce:
        return allReduceCustom;
    case CollectiveType::ReduceScatter:
    case CollectiveType::ReduceScatterBlock:
        return reduceScatterCustom;
    case CollectiveType::AllGather:
        return allGatherCustom;
    case CollectiveType::AllToAll:
        return allToAllCustom;
    default:
        break;
    }
    static const std::string none;
    return none;
}

SystemConfig
ParseSystemConfig(const std::string& text, const std::string& source)
{
    const ConfigJson doc = ConfigJson::Parse(text, source);
    if (!doc.Root().is_object())
    {
        throw InputError(source + ": a system configuration must be a JSON object");
    }
    SystemConfig config;
    config.source = source;
    const auto& known = KnownKeys();
    for (const auto& item : doc.Root().items())
    {
        const std::string& key = item.key();
        auto handler = known.find(key);
        if (handler != known.end())
        {
            handler->second(KeyReader(doc, key), config);
        }
        else if (IsRetiredKey(key))
        {
            config.warnings.push_back(doc.Where(key) +
                                      ": ignored, ASTRA-sim 2.0 does not read it either");
        }
        else
        {
            config.warnings.push_back(doc.Where(key) + ": unknown key, ignored");
        }
    }
    if (!doc.Root().contains("preferred-dataset-splits"))
    {
        config.warnings.push_back(source + ": preferred-dataset-splits not given; collectives "
                                           "run as one chunk");
    }
    if (!doc.Root().contains("local-mem-bw"))
    {
        config.warnings.push_back(source + ": local-mem-bw not given; local reductions take "
                                           "no time");
    }
    return config;
}

SystemConfig
LoadSystemConfig(const std::string& path)
{
    SystemConfig config = ParseSystemConfig(ConfigJson::ReadFile(path), path);
    for (const auto& warning : config.warnings)
    {
        std::cerr << "warning: " << warning << std::endl;
    }
    return config;
}

} // namespace ns3
