/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ASTRA-sim system JSON: the shipped files, every key, warnings and errors.
#include "ns3/input-error.h"
#include "ns3/remote-memory-model.h"
#include "ns3/system-config.h"

#include <gtest/gtest.h>

#include <string>

using namespace ns3;

namespace
{

const std::string kSystemDir =
    std::string(MLFABRIC_SHARED_DIR) + "/data/astra-sim/system/native_collectives/";

/** Expect an InputError whose message contains \p fragment. */
void
ExpectInputError(const std::string& json, const std::string& fragment)
{
    try
    {
        ParseSystemConfig(json, "sys.json");
        FAIL() << "no error for " << json;
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
}

bool
HasWarning(const SystemConfig& c, const std::string& fragment)
{
    for (const auto& w : c.warnings)
    {
        if (w.find(fragment) != std::string::npos)
        {
            return true;
        }
    }
    return false;
}

} // namespace

TEST(SystemConfig, ReadsTheHgxH100ValidatedFile)
{
    SystemConfig c = LoadSystemConfig(kSystemDir + "HGX-H100-validated.json");
    EXPECT_EQ(c.schedulingPolicy, SchedulingPolicy::Lifo);
    EXPECT_EQ(c.endpointDelayNs, 10U);
    EXPECT_EQ(c.activeChunksPerDimension, 2U);
    EXPECT_EQ(c.preferredDatasetSplits, 4U);
    EXPECT_EQ(c.collectiveOptimization, CollectiveOptimization::LocalBwAware);
    EXPECT_DOUBLE_EQ(c.localMemBwGBps, 3350);
    for (auto type : {CollectiveType::AllReduce,
                      CollectiveType::AllGather,
                      CollectiveType::ReduceScatter,
                      CollectiveType::AllToAll})
    {
        ASSERT_EQ(c.GetImplementation(type).size(), 1U);
        EXPECT_EQ(c.GetImplementation(type)[0].algorithm, CollectiveAlgorithm::Ring);
        EXPECT_FALSE(c.GetImplementation(type)[0].flat);
    }
    // boost-mode is a 1.0 key that ASTRA-sim's own examples still carry: no warning.
    EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();
}

TEST(SystemConfig, ReadsTheRingFourChunksFile)
{
    SystemConfig c = LoadSystemConfig(kSystemDir + "Ring_4chunks.json");
    EXPECT_EQ(c.activeChunksPerDimension, 1U);
    EXPECT_EQ(c.preferredDatasetSplits, 4U);
    EXPECT_DOUBLE_EQ(c.localMemBwGBps, 1600);
    EXPECT_DOUBLE_EQ(c.peakPerfTflops, 900);
    EXPECT_FALSE(c.rooflineEnabled);
    EXPECT_EQ(c.source, kSystemDir + "Ring_4chunks.json");
    EXPECT_TRUE(c.warnings.empty());
}

TEST(SystemConfig, AcceptsEveryAstraSimKey)
{
    const std::string json = R"({
        "scheduling-policy": "EXPLICIT",
        "collective-optimization": "baseline",
        "endpoint-delay": 25,
        "active-chunks-per-dimension": 3,
        "preferred-dataset-splits": 16,
        "all-reduce-implementation": ["halvingDoubling", "doubleBinaryTree"],
        "reduce-scatter-implementation": ["direct8", "oneRing"],
        "all-gather-implementation": ["oneDirect4"],
        "all-to-all-implementation": ["direct", "oneHalvingDoubling"],
        "all-reduce-implementation-custom": ["traces/ar"],
        "per-node-custom-implementation": "map.yaml",
        "local-mem-bw": 1000.5,
        "peak-perf": 312,
        "roofline-enabled": 1,
        "trace-enabled": 0,
        "replay-only": 1,
        "track-local-mem": true,
        "local-mem-trace-filename": "mem.csv",
        "local-reduction-delay": 3,
        "model-shared-bus": 0,
        "L": 1, "o": 2, "g": 3, "G": 0.5,
        "boost-mode": 1
    })";
    SystemConfig c = ParseSystemConfig(json, "sys.json");
    EXPECT_EQ(c.schedulingPolicy, SchedulingPolicy::Explicit);
    EXPECT_EQ(c.collectiveOptimization, CollectiveOptimization::Baseline);
    EXPECT_EQ(c.endpointDelayNs, 25U);
    EXPECT_EQ(c.activeChunksPerDimension, 3U);
    EXPECT_EQ(c.preferredDatasetSplits, 16U);
    ASSERT_EQ(c.allReduceImplementation.size(), 2U);
    EXPECT_EQ(c.allReduceImplementation[0].algorithm, CollectiveAlgorithm::HalvingDoubling);
    EXPECT_EQ(c.allReduceImplementation[1].algorithm, CollectiveAlgorithm::DoubleBinaryTree);
    EXPECT_EQ(c.reduceScatterImplementation[0].algorithm, CollectiveAlgorithm::Direct);
    EXPECT_EQ(c.reduceScatterImplementation[0].window, 8U);
    EXPECT_TRUE(c.reduceScatterImplementation[1].flat);
    EXPECT_EQ(c.allGatherImplementation[0].algorithm, CollectiveAlgorithm::Direct);
    EXPECT_EQ(c.allGatherImplementation[0].window, 4U);
    EXPECT_TRUE(c.allGatherImplementation[0].flat);
    EXPECT_EQ(c.allToAllImplementation[0].window, 0U);
    EXPECT_EQ(c.allToAllImplementation[1].algorithm, CollectiveAlgorithm::HalvingDoubling);
    EXPECT_EQ(c.allReduceCustom, "traces/ar");
    EXPECT_EQ(c.GetCustomImplementation(CollectiveType::AllReduce), "traces/ar");
    EXPECT_EQ(c.perNodeCustomImplementation, "map.yaml");
    EXPECT_DOUBLE_EQ(c.localMemBwGBps, 1000.5);
    EXPECT_DOUBLE_EQ(c.peakPerfTflops, 312);
    EXPECT_TRUE(c.rooflineEnabled);
    EXPECT_FALSE(c.traceEnabled);
    EXPECT_TRUE(c.replayOnly);
    EXPECT_TRUE(c.trackLocalMem);
    EXPECT_EQ(c.localMemTraceFilename, "mem.csv");
    EXPECT_EQ(c.localReductionDelay, 3U);
    EXPECT_DOUBLE_EQ(c.logGpBigG, 0.5);
    EXPECT_TRUE(c.warnings.empty());
}

TEST(SystemConfig, AlgorithmNamesRoundTrip)
{
    for (const std::string name : {"ring",
                                   "oneRing",
                                   "direct",
                                   "direct12",
                                   "oneDirect",
                                   "oneDirect3",
                                   "halvingDoubling",
                                   "oneHalvingDoubling",
                                   "doubleBinaryTree"})
    {
        EXPECT_EQ(ToString(ParseAlgorithmSpec(name, "here")), name);
    }
}

TEST(SystemConfig, WarnsAboutUnknownAndRetiredKeysWithTheirLine)
{
    SystemConfig c = ParseSystemConfig("{\n  \"endpoint-delay\": 5,\n  \"endpoint-dealy\": 7,\n"
                                       "  \"inter-dimension-scheduling\": \"themis\"\n}",
                                       "sys.json");
    EXPECT_EQ(c.endpointDelayNs, 5U);
    EXPECT_TRUE(HasWarning(c, "sys.json:3: key \"endpoint-dealy\": unknown key"));
    EXPECT_TRUE(HasWarning(c, "sys.json:4: key \"inter-dimension-scheduling\": ignored"));
    EXPECT_TRUE(HasWarning(c, "preferred-dataset-splits not given"));
    EXPECT_TRUE(HasWarning(c, "local-mem-bw not given"));
}

TEST(SystemConfig, InjectionScaleMultipliesTheEndpointDelay)
{
    SystemConfig c = ParseSystemConfig(R"({"endpoint-delay": 10})", "sys.json");
    c.injectionScale = 2.55;
    EXPECT_EQ(c.GetEndpointDelayNs(), 25U);
}

TEST(SystemConfig, RejectsBadValuesNamingFileLineAndKey)
{
    ExpectInputError("{\n\"scheduling-policy\": \"RANDOM\"}",
                     "sys.json:2: key \"scheduling-policy\": \"RANDOM\" is not LIFO");
    ExpectInputError(R"({"collective-optimization": "themis"})", "collective-optimization");
    ExpectInputError(R"({"endpoint-delay": -1})", "endpoint-delay");
    ExpectInputError(R"({"endpoint-delay": 1.5})", "non-negative integer");
    ExpectInputError(R"({"active-chunks-per-dimension": 0})", "at least 1");
    ExpectInputError(R"({"preferred-dataset-splits": "4"})", "preferred-dataset-splits");
    ExpectInputError(R"({"local-mem-bw": 0})", "local-mem-bw");
    ExpectInputError(R"({"roofline-enabled": 2})", "expected 0 or 1");
    ExpectInputError(R"({"all-reduce-implementation": "ring"})", "list of strings");
    ExpectInputError(R"({"all-reduce-implementation": []})", "empty");
    ExpectInputError(R"({"all-reduce-implementation": ["tree"]})", "unknown implementation");
    ExpectInputError(R"({"all-to-all-implementation": ["directX"]})", "window");
    ExpectInputError(R"({"all-to-all-implementation": ["direct0"]})", "window");
    ExpectInputError(R"({"all-reduce-implementation": ["oneDoubleBinaryTree"]})", "unknown");
    ExpectInputError(R"({"all-reduce-implementation-custom": ["a", "b"]})", "exactly one");
    ExpectInputError("[1, 2]", "must be a JSON object");
    ExpectInputError("{\n\"endpoint-delay\": 10,\n}", "sys.json:3: not valid JSON");
    EXPECT_THROW(LoadSystemConfig("/nonexistent/sys.json"), InputError);
}

// A JSON number keeps ASTRA-sim's unit; a string carries its own, in the unit grammar.
TEST(SystemConfig, StringsCarryUnits)
{
    const SystemConfig c =
        ParseSystemConfig(R"({"endpoint-delay": "1.5us", "local-mem-bw": "12.8Tbps"})", "sys.json");
    EXPECT_EQ(c.endpointDelayNs, 1500U);
    EXPECT_DOUBLE_EQ(c.localMemBwGBps, 1600);
    EXPECT_DOUBLE_EQ(ParseSystemConfig(R"({"local-mem-bw": "1600GBps"})", "s").localMemBwGBps,
                     1600);
    ExpectInputError("{\n\"endpoint-delay\": \"10\"}",
                     "sys.json:2: key \"endpoint-delay\": '10' has no unit; write e.g. 10us");
    ExpectInputError(R"({"local-mem-bw": "1600"})", "'1600' has no unit; write e.g. 1600Gbps");
    ExpectInputError(R"({"local-mem-bw": "1600gbps"})", "'gbps' in '1600gbps' is not a rate unit");
    ExpectInputError(R"({"endpoint-delay": "1500ps"})", "whole number of nanoseconds");
}

// ASTRA-sim's remote-memory JSON: numbers in ns and GB/s, or strings with their unit.
TEST(SystemConfig, RemoteMemoryStringsCarryUnits)
{
    const RemoteMemoryConfig numbers = ParseRemoteMemoryConfig(
        R"({"memory-type": "PER_NPU_MEMORY_EXPANSION", "remote-mem-latency": 100,
            "remote-mem-bw": 10})",
        "mem.json");
    const RemoteMemoryConfig strings = ParseRemoteMemoryConfig(
        R"({"memory-type": "PER_NPU_MEMORY_EXPANSION", "remote-mem-latency": "0.1us",
            "remote-mem-bw": "80Gbps"})",
        "mem.json");
    EXPECT_DOUBLE_EQ(strings.latencyNs, numbers.latencyNs);
    EXPECT_DOUBLE_EQ(strings.bandwidthBytesPerNs, numbers.bandwidthBytesPerNs);
    try
    {
        ParseRemoteMemoryConfig(R"({"memory-type": "MEMORY_POOL", "remote-mem-latency": "100",
                                    "remote-mem-bw": 10})",
                                "mem.json");
        ADD_FAILURE() << "no error for a latency without a unit";
    }
    catch (const InputError& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  "mem.json:1: key \"remote-mem-latency\": '100' has no unit; write e.g. 100us");
    }
}
