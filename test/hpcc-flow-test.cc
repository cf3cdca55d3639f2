/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The HPCC simulator's flow files: the count line, the six columns, what follows the
// announced flows, and errors that name the file and line.

#include "ns3/hpcc-flow-file.h"
#include "ns3/hpcc-topology-reader.h"
#include "ns3/input-error.h"

#include <gtest/gtest.h>

#include <fstream>
#include <numeric>
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

/** The message of the InputError \p f throws, or "" if it throws none. */
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

TEST(HpccFlowFile, ShippedWebSearchFlows)
{
    const auto flows = ReadHpccFlows(kData + "flows_websearch_320h_30pct_2ms.txt");
    ASSERT_EQ(flows.size(), 1090u);
    const uint64_t bytes =
        std::accumulate(flows.begin(),
                        flows.end(),
                        uint64_t{0},
                        [](uint64_t s, const HpccFlow& f) { return s + f.bytes; });
    EXPECT_EQ(bytes, 1'853'264'796u);
    const HpccFlow& first = flows.front();
    EXPECT_EQ(first.src, 130u);
    EXPECT_EQ(first.dst, 140u);
    EXPECT_EQ(first.pg, 3u);
    EXPECT_EQ(first.dport, 100u);
    EXPECT_EQ(first.bytes, 1205u);
    EXPECT_EQ(first.start, PicoSeconds(2'000'000'106'000));
    EXPECT_EQ(first.line, 2u);
    const HpccFlow& last = flows.back();
    EXPECT_EQ(last.src, 64u);
    EXPECT_EQ(last.dst, 303u);
    EXPECT_EQ(last.bytes, 23310u);
    EXPECT_EQ(last.start, PicoSeconds(2'001'960'081'000));
    EXPECT_EQ(last.line, 1091u);
    EXPECT_EQ(FirstUnsortedFlowLine(flows), 0u);
    CheckHpccFlows(flows, "flows", ReadHpccTopology(kData + "fat.txt"));
}

TEST(HpccFlowFile, OnlyTheAnnouncedFlowsAreRead)
{
    // flow_example.txt announces 2 flows, lists 256 and ends with a description.
    const auto flows = ReadHpccFlows(kData + "flow_example.txt");
    ASSERT_EQ(flows.size(), 2u);
    EXPECT_EQ(flows[0].src, 2u);
    EXPECT_EQ(flows[0].dst, 1u);
    EXPECT_EQ(flows[0].bytes, 200'000'000u);
    EXPECT_EQ(flows[0].start, Seconds(2));
    EXPECT_EQ(flows[1].src, 3u);
    CheckHpccFlows(flows, "flows", ReadHpccTopology(kData + "topology.txt"));
}

TEST(HpccFlowFile, BadLinesNameTheFileAndLine)
{
    const std::pair<const char*, const char*> cases[] = {
        {"2\n1 2 3 100 1000 2.0\n1 2 3 100 1000\n", ":3: expects 6 columns"},
        {"1\n1 2 8 100 1000 2.0\n", ":2: pg: must be at most 7"},
        {"1\n1 2 3 70000 1000 2.0\n", ":2: dport: must be at most 65535"},
        {"1\n1 2 3 100 0 2.0\n", ":2: size: must be at least 1 byte"},
        {"1\n1 2 3 100 -5 2.0\n", ":2: size: not a whole number"},
        {"1\n1 1 3 100 1000 2.0\n", ":2: src and dst are both node 1"},
        {"1\n1 2 3 100 1000 -1\n", ":2: start time: must be in"},
        {"1\n1 2 3 100 1000 soon\n", ":2: start time: not a number of seconds"},
        {"3\n1 2 3 100 1000 2.0\n\n2 1 3 100 1000 2.0\n",
         ": the first line announces 3 flows but only 2 follow"},
        {"two\n", ":1: flow count: not a whole number"},
        {"2 flows\n", ":1: the first line must hold only the number of flows"},
        {"\n\n", ": empty; the first line must give the number of flows"},
    };
    for (const auto& [text, message] : cases)
    {
        const std::string path = WriteFile("hpcc-flows.txt", text);
        const std::string error = ErrorOf([&] { ReadHpccFlows(path); });
        EXPECT_EQ(error.rfind(path + message, 0), 0u) << text << " -> " << error;
    }
    EXPECT_EQ(ErrorOf([] { ReadHpccFlows("/nonexistent/flows.txt"); }),
              "/nonexistent/flows.txt: no such file");
}

TEST(HpccFlowFile, FlowsMustRunBetweenHostsOfTheTopology)
{
    // topology.txt: node 0 is the switch, 1..65 are hosts.
    const Fabric fabric = ReadHpccTopology(kData + "topology.txt");
    const std::string beyond = WriteFile("hpcc-beyond.txt", "1\n\n1 66 3 100 1000 2.0\n");
    EXPECT_EQ(ErrorOf([&] { CheckHpccFlows(ReadHpccFlows(beyond), beyond, fabric); }),
              beyond + ":3: node 66 does not exist (the topology has 66 nodes)");
    const std::string sw = WriteFile("hpcc-switch.txt", "1\n0 5 3 100 1000 2.0\n");
    EXPECT_EQ(ErrorOf([&] { CheckHpccFlows(ReadHpccFlows(sw), sw, fabric); }),
              sw + ":2: node 0 is a switch; flows run between hosts");
}

TEST(HpccFlowFile, UnsortedStartTimesAreFound)
{
    const std::string path = WriteFile("hpcc-unsorted.txt",
                                       "3\n1 2 3 100 1000 2.0\n2 3 3 100 1000 2.5\n"
                                       "3 4 3 100 1000 2.000001\n");
    const auto flows = ReadHpccFlows(path);
    EXPECT_EQ(FirstUnsortedFlowLine(flows), 4u);
    EXPECT_EQ(flows[2].start, PicoSeconds(2'000'001'000'000));
}
