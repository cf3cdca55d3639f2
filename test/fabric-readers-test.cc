/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Fabric files: ASTRA-sim network YAML, HPCC topology files (import and export),
// mlfabric's own YAML and the shipped fabrics; every bad input names file, line and key.
#include "ns3/astra-network-reader.h"
#include "ns3/fabric-loader.h"
#include "ns3/fabric-routing.h"
#include "ns3/fabric-yaml-reader.h"
#include "ns3/hpcc-topology-reader.h"
#include "ns3/hpcc-topology-writer.h"
#include "ns3/input-error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

using namespace ns3;

namespace
{

const uint64_t G = 1000000000ULL;
const std::string kShared = MLFABRIC_SHARED_DIR;
const std::string kSource = MLFABRIC_SOURCE_DIR;

/** Write \p text to a file in the test's temporary folder and return its path. */
std::string
WriteFile(const std::string& name, const std::string& text)
{
    const auto dir = std::filesystem::temp_directory_path() / "mlfabric-fabric-readers-test";
    std::filesystem::create_directories(dir);
    const std::string path = (dir / name).string();
    std::ofstream(path) << text;
    return path;
}

/** Loading \p text as \p name fails with a message holding each of \p parts. */
void
ExpectError(const std::string& name, const std::string& text, const std::vector<std::string>& parts)
{
    const std::string path = WriteFile(name, text);
    try
    {
        LoadFabric(path);
        ADD_FAILURE() << name << ": accepted";
    }
    catch (const InputError& e)
    {
        const std::string message = e.what();
        EXPECT_EQ(message.rfind(path, 0), 0u) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        for (const auto& part : parts)
        {
            EXPECT_NE(message.find(part), std::string::npos)
                << "'" << part << "' not in: " << message;
        }
    }
}

uint32_t
CountLinksOfRate(const Fabric& fabric, uint64_t bps)
{
    uint32_t count = 0;
    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        count += fabric.GetLink(l).settings.rateBps == bps ? 1 : 0;
    }
    return count;
}

} // namespace

TEST(FabricReaders, EveryAstraSimNetworkFileLoads)
{
    uint32_t files = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(kShared + "/data/astra-sim/network/analytical"))
    {
        const LoadedFabric loaded = LoadFabric(entry.path().string());
        EXPECT_EQ(loaded.format, "astra-sim");
        EXPECT_GE(loaded.fabric.GetNpuCount(), 2u);
        ComputeRouting(loaded.fabric, RoutingAlgorithm::ShortestPath);
        ++files;
    }
    EXPECT_GE(files, 4u);

    const Fabric ring =
        ReadAstraNetwork(kShared + "/data/astra-sim/network/analytical/Ring_16npus.yml");
    EXPECT_EQ(ring.GetNpuCount(), 16u);
    EXPECT_EQ(ring.GetSwitchCount(), 0u);
    EXPECT_EQ(ring.GetLinkCount(), 16u);
    // 50 GB/s with GB = 2^30 bytes; 500 ns.
    EXPECT_EQ(ring.GetLink(0).settings.rateBps, 50ULL * (1ULL << 30) * 8);
    EXPECT_EQ(ring.GetLink(0).settings.delayPs, 500000);

    const Fabric hgx =
        ReadAstraNetwork(kShared + "/data/astra-sim/network/analytical/HGX-H100-validated.yml");
    EXPECT_EQ(hgx.GetNpuCount(), 8u);
    EXPECT_EQ(hgx.GetSwitchCount(), 1u);
    EXPECT_EQ(hgx.GetLinkCount(), 8u);
    EXPECT_EQ(hgx.GetLink(0).settings.delayPs, 936250);
}

TEST(FabricReaders, AstraSimMultiDimensionalFile)
{
    const std::string path = WriteFile("three-dim.yml",
                                       "topology: [ Ring, FullyConnected, Switch ]\n"
                                       "npus_count: [ 2, 8, 4 ]\n"
                                       "bandwidth: [ 200.0, 100.0, 50.0 ]\n"
                                       "latency: [ 50.0, 500.0, 2000.0 ]\n");
    const Fabric fabric = ReadAstraNetwork(path);
    EXPECT_EQ(fabric.GetName(), "three-dim");
    EXPECT_EQ(fabric.GetNpuCount(), 64u);
    // Ring of 2: one link per pair (32); 8 groups of FC 8: 8 x 28; 16 switches, 64 links.
    EXPECT_EQ(fabric.GetSwitchCount(), 16u);
    EXPECT_EQ(fabric.GetLinkCount(), 32u + 8 * 28 + 64);
    EXPECT_EQ(CountLinksOfRate(fabric, 200ULL * (1ULL << 30) * 8), 32u);
    EXPECT_EQ(CountLinksOfRate(fabric, 50ULL * (1ULL << 30) * 8), 64u);
}

TEST(FabricReaders, HpccFatTreeGivesThePaperFigures)
{
    const LoadedFabric loaded = LoadFabric(kShared + "/data/hpcc/fat.txt");
    const Fabric& fat = loaded.fabric;
    EXPECT_EQ(loaded.format, "hpcc");
    EXPECT_EQ(fat.GetNpuCount(), 320u);
    EXPECT_EQ(fat.GetSwitchCount(), 56u);
    EXPECT_EQ(fat.GetLinkCount(), 480u);
    EXPECT_EQ(CountLinksOfRate(fat, 100 * G), 320u);
    EXPECT_EQ(CountLinksOfRate(fat, 400 * G), 160u);
    EXPECT_EQ(fat.GetLink(0).settings.delayPs, 1000000);
    EXPECT_FALSE(fat.GetNode(fat.GetNpuNode(0)).forwards);
    // Hosts keep their file ids; ToRs are tier 1, the top switches tier 3.
    EXPECT_EQ(fat.GetNpuNode(319), 319u);
    EXPECT_EQ(fat.GetNode(320).tier, 1u);
    EXPECT_EQ(fat.GetNode(375).tier, 3u);
    const RoutingTable routing = ComputeRouting(fat, RoutingAlgorithm::ShortestPath);
    EXPECT_EQ(routing.GetHops(fat.GetNpuNode(0), 1), 2u);
    EXPECT_EQ(routing.GetHops(fat.GetNpuNode(0), 319), 6u);
}

TEST(FabricReaders, HpccTopologyCountsRuleOverTrailingLines)
{
    const Fabric star = LoadFabric(kShared + "/data/hpcc/topology.txt").fabric;
    // The file lists more link lines than its first line counts; they are ignored.
    EXPECT_EQ(star.GetNpuCount(), 65u);
    EXPECT_EQ(star.GetSwitchCount(), 1u);
    EXPECT_EQ(star.GetLinkCount(), 65u);
    EXPECT_FALSE(star.IsNpu(0));
    EXPECT_EQ(star.GetNode(star.GetNpuNode(0)).name, "host1");
}

TEST(FabricReaders, HpccExportReadsBackTheSameFabric)
{
    const Fabric fat = ReadHpccTopology(kShared + "/data/hpcc/fat.txt");
    const std::string path = WriteFile("fat-export.txt", "");
    WriteHpccTopology(fat, path);
    const Fabric again = ReadHpccTopology(path);
    ASSERT_EQ(again.GetNodeCount(), fat.GetNodeCount());
    ASSERT_EQ(again.GetLinkCount(), fat.GetLinkCount());
    EXPECT_EQ(again.GetNpuCount(), fat.GetNpuCount());
    for (uint32_t l = 0; l < fat.GetLinkCount(); ++l)
    {
        EXPECT_EQ(again.GetLink(l).nodeA, fat.GetLink(l).nodeA);
        EXPECT_EQ(again.GetLink(l).nodeB, fat.GetLink(l).nodeB);
        EXPECT_EQ(again.GetLink(l).settings.rateBps, fat.GetLink(l).settings.rateBps);
        EXPECT_EQ(again.GetLink(l).settings.delayPs, fat.GetLink(l).settings.delayPs);
    }

    // A builder's fabric: NPUs become ids 0..N-1, switches follow.
    RoutingAlgorithm routing;
    const Fabric twoDim = ReadFabricYaml(kSource + "/fabrics/two-dim-8x4.yaml", routing);
    const std::string twoDimPath = WriteFile("two-dim-export.txt", "");
    WriteHpccTopology(twoDim, twoDimPath);
    const Fabric back = ReadHpccTopology(twoDimPath);
    EXPECT_EQ(back.GetNpuCount(), 32u);
    EXPECT_EQ(back.GetSwitchCount(), twoDim.GetSwitchCount());
    EXPECT_EQ(back.GetLinkCount(), twoDim.GetLinkCount());
    EXPECT_EQ(CountLinksOfRate(back, 3600 * G), 32u);
}

TEST(FabricReaders, ShippedFabricsLoadWithTheirShapes)
{
    struct Shape
    {
        uint32_t npus, switches, links;
        RoutingAlgorithm routing;
    };
    const std::map<std::string, Shape> shapes = {
        {"incast-16", {17, 1, 17, RoutingAlgorithm::ShortestPath}},
        {"clos-2tier-32", {32, 4 + 2, 32 + 4 * 2, RoutingAlgorithm::ShortestPath}},
        {"two-dim-8x4", {32, 4 + 4 + 4, 32 + 32 + 4 * 4, RoutingAlgorithm::DimensionOrder}},
        {"two-dim-4x4", {16, 4 + 2 + 4, 16 + 16 + 2 * 4, RoutingAlgorithm::DimensionOrder}},
        {"two-dim-4x2", {8, 2 + 2 + 2, 8 + 8 + 2 * 2, RoutingAlgorithm::DimensionOrder}},
        {"torus-4x4", {16, 0, 32, RoutingAlgorithm::DimensionOrder}},
        {"ring-8", {8, 0, 8, RoutingAlgorithm::ShortestPath}},
        {"rail-4x8", {32, 4 + 8 + 4, 32 + 32 + 8 * 4, RoutingAlgorithm::DimensionOrder}},
        {"fat-tree-k4", {16, 20, 48, RoutingAlgorithm::ShortestPath}},
    };
    uint32_t seen = 0;
    for (const auto& entry : std::filesystem::directory_iterator(kSource + "/fabrics"))
    {
        const LoadedFabric loaded = LoadFabric(entry.path().string());
        const RoutingTable routing = ComputeRouting(loaded.fabric, loaded.routing);
        EXPECT_EQ(loaded.format, "mlfabric");
        auto it = shapes.find(entry.path().stem().string());
        if (it == shapes.end())
        {
            continue;
        }
        ++seen;
        const Fabric& f = loaded.fabric;
        EXPECT_EQ(f.GetName(), it->first);
        EXPECT_EQ(f.GetNpuCount(), it->second.npus) << it->first;
        EXPECT_EQ(f.GetSwitchCount(), it->second.switches) << it->first;
        EXPECT_EQ(f.GetLinkCount(), it->second.links) << it->first;
        EXPECT_EQ(loaded.routing, it->second.routing) << it->first;
    }
    EXPECT_EQ(seen, shapes.size());

    const Fabric incast = LoadFabric(kSource + "/fabrics/incast-16.yaml").fabric;
    for (uint32_t l = 0; l < incast.GetLinkCount(); ++l)
    {
        EXPECT_EQ(incast.GetLink(l).settings.rateBps, 100 * G);
        EXPECT_EQ(incast.GetLink(l).settings.delayPs, 1000000);
    }
    // Scale-up switches get their role's buffer; PFC on priority 3 only.
    const Fabric twoDim = LoadFabric(kSource + "/fabrics/two-dim-8x4.yaml").fabric;
    EXPECT_EQ(twoDim.GetNode(twoDim.FindNode("scale-up-sw0")).bufferBytes, 64ULL << 20);
    EXPECT_EQ(twoDim.GetNode(twoDim.FindNode("spine0")).bufferBytes, 32ULL << 20);
    EXPECT_EQ(twoDim.GetLink(0).settings.pfcPriorities.value(), 1u << 3);
    // GPU 9 is GPU 1 of server 1: its scale-up switch is server 1's.
    EXPECT_EQ(twoDim.GetNode(twoDim.GetPort(twoDim.GetNpuNode(9), 0).peer).name, "scale-up-sw1");
}

TEST(FabricReaders, DefaultsAndPerLinkSettings)
{
    const std::string path =
        WriteFile("mixed.yaml",
                  "name: mixed\n"
                  "defaults:\n"
                  "  switch_buffer: 16MiB\n"
                  "  loss: 0.001\n"
                  "  ecn:\n"
                  "    - {rate: 25Gbps, kmin: 50KB, kmax: 200KB, pmax: 0.1}\n"
                  "    - {rate: 100Gbps, kmin: 200KB, kmax: 800KB, pmax: 0.5}\n"
                  "npus: 3\n"
                  "switches:\n"
                  "  - {name: tor, role: leaf}\n"
                  "links:\n"
                  "  - {a: npu0, b: tor, rate: 100Gbps, latency: 1us}\n"
                  "  - {a: npu1, b: tor, rate: 40Gbps, latency: 2us}\n"
                  "  - {a: npu2, b: tor, rate: 10Gbps, latency: 3us, loss: 0,\n"
                  "     ecn: {kmin: 1KB, kmax: 2KB, pmax: 1}, pfc_priorities: [0, 3]}\n");
    const Fabric f = LoadFabric(path).fabric;
    EXPECT_EQ(f.GetNode(f.FindNode("tor")).bufferBytes, 16ULL << 20);
    EXPECT_EQ(f.GetLink(0).settings.ecn.value().kminBytes, 200000u);
    EXPECT_DOUBLE_EQ(f.GetLink(0).settings.ecn.value().pmax, 0.5);
    EXPECT_EQ(f.GetLink(1).settings.ecn.value().kmaxBytes, 200000u); // 40G: the 25G class
    EXPECT_DOUBLE_EQ(f.GetLink(1).settings.lossProbability, 0.001);
    // No pfc_priorities anywhere: left to the run (the switches' default lossless set).
    EXPECT_FALSE(f.GetLink(1).settings.pfcPriorities.has_value());
    EXPECT_EQ(f.GetLink(2).settings.ecn.value().kminBytes, 1000u);
    EXPECT_DOUBLE_EQ(f.GetLink(2).settings.lossProbability, 0);
    EXPECT_EQ(f.GetLink(2).settings.pfcPriorities.value(), 0x09);
    EXPECT_EQ(f.GetLink(2).settings.delayPs, 3000000);
    // One switch touches every NPU: no forwarding needed.
    EXPECT_FALSE(f.GetNode(f.GetNpuNode(0)).forwards);
}

TEST(FabricReaders, MixOfScaleUpRingAndFatTree)
{
    // A Ring scale-up of 4 inside each server needs NPU forwarding; the fat-tree
    // (k = 4, 16 NICs) holds 4 servers.
    const std::string path =
        WriteFile("ring-fat.yaml",
                  "dimensions:\n"
                  "  - {topology: Ring, npus: 4, rate: 800Gbps, latency: 50ns}\n"
                  "scale_out:\n"
                  "  topology: fat-tree\n"
                  "  k: 4\n"
                  "  host_link: {rate: 100Gbps, latency: 1us}\n"
                  "  agg_link: {rate: 100Gbps, latency: 1us}\n"
                  "  core_link: {rate: 100Gbps, latency: 1us}\n");
    const Fabric f = LoadFabric(path).fabric;
    EXPECT_EQ(f.GetNpuCount(), 16u);
    EXPECT_EQ(f.GetSwitchCount(), 20u);
    EXPECT_EQ(f.GetLinkCount(), 16u + 48u);
    EXPECT_TRUE(f.GetNode(f.GetNpuNode(0)).forwards);
    ASSERT_EQ(f.GetDimensions().size(), 2u);
    EXPECT_EQ(f.GetDimensions()[1].size, 4u);
    const RoutingTable dor = ComputeRouting(f, RoutingAlgorithm::DimensionOrder);
    // NPU 0 to NPU 6 (GPU 2 of server 1): two ring hops to GPU 2, then across pods of
    // the fat-tree (NPU 2 in pod 0, NPU 6 in pod 1).
    EXPECT_EQ(dor.GetHops(f.GetNpuNode(0), 6), 2u + 6u);
}

TEST(FabricReaders, BadAstraSimFilesNameTheKeyAndLine)
{
    const std::string ok = "npus_count: [ 4 ]\nbandwidth: [ 50.0 ]\nlatency: [ 500.0 ]\n";
    ExpectError("unknown.yml",
                "topology: [ Ring, Torus ]\nnpus_count: [ 4, 4 ]\nbandwidth: [ 50.0, 50.0 "
                "]\nlatency: [ 1, 1 ]\n",
                {":1:", "topology[1]", "unknown topology 'Torus'"});
    ExpectError("lengths.yml",
                "topology: [ Ring, Switch ]\nnpus_count: [ 4 ]\nbandwidth: [ 50.0, 50.0 "
                "]\nlatency: [ 1, 1 ]\n",
                {":2:", "npus_count", "has 1 entries but topology has 2"});
    ExpectError("small.yml",
                "topology: [ Ring ]\nnpus_count: [ 1 ]\nbandwidth: [ 50.0 ]\nlatency: [ 500.0 ]\n",
                {":2:", "npus_count[0]", "must be in [2"});
    ExpectError("zero-bw.yml",
                "topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 0.0 ]\nlatency: [ 500.0 ]\n",
                {":3:", "bandwidth[0]", "must be > 0"});
    ExpectError("negative-bw.yml",
                "topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ -5 ]\nlatency: [ 500.0 ]\n",
                {":3:", "bandwidth[0]", "must be > 0"});
    ExpectError("no-topology.yml", ok, {"topology", "missing"});
}

TEST(FabricReaders, BadMlfabricFilesNameTheKeyAndLine)
{
    ExpectError(
        "bad-topology.yaml",
        "name: x\ndimensions:\n  - {topology: Mesh, npus: 4, rate: 100Gbps, latency: 1us}\n",
        {":3:", "dimensions[0].topology", "unknown topology 'Mesh'"});
    ExpectError("bad-npus.yaml",
                "dimensions:\n  - {topology: Ring, npus: 1, rate: 100Gbps, latency: 1us}\n",
                {":2:", "dimensions[0].npus", "must be in [2"});
    ExpectError("zero-rate.yaml",
                "dimensions:\n  - {topology: Ring, npus: 4, rate: 0Gbps, latency: 1us}\n",
                {":2:", "dimensions[0].rate", "positive"});
    // A bare number used to be bit/s; now every rate, size and delay names its unit.
    ExpectError("bare-rate.yaml",
                "dimensions:\n  - {topology: Ring, npus: 4, rate: 100, latency: 1us}\n",
                {":2:", "dimensions[0].rate: '100' has no unit; write e.g. 100Gbps"});
    ExpectError("lower-case-rate.yaml",
                "dimensions:\n  - {topology: Ring, npus: 4, rate: 100gbps, latency: 1us}\n",
                {":2:", "dimensions[0].rate: 'gbps' in '100gbps' is not a rate unit"});
    ExpectError("bare-latency.yaml",
                "dimensions:\n  - {topology: Ring, npus: 4, rate: 100Gbps, latency: 500}\n",
                {":2:", "dimensions[0].latency: '500' has no unit; write e.g. 500us"});
    ExpectError("missing-node.yaml",
                "npus: 2\nswitches:\n  - {name: sw}\nlinks:\n  - {a: npu0, b: sw, rate: 100Gbps, "
                "latency: 1us}\n"
                "  - {a: npu1, b: sw1, rate: 100Gbps, latency: 1us}\n",
                {":6:", "links[1].b", "no node named 'sw1'"});
    ExpectError("disconnected.yaml",
                "npus: 4\nswitches:\n  - {name: sw}\nlinks:\n  - {a: npu0, b: sw, rate: 100Gbps, "
                "latency: 1us}\n"
                "  - {a: npu1, b: sw, rate: 100Gbps, latency: 1us}\n  - {a: npu2, b: npu3, rate: "
                "100Gbps, latency: 1us}\n",
                {"disconnected", "npu2"});
    ExpectError(
        "unknown-key.yaml", "name: x\nnpus: 2\nlinkz: []\n", {":3:", "linkz", "unknown key"});
    ExpectError("bad-routing.yaml",
                "routing: adaptive\ndimensions:\n  - {topology: Ring, npus: 4, rate: 100Gbps, "
                "latency: 1us}\n",
                {":1:", "routing", "unknown routing 'adaptive'"});
    ExpectError("bad-scale-out.yaml",
                "scale_out:\n  topology: dragonfly\n  servers: 4\n",
                {":2:", "scale_out.topology", "unknown topology 'dragonfly'"});
    ExpectError(
        "bad-oversubscription.yaml",
        "scale_out:\n  topology: clos\n  servers: 16\n  hosts_per_leaf: 8\n  oversubscription: 3\n"
        "  host_link: {rate: 100Gbps, latency: 1us}\n  leaf_link: {rate: 400Gbps, latency: 1us}\n",
        {":5:", "scale_out.oversubscription", "whole number"});
    ExpectError(
        "uneven-leaves.yaml",
        "scale_out:\n  topology: clos\n  servers: 10\n  hosts_per_leaf: 4\n  spines: 1\n"
        "  host_link: {rate: 100Gbps, latency: 1us}\n  leaf_link: {rate: 400Gbps, latency: 1us}\n",
        {":2:", "scale_out", "hosts_per_leaf 4"});
    ExpectError("not-yaml.yaml", "dimensions: [ {topology: Ring\n", {"not valid YAML"});
}

// GB/s is gigabytes per second, as in ns-3's DataRate: 50GB/s is a 400 Gb/s link.
TEST(FabricReaders, ByteRatesAreBytesPerSecond)
{
    const std::string path =
        WriteFile("byte-rate.yaml",
                  "dimensions:\n  - {topology: Ring, npus: 4, rate: 50GB/s, latency: 0.5us}\n");
    const Fabric f = LoadFabric(path).fabric;
    ASSERT_GT(f.GetLinkCount(), 0u);
    EXPECT_EQ(f.GetLink(0).settings.rateBps, 400000000000ULL);
    EXPECT_EQ(f.GetLink(0).settings.delayPs, 500000);
}

// The HPCC simulator hands rate and delay to ns-3 as strings: a bare rate is bit/s, a
// bare delay seconds, and Bps is bytes per second.
TEST(FabricReaders, HpccTopologyWordsAreNs3Strings)
{
    const std::string path = WriteFile(
        "ns3-strings.txt", "3 1 2\n2\n0 2 100000000000 0.000001 0\n1 2 12.5GBps 0.001ms 0\n");
    const Fabric f = LoadFabric(path).fabric;
    ASSERT_EQ(f.GetLinkCount(), 2u);
    for (uint32_t l = 0; l < 2; ++l)
    {
        EXPECT_EQ(f.GetLink(l).settings.rateBps, 100000000000ULL) << l;
        EXPECT_EQ(f.GetLink(l).settings.delayPs, 1000000) << l;
    }
    ExpectError("tera.txt",
                "3 1 2\n2\n0 2 1Tbps 1us 0\n1 2 100Gbps 1us 0\n",
                {":3:", "link 1 rate: 'Tbps' in '1Tbps' is not a rate unit (an ns-3 DataRate"});
    ExpectError("case.txt",
                "3 1 2\n2\n0 2 100gbps 1us 0\n1 2 100Gbps 1us 0\n",
                {":3:", "link 1 rate: 'gbps' in '100gbps'"});
}

TEST(FabricReaders, BadHpccFilesNameTheLine)
{
    ExpectError("range.txt",
                "3 1 2\n2\n0 2 100Gbps 1us 0\n1 5 100Gbps 1us 0\n",
                {":4:", "link 2 destination node", "out of range"});
    ExpectError(
        "rate.txt", "3 1 2\n2\n0 2 100Gbps 1us 0\n1 2 fast 1us 0\n", {":4:", "link 2 rate"});
    ExpectError(
        "short.txt", "3 1 3\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\n", {"ends early", "link 3"});
    ExpectError(
        "loss.txt", "3 1 2\n2\n0 2 100Gbps 1us 2\n1 2 100Gbps 1us 0\n", {":3:", "error rate"});
    ExpectError(
        "apart.txt", "4 1 2\n3\n0 3 100Gbps 1us 0\n1 3 100Gbps 1us 0\n", {"disconnected", "host2"});
}
