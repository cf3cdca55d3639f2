/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Every LinkSettings field of a fabric reaches the packet level: PFC priorities per
// port (switch MMU and NIC), headroom only for lossless priorities, ECN thresholds of
// the file over the ECN map unless --ecn is explicit.

#include "ns3/boolean.h"
#include "ns3/cc-setup.h"
#include "ns3/config.h"
#include "ns3/effective-settings.h"
#include "ns3/fabric-loader.h"
#include "ns3/incast-scenario.h"
#include "ns3/roce-header.h"
#include "ns3/roce-network.h"
#include "ns3/shortest-path-routing.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

using namespace ns3;

namespace
{

/** Write \p text to a temporary file named \p name. \return its path */
std::string
WriteFile(const std::string& name, const std::string& text)
{
    const auto dir = std::filesystem::temp_directory_path() / "mlfabric-link-settings-test";
    std::filesystem::create_directories(dir);
    const std::string path = (dir / name).string();
    std::ofstream(path) << text;
    return path;
}

/**
 * A one-switch fabric file of \p npus NPUs at 100 Gb/s, 1 us.
 * \param defaults lines under "defaults:" (indented by two)
 * \param firstLink extra keys of npu0's link, e.g. ", pfc_priorities: []"
 */
std::string
StarFile(const std::string& name,
         uint32_t npus,
         const std::string& defaults,
         const std::string& firstLink = "")
{
    std::string text = "name: " + name + "\ndefaults:\n" + defaults +
                       "npus: " + std::to_string(npus) +
                       "\nswitches:\n  - {name: tor, role: leaf}\nlinks:\n";
    for (uint32_t i = 0; i < npus; ++i)
    {
        text += "  - {a: npu" + std::to_string(i) + ", b: tor, rate: 100Gbps, latency: 1us" +
                (i == 0 ? firstLink : "") + "}\n";
    }
    return WriteFile(name + ".yaml", text);
}

class LinkSettingsPacketTest : public ::testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

/** Every byte arrived once at the receiver. */
void
ExpectExactlyOnce(const IncastResult& r)
{
    EXPECT_EQ(r.bytesDelivered, r.bytesExpected);
    for (const auto& f : r.flows)
    {
        EXPECT_EQ(f.timesReceived, 1u) << "sender " << f.sender;
        EXPECT_TRUE(f.completion.IsStrictlyPositive()) << "sender " << f.sender;
    }
}

/** An 8-to-1 incast of 512 KiB each over \p path. */
IncastResult
SmallBufferIncast(const std::string& path)
{
    IncastConfig config;
    config.senders = 8;
    config.messageBytes = 512 * 1024;
    config.fabricPath = path;
    config.receiverRank = 0;
    return RunIncast(config);
}

} // namespace

// pfc_priorities: [] makes priority 3 lossy everywhere: a small buffer drops and
// go-back-N recovers; [3] keeps it lossless: PFC pauses, nothing dropped.
TEST_F(LinkSettingsPacketTest, FilePfcPrioritiesDecideDropsOrPauses)
{
    // Drops of whole windows need timeouts: 4.2 ms ones (2^10 x 4.096 us) rather than
    // NCCL's 4.3 s, so the recovery fits the incast's 10 s limit.
    Config::SetDefault("ns3::RdmaNic::AckTimeout", UintegerValue(10));
    const IncastResult lossy =
        SmallBufferIncast(StarFile("lossy", 9, "  switch_buffer: 1MiB\n  pfc_priorities: []\n"));
    EXPECT_GT(lossy.drops, 0u);
    EXPECT_EQ(lossy.pfcPauseFrames, 0u);
    EXPECT_GT(lossy.nacks + lossy.timeouts, 0u);
    ExpectExactlyOnce(lossy);
    ASSERT_EQ(lossy.effective.lossless.size(), 1u);
    EXPECT_EQ(lossy.effective.lossless[0].priorities, 0u);
    EXPECT_EQ(lossy.effective.lossless[0].ports, 18u);
    Config::Reset();

    const IncastResult lossless = SmallBufferIncast(
        StarFile("lossless", 9, "  switch_buffer: 1MiB\n  pfc_priorities: [3]\n"));
    EXPECT_EQ(lossless.drops, 0u);
    EXPECT_GT(lossless.pfcPauseFrames, 0u);
    EXPECT_EQ(lossless.timeouts, 0u);
    ExpectExactlyOnce(lossless);
    ASSERT_EQ(lossless.effective.lossless.size(), 1u);
    EXPECT_EQ(lossless.effective.lossless[0].priorities, 1u << 3);
}

// A link's own pfc_priorities win over the defaults at both of its ends; headroom and
// the reserved allotment exist only for lossless priorities, none on a lossy port.
TEST_F(LinkSettingsPacketTest, PerLinkPrioritiesSetEachPort)
{
    const LoadedFabric loaded =
        LoadFabric(StarFile("mixed", 3, "  pfc_priorities: [3]\n", ", pfc_priorities: [0, 3, 5]"));
    const Fabric& f = loaded.fabric;
    RoceNetwork net;
    net.Install(f, ComputeShortestPathRouting(f), 4096);
    const uint32_t tor = f.FindNode("tor");
    Ptr<SharedBufferMmu> mmu = net.GetSwitch(tor)->GetMmu();
    EXPECT_EQ(mmu->GetLosslessPriorities(0), 0x29);
    EXPECT_EQ(mmu->GetLosslessPriorities(1), 0x08);
    EXPECT_EQ(net.GetNic(f.GetNpuNode(0))->GetPfcPriorities(0), 0x29);
    EXPECT_EQ(net.GetNic(f.GetNpuNode(1))->GetPfcPriorities(0), 0x08);
    EXPECT_TRUE(mmu->IsLossless(0, 5));
    EXPECT_FALSE(mmu->IsLossless(1, 5));
    // Carved: 8 reserved allotments per lossless port, headroom per lossless priority.
    const uint64_t h = mmu->GetHeadroomBytes(0);
    EXPECT_GT(h, 0u);
    UintegerValue reserved;
    mmu->GetAttribute("ReservedBytes", reserved);
    EXPECT_EQ(mmu->GetCarvedBytes(), 3 * 8 * reserved.Get() + (3 + 1 + 1) * h);
}

// With PFC off nothing is lossless and nothing is carved: a 200 kB buffer runs, drops
// and recovers (before, its 8 KiB x 8 priorities x 17 ports of reserve did not fit).
TEST_F(LinkSettingsPacketTest, PfcOffCarvesNothing)
{
    Config::SetDefault("ns3::RdmaNic::AckTimeout", UintegerValue(10)); // 4.2 ms, as above
    IncastConfig config;
    config.senders = 16;
    config.messageBytes = 256 * 1024;
    config.pfc = false;
    config.bufferBytes = 200000;
    const IncastResult r = RunIncast(config);
    EXPECT_GT(r.drops, 0u);
    EXPECT_EQ(r.pfcPauseFrames, 0u);
    ExpectExactlyOnce(r);
    ASSERT_EQ(r.effective.lossless.size(), 1u);
    EXPECT_EQ(r.effective.lossless[0].priorities, 0u);
    Config::Reset();

    Config::SetDefault("ns3::SharedBufferMmu::PfcEnabled", BooleanValue(false));
    const Fabric star = BuildIncastStar(config);
    RoceNetwork net;
    net.Install(star, ComputeShortestPathRouting(star), 4096);
    Ptr<SharedBufferMmu> mmu = net.GetSwitch(0)->GetMmu();
    EXPECT_EQ(mmu->GetCarvedBytes(), 0u);
    EXPECT_EQ(mmu->GetSharedPoolBytes(), 200000u);
    EXPECT_EQ(mmu->GetHeadroomBytes(0), 0u);
    EXPECT_EQ(net.GetNic(1)->GetPfcPriorities(0), 0u);
}

// The file's ECN thresholds mark; the ECN map fills only the ports whose link leaves
// them unset, unless it is given explicitly (--ecn), which then sets every port.
TEST_F(LinkSettingsPacketTest, FileEcnWinsOverTheMapUnlessEcnIsExplicit)
{
    // npu0 receives; its link marks every packet above 20 KB, the others take the map.
    const std::string path =
        StarFile("ecn", 5, "  pfc_priorities: [3]\n", ", ecn: {kmin: 20KB, kmax: 20KB, pmax: 1}");
    IncastConfig config;
    config.senders = 4;
    config.messageBytes = 1 << 20;
    config.fabricPath = path;
    config.receiverRank = 0;
    config.cc.scheme = "dcqcn";
    config.cc.ecnMap = "";
    const IncastResult file = RunIncast(config);
    ExpectExactlyOnce(file);
    EXPECT_GT(file.ecnMarks, 0u);
    ASSERT_EQ(file.effective.ecn.size(), 2u);
    for (const auto& c : file.effective.ecn)
    {
        EXPECT_EQ(c.ports, c.fromLink ? 1u : 4u);
        EXPECT_EQ(c.ecn.kminBytes, c.fromLink ? 20000u : 400000u); // the peers' 100G entry
    }
    Config::Reset();

    // An explicit map far above any queue of this incast: no mark anywhere.
    config.cc.ecnMap = "100Gbps:100MB/100MB/1";
    const IncastResult explicitMap = RunIncast(config);
    ExpectExactlyOnce(explicitMap);
    EXPECT_EQ(explicitMap.ecnMarks, 0u);
    ASSERT_EQ(explicitMap.effective.ecn.size(), 1u);
    EXPECT_FALSE(explicitMap.effective.ecn[0].fromLink);
    EXPECT_EQ(explicitMap.effective.ecn[0].ports, 5u);
}

// Acceptance: a link's ECN threshold in the file is the one its switch port marks at.
// With kmin = kmax = K and pmax 1 a packet is marked exactly when the queue it leaves
// behind exceeds K, so the shortest queue seen at a mark lies in (K, K + one frame].
TEST_F(LinkSettingsPacketTest, SwitchMarksAtTheFileThreshold)
{
    const uint64_t k = 20000;
    const LoadedFabric loaded = LoadFabric(StarFile(
        "ecn-at", 5, "  pfc_priorities: [3]\n", ", ecn: {kmin: 20KB, kmax: 20KB, pmax: 1}"));
    const Fabric& f = loaded.fabric;
    RoceNetwork net;
    net.Install(f, ComputeShortestPathRouting(f), 4096);
    CcSettings cc;
    cc.scheme = "dcqcn";
    InstallCongestionControl(net, cc);
    Ptr<RoceSwitch> sw = net.GetSwitch(f.FindNode("tor"));
    const uint32_t toReceiver = f.GetPort(f.GetNpuNode(0), 0).peerPort;
    EXPECT_EQ(sw->GetEcnThresholds(toReceiver).kminBytes, k);
    EXPECT_NE(sw->GetEcnThresholds(toReceiver == 0 ? 1 : 0).kminBytes, k); // the map's, elsewhere

    uint64_t marks = 0;
    uint64_t marksElsewhere = 0;
    uint64_t shortest = UINT64_MAX;
    auto onMark = [&](Ptr<const Packet>, uint32_t port)
    {
        if (port != toReceiver)
        {
            ++marksElsewhere;
            return;
        }
        ++marks;
        shortest = std::min(shortest, sw->GetQueueBytes(port));
    };
    sw->TraceConnectWithoutContext("EcnMark", Callback<void, Ptr<const Packet>, uint32_t>(onMark));
    for (uint32_t r = 1; r < 5; ++r)
    {
        Ptr<RdmaQueuePair> qp = net.Connect(f.GetNpuNode(r), f.GetNpuNode(0), 3);
        net.GetNic(f.GetNpuNode(r))->PostSend(qp, 1 << 20, r);
    }
    Simulator::Stop(Seconds(1));
    Simulator::Run();

    RoceHeader full;
    full.payload = 4096;
    EXPECT_GT(marks, 0u);
    EXPECT_EQ(marksElsewhere, 0u);
    EXPECT_GT(shortest, k);
    EXPECT_LE(shortest, k + full.GetWireBytes());
    EXPECT_EQ(net.GetNic(f.GetNpuNode(0))->GetCounters().deliveredBytes, 4u << 20);
}
