/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Inputs that once crashed a reader, ran it out of memory or time, or were read as
// something else than written (fuzz/ and doc/reliability.md). Each must now end in one
// InputError, in one line, naming the file and what is wrong.
#include "ns3/astra-network-reader.h"
#include "ns3/comm-group-table.h"
#include "ns3/et-trace.h"
#include "ns3/fabric-loader.h"
#include "ns3/hpcc-config.h"
#include "ns3/hpcc-flow-file.h"
#include "ns3/hpcc-topology-reader.h"
#include "ns3/input-error.h"
#include "ns3/system-config.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** \param target a fuzz target \param name a file of its corpus \return the file's path */
std::string
Corpus(const std::string& target, const std::string& name)
{
    return std::string(MLFABRIC_SOURCE_DIR) + "/test/fuzz-corpus/" + target + "/" + name;
}

/** \return the peak resident memory of the process so far, bytes */
uint64_t
PeakRssBytes()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<uint64_t>(usage.ru_maxrss) * 1024;
}

/**
 * \param read a reader call
 * \param parts text the message must hold, the file first
 */
void
ExpectInputError(const std::function<void()>& read, const std::vector<std::string>& parts)
{
    const uint64_t peakBefore = PeakRssBytes();
    try
    {
        read();
        ADD_FAILURE() << "accepted";
    }
    catch (const InputError& e)
    {
        const std::string message = e.what();
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        for (const auto& part : parts)
        {
            EXPECT_NE(message.find(part), std::string::npos)
                << "'" << part << "' not in: " << message;
        }
    }
    // Rejecting a small file takes no more than a little memory.
    EXPECT_LT(PeakRssBytes() - peakBefore, uint64_t{64} << 20);
}

/** \param depth levels \return a JSON list nested \p depth deep */
std::string
NestedList(size_t depth)
{
    return std::string(depth, '[') + std::string(depth, ']');
}

} // namespace

TEST(FuzzRegressionTest, EtLengthPrefixBeyondTheFileClaimsNoMemory)
{
    const std::string path = Corpus("et-trace", "huge-length.et");
    ExpectInputError([&]() { EtTrace::Load(path); },
                     {path,
                      "message 1: truncated: the length prefix announces 2147483647 bytes "
                      "but only 2 remain"});
}

TEST(FuzzRegressionTest, JsonNumberBeyondADouble)
{
    const std::string system = Corpus("system-config", "number-overflow.json");
    ExpectInputError([&]() { LoadSystemConfig(system); },
                     {system, ": not valid JSON: number overflow parsing '184674441e308'"});

    const std::string groups = Corpus("comm-group", "number-overflow.txt");
    ExpectInputError([&]() { CommGroupTable(64).LoadFile(groups); },
                     {groups, ": not valid JSON: number overflow parsing"});
    const std::string text = "[{\"pg_name\": \"1\", \"ranks\": [1e400]}]";
    ExpectInputError([&]() { CommGroupTable(64).AddProcessGroups(text, "t.0.et: node 3"); },
                     {"t.0.et: node 3: process-group metadata is not a JSON list of groups"});
}

TEST(FuzzRegressionTest, DeeplyNestedJsonInAnErrorMessage)
{
    const std::string deep = NestedList(200000);
    ExpectInputError([&]()
                     { CommGroupTable(64).LoadJson("{\"1\": [" + deep + "]}", "groups.json"); },
                     {"groups.json:1: key \"1\": rank a list of 1 value is not an integer"});
    ExpectInputError([&]()
                     { CommGroupTable(64).AddProcessGroups("[" + deep + "]", "t.0.et: node 3"); },
                     {"t.0.et: node 3: process group a list of 1 value lacks a string pg_name"});
    ExpectInputError([&]() { ParseSystemConfig("{\"endpoint-delay\": " + deep + "}", "s.json"); },
                     {"s.json:1: key \"endpoint-delay\": expected a non-negative integer, got "
                      "a list of 1 value"});
}

TEST(FuzzRegressionTest, SystemConfigIntegersOutOfRange)
{
    const std::string chunks = Corpus("system-config", "chunks-wrap.json");
    ExpectInputError([&]() { LoadSystemConfig(chunks); },
                     {chunks + ":2: key \"active-chunks-per-dimension\": must be at most "
                               "4294967295, got 4294967296"});
    const std::string huge = Corpus("system-config", "huge-numbers.json");
    ExpectInputError([&]() { LoadSystemConfig(huge); },
                     {huge + ":1: key \"endpoint-delay\": must be at most 9200000000000000, got "
                             "18446744073709551615"});
}

TEST(FuzzRegressionTest, HpccTopologyOfManyNodesWithoutLinks)
{
    const std::string path = Corpus("hpcc-topology", "many-nodes-no-links.txt");
    ExpectInputError([&]() { ReadHpccTopology(path); },
                     {path + ": fabric 'many-nodes-no-links': graph is disconnected (3000002 "
                             "parts): 'switch0' cannot reach 'host1'"});
}

// The rate parser once ignored case and read 100GBps as 100 Gb/s, so the readers refused
// a capital B. It now reads GBps as ns-3's DataRate does, as the HPCC simulator would.
TEST(FuzzRegressionTest, HpccTopologyRateInBytesPerSecond)
{
    const Fabric fabric = ReadHpccTopology(Corpus("hpcc-topology", "rate-in-bytes.txt"));
    ASSERT_EQ(fabric.GetLinkCount(), 2u);
    EXPECT_EQ(fabric.GetLink(0).settings.rateBps, 800000000000ULL);
    EXPECT_EQ(fabric.GetLink(1).settings.rateBps, 100000000000ULL);
}

TEST(FuzzRegressionTest, HpccTopologyLossWithTrailingText)
{
    const std::string path = Corpus("hpcc-topology", "loss-trailing-text.txt");
    ExpectInputError([&]() { ReadHpccTopology(path); },
                     {path + ":3: link 1 error rate: must be in [0, 1] (got '0.5x')"});
}

TEST(FuzzRegressionTest, AstraNetworkLinkFiguresOutOfRange)
{
    for (const char* name : {"bandwidth-overflow.yml", "bandwidth-underflow.yml"})
    {
        const std::string path = Corpus("astra-network", name);
        ExpectInputError([&]() { ReadAstraNetwork(path); },
                         {path + ":3: bandwidth[0]: must be between 1 bit/s and 10^16 bit/s"});
    }
    const std::string path = Corpus("astra-network", "latency-overflow.yml");
    ExpectInputError([&]() { ReadAstraNetwork(path); },
                     {path + ":4: latency[0]: must be in [0, 9.2e15] ns"});
}

TEST(FuzzRegressionTest, AstraNetworkFullyConnectedBeyondTheLinkLimit)
{
    const std::string path = Corpus("astra-network", "fully-connected-huge.yml");
    ExpectInputError([&]() { ReadAstraNetwork(path); },
                     {path + ":2: npus_count: describes 16777216 NPUs and 140737479966720 links, "
                             "more than the limit of 16777216 NPUs and 67108864 links"});
}

TEST(FuzzRegressionTest, FabricYamlBeyondTheLinkLimit)
{
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"fully-connected-huge.yaml", ":2: dimensions: describes 16777216 NPUs and"},
        {"clos-spines-huge.yaml", ":2: scale_out: describes 16777216 NPUs and"},
        {"clos-cores-huge.yaml", ":2: scale_out: describes 4096 NPUs and"},
        {"rail-spines-huge.yaml", ":4: scale_out: describes 16777216 NPUs and"},
    };
    for (const auto& [name, message] : cases)
    {
        const std::string path = Corpus("fabric-loader", name);
        ExpectInputError([&]() { LoadFabric(path); },
                         {path + message, "more than the limit of 16777216 NPUs"});
    }
}

TEST(FuzzRegressionTest, YamlNestedTooDeep)
{
    const std::string path = testing::TempDir() + "fuzz-regression-nested.yaml";
    std::ofstream(path) << "npus: " << NestedList(3000) << "\n";
    ExpectInputError([&]() { LoadFabric(path); },
                     {path + ":1: not valid YAML: nested more than 500 levels deep"});
}

TEST(FuzzRegressionTest, HpccFlowCountBeyondTheFileClaimsNoMemory)
{
    const std::string path = Corpus("hpcc-flow", "huge-count.txt");
    ExpectInputError([&]() { ReadHpccFlows(path); },
                     {path + ": the first line announces 4294967296 flows but only 1 follow"});
}

TEST(FuzzRegressionTest, HpccConfigRatesInBytesPerSecond)
{
    // RATE_AI is a DataRate string in the simulator: 5MB/s is 40 Mb/s.
    EXPECT_EQ(ReadHpccConfig(Corpus("hpcc-config", "rate-in-bytes.txt")).rateAiBps, 40000000u);
    // A map's rate is a bare integer of bit/s there; a unit has no meaning.
    const std::string map = Corpus("hpcc-config", "map-rate-in-bytes.txt");
    ExpectInputError([&]() { ReadHpccConfig(map); },
                     {map + ":1: KMAX_MAP: link rate '100GBps' must be a whole number of bit/s "
                            "without a unit"});
}
