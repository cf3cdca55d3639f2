/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Link utilization: wire bytes over line rate and time on a closed-form transfer, links
// named by role on a Clos and on a two-dimensional fabric, and the busiest-link order.

#include "hand-fabric.h"

#include "ns3/clos-builder.h"
#include "ns3/fabric-loader.h"
#include "ns3/link-names.h"
#include "ns3/link-utilization.h"
#include "ns3/roce-network.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

using namespace ns3;

namespace
{

/** \return the direction of \p links named \p name */
const LinkUtilization&
Find(const std::vector<LinkUtilization>& links, const std::string& name)
{
    for (const auto& l : links)
    {
        if (l.name.GetName() == name)
        {
            return l;
        }
    }
    ADD_FAILURE() << "no link " << name;
    return links.front();
}

} // namespace

TEST(LinkUtilization, OneTransferAtLineRateIsItsWireBytesOverRateAndTime)
{
    // One 1 MiB message, host 0 -> switch -> host 1 at 100 Gb/s, 4096-byte payloads:
    // 256 frames of 4096 + 82 wire bytes.
    const uint64_t rate = 100'000'000'000;
    RoceNetwork net;
    HandFabric hand;
    const uint32_t src = hand.AddHost();
    const uint32_t dst = hand.AddHost();
    const uint32_t sw = hand.AddSwitch();
    hand.AddLink(src, sw, rate, MicroSeconds(1));
    hand.AddLink(sw, dst, rate, MicroSeconds(1));
    hand.Install(net, 4096);
    bool delivered = false;
    net.GetNic(dst)->TraceConnectWithoutContext(
        "MessageReceived",
        Callback<void, uint32_t, uint32_t, uint64_t, uint64_t>(
            [&delivered](uint32_t, uint32_t, uint64_t, uint64_t) { delivered = true; }));
    const Time window = MicroSeconds(10);
    LinkUtilizationSampler sampler(net, window, true);
    sampler.Start([&delivered]() { return delivered; });
    // Posted after the start: the first frame leaves at once.
    net.GetNic(src)->PostSend(net.Connect(src, dst, 3), 1 << 20, 1);
    Simulator::Run();
    const Time end = Simulator::Now();
    const auto links = sampler.Finish();
    Simulator::Destroy();

    ASSERT_TRUE(delivered);
    ASSERT_EQ(links.size(), 4u); // two links, two directions each
    const uint64_t wire = 256ULL * (4096 + 82);
    for (const char* name : {"nic0>sw2", "sw2>nic1"})
    {
        const LinkUtilization& l = Find(links, name);
        EXPECT_EQ(l.wireBytes, wire) << name;
        EXPECT_EQ(l.rateBps, rate);
        // The mean is the bytes over what the line carries in the whole run.
        EXPECT_DOUBLE_EQ(l.mean, wire * 8.0 / (rate * end.GetSeconds())) << name;
        // Back to back at line rate: every full window of the transfer is 100 %, give or
        // take the one frame that starts in a window and ends in the next.
        const double frame = (4096 + 82) * 8.0 / (rate * window.GetSeconds());
        const size_t full = static_cast<size_t>(wire * 8.0 / rate / window.GetSeconds());
        ASSERT_GT(l.windows.size(), full);
        for (size_t w = 1; w < full; ++w)
        {
            EXPECT_NEAR(l.windows[w], 1.0, frame + 1e-6) << name << " window " << w;
        }
        EXPECT_NEAR(l.peak, 1.0, frame + 1e-6);
        EXPECT_GE(l.peak, l.mean);
        // The windows account for every byte; the last one runs to the end.
        double bytes = 0;
        for (size_t w = 0; w < l.windows.size(); ++w)
        {
            const double span = w + 1 < l.windows.size()
                                    ? window.GetSeconds()
                                    : end.GetSeconds() - w * window.GetSeconds();
            bytes += l.windows[w] * rate * span / 8.0;
        }
        EXPECT_NEAR(bytes, static_cast<double>(wire), wire * 1e-6) << name;
    }
    // The reverse directions carry the acknowledgements only.
    EXPECT_LT(Find(links, "sw2>nic0").mean, 0.05);
    EXPECT_GT(Find(links, "sw2>nic0").wireBytes, 0u);
}

TEST(LinkUtilization, ClosLinksAreNamedByRoleAndIndex)
{
    ClosSpec spec;
    spec.hostsPerLeaf = 2;
    spec.spines = 2;
    spec.hostLink.rateBps = 100'000'000'000;
    spec.leafLink.rateBps = 100'000'000'000;
    const Fabric fabric = BuildClos("clos", 4, spec);
    std::set<std::string> names;
    std::set<std::string> roles;
    for (uint32_t link = 0; link < fabric.GetLinkCount(); ++link)
    {
        for (bool fromA : {true, false})
        {
            const LinkDirectionName n = NameLinkDirection(fabric, link, fromA);
            names.insert(n.GetName());
            roles.insert(n.GetRoles());
        }
    }
    EXPECT_EQ(names.size(), 2u * fabric.GetLinkCount()); // every direction its own name
    for (const char* name :
         {"nic0>leaf0", "leaf0>nic1", "nic3>leaf1", "leaf1>spine0", "spine1>leaf0"})
    {
        EXPECT_EQ(names.count(name), 1u) << name;
    }
    EXPECT_EQ(roles, (std::set<std::string>{"nic>leaf", "leaf>nic", "leaf>spine", "spine>leaf"}));
}

TEST(LinkUtilization, TwoDimensionalLinksNameTheScaleUpAndTheNics)
{
    const Fabric fabric =
        LoadFabric(std::string(MLFABRIC_SOURCE_DIR) + "/fabrics/two-dim-4x4-roce.yaml").fabric;
    std::set<std::string> names;
    std::set<std::string> roles;
    for (uint32_t link = 0; link < fabric.GetLinkCount(); ++link)
    {
        for (bool fromA : {true, false})
        {
            const LinkDirectionName n = NameLinkDirection(fabric, link, fromA);
            names.insert(n.GetName());
            roles.insert(n.GetRoles());
        }
    }
    EXPECT_EQ(names.size(), 2u * fabric.GetLinkCount());
    // NPU 5 is GPU 1 of server 1: its scale-up port on that server's switch, its NIC on
    // the leaf of servers 0 and 1.
    for (const char* name : {"npu5>scale-up-sw1",
                             "scale-up-sw1>npu5",
                             "nic5>leaf0",
                             "leaf0>nic5",
                             "nic15>leaf1",
                             "leaf0>spine0"})
    {
        EXPECT_EQ(names.count(name), 1u) << name;
    }
    EXPECT_EQ(
        roles,
        (std::set<std::string>{
            "npu>scale-up", "scale-up>npu", "nic>leaf", "leaf>nic", "leaf>spine", "spine>leaf"}));
}

TEST(LinkUtilization, BusiestLinksAreByMeanThenPeakThenName)
{
    auto make = [](const std::string& from, double mean, double peak)
    {
        LinkUtilization l;
        l.name.from = from;
        l.name.to = "leaf0";
        l.mean = mean;
        l.peak = peak;
        return l;
    };
    const std::vector<LinkUtilization> links = {make("nic0", 0.2, 0.9),
                                                make("nic1", 0.5, 0.6),
                                                make("nic2", 0.2, 1.0),
                                                make("nic3", 0.0, 0.0),
                                                make("nic5", 0.5, 0.6),
                                                make("nic4", 0.5, 0.6)};
    std::vector<std::string> order;
    for (const auto& l : BusiestLinks(links, 5))
    {
        order.push_back(l.name.from);
    }
    EXPECT_EQ(order, (std::vector<std::string>{"nic1", "nic4", "nic5", "nic2", "nic0"}));
    EXPECT_EQ(BusiestLinks(links, 10).size(), links.size());
    EXPECT_TRUE(BusiestLinks(links, 0).empty());
}

TEST(LinkUtilization, TheJsonFileHoldsEveryDirectionWithItsWindows)
{
    LinkUtilization l;
    l.name = {"nic0", "leaf0", "nic", "leaf"};
    l.rateBps = 200'000'000'000;
    l.wireBytes = 1234;
    l.mean = 0.25;
    l.peak = 0.75;
    l.windows = {0.5f, 0.75f, 0.0f};
    const std::string path = testing::TempDir() + "links.json";
    WriteLinkUtilization(path, {l}, MicroSeconds(100));
    std::ifstream in(path);
    const auto j = nlohmann::json::parse(in);
    EXPECT_EQ(j["window_ns"], 100000);
    ASSERT_EQ(j["links"].size(), 1u);
    EXPECT_EQ(j["links"][0]["name"], "nic0>leaf0");
    EXPECT_EQ(j["links"][0]["roles"], "nic>leaf");
    EXPECT_EQ(j["links"][0]["wire_bytes"], 1234);
    EXPECT_EQ(j["links"][0]["windows"], (std::vector<double>{0.5, 0.75, 0.0}));
    EXPECT_THROW(WriteLinkUtilization("/nonexistent/links.json", {l}, MicroSeconds(1)),
                 std::exception);
}
