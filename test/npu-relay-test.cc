/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// An NPU that relays is a small switch: bounded buffer, PFC upstream, ECN and INT at its
// egress, control frames ahead of paused data, its own queue pairs and transit traffic
// sharing a port by weights, and ring deadlocks that the check and the guard report.

#include "hpcc-message-run.h"

#include "ns3/cc-hpcc.h"
#include "ns3/cc-setup.h"
#include "ns3/channel-dependency-graph.h"
#include "ns3/config.h"
#include "ns3/fabric-installer.h"
#include "ns3/fabric-loader.h"
#include "ns3/fabric-routing.h"
#include "ns3/incast-scenario.h"
#include "ns3/input-error.h"
#include "ns3/integer.h"
#include "ns3/multi-dim-builder.h"
#include "ns3/nstime.h"
#include "ns3/relay-arbiter.h"
#include "ns3/roce-header.h"
#include "ns3/run-guard.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

using namespace ns3;

namespace
{

constexpr uint64_t kRate = 100'000'000'000;
constexpr uint32_t kMtu = 4096;

class NpuRelayTest : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

/** A ring of \p npus NPUs at 100 Gb/s, 1 us per link. */
Fabric
Ring(uint32_t npus)
{
    LinkSettings link;
    link.rateBps = kRate;
    link.delayPs = 1'000'000;
    return BuildMultiDim("ring-" + std::to_string(npus),
                         {DimensionSpec{DimensionTopology::Ring, npus, link, "ring"}});
}

/** The ring of \p npus as a fabric file, for the incast scenario. \return its path */
std::string
RingFile(uint32_t npus)
{
    const auto dir = std::filesystem::temp_directory_path() / "mlfabric-npu-relay-test";
    std::filesystem::create_directories(dir);
    const std::string path = (dir / ("ring-" + std::to_string(npus) + ".yaml")).string();
    std::ofstream(path) << "name: ring\ndimensions:\n  - {topology: Ring, npus: " << npus
                        << ", rate: 100Gbps, latency: 1us}\n";
    return path;
}

/** Bytes a full data packet of \p payload takes on the wire. */
uint32_t
WireBytes(uint32_t payload)
{
    RoceHeader h;
    h.payload = payload;
    return h.GetWireBytes();
}

/**
 * A 4-to-1 incast on an 8-NPU ring: ranks 1..4 send \p bytes each to rank 0, through
 * relays 1..3.
 */
IncastResult
RingIncast(const std::string& scheme, uint64_t bytes = 2 << 20)
{
    IncastConfig config;
    config.senders = 4;
    config.messageBytes = bytes;
    config.fabricPath = RingFile(8);
    config.receiverRank = 0;
    config.cc.scheme = scheme;
    // Marking well inside the relay's PFC threshold, so that the congestion control has
    // room to act before pauses do.
    config.cc.ecnMap = "100Gbps:20KB/100KB/0.2";
    config.invariantPeriod = MicroSeconds(20);
    return RunIncast(config);
}

/** Every byte arrived exactly once. */
void
ExpectExactlyOnce(const IncastResult& r)
{
    EXPECT_EQ(r.bytesDelivered, r.bytesExpected);
    for (const auto& f : r.flows)
    {
        EXPECT_EQ(f.timesReceived, 1u) << "sender " << f.sender;
        EXPECT_EQ(f.retransmittedBytes, 0u) << "sender " << f.sender;
    }
}

} // namespace

// The arbiter's byte shares are the weights' ratio while both classes wait, and an idle
// class banks nothing.
TEST(RelayArbiter, SharesFollowTheWeights)
{
    RelayArbiter a;
    a.SetWeights(3, 1);
    uint64_t sent[2] = {0, 0};
    for (int i = 0; i < 4000; ++i)
    {
        const RelayArbiter::Class c = a.Next();
        a.Served(c, 1000, true);
        sent[c] += 1000;
    }
    EXPECT_EQ(sent[RelayArbiter::LOCAL], 3 * sent[RelayArbiter::TRANSIT]);

    // Transit alone for a while: local then gets its share again, not a burst.
    for (int i = 0; i < 100; ++i)
    {
        a.Served(RelayArbiter::TRANSIT, 1000, false);
    }
    uint64_t local = 0;
    for (int i = 0; i < 8; ++i)
    {
        const RelayArbiter::Class c = a.Next();
        a.Served(c, 1000, true);
        local += c == RelayArbiter::LOCAL ? 1 : 0;
    }
    EXPECT_EQ(local, 6u);
}

// Acceptance 1: an incast through ring relays stays within every relay's buffer, the
// relays pause their upstream NPUs, nothing is dropped, every byte arrives once.
TEST_F(NpuRelayTest, RingIncastIsLosslessWithinTheRelayBuffer)
{
    Config::SetDefault("ns3::NpuRelay::BufferBytes", UintegerValue(1 << 20));
    const IncastResult r = RingIncast("none");
    ExpectExactlyOnce(r);
    EXPECT_EQ(r.drops, 0u);
    EXPECT_EQ(r.timeouts, 0u);
    EXPECT_EQ(r.relayBufferBytes, 1u << 20);
    EXPECT_GT(r.relayPeakUsedBytes, 0u);
    EXPECT_LE(r.relayPeakUsedBytes, r.relayBufferBytes);
    EXPECT_GT(r.relayHolds, 0u);
    uint64_t npuPauses = 0;
    for (const auto& p : r.ports)
    {
        npuPauses += p.name.rfind("host ", 0) == 0 ? p.pauseFramesTx : 0;
    }
    EXPECT_GT(npuPauses, 0u);
    EXPECT_TRUE(r.invariants.violations.empty());
    ASSERT_EQ(r.effective.relays.npus, 8u);
    EXPECT_EQ(r.effective.relays.bufferBytes, 1u << 20);
    EXPECT_EQ(r.effective.relays.lossless, 1u << 3);
}

// Acceptance 2: DCQCN and DCTCP see the relay bottleneck (marks, CNPs or echoes) and keep
// its queue well below what PFC alone lets it reach (in a 16 MiB relay, PFC holds the
// upstream only at about 2 MB: alpha 1/8 of the free buffer). The notification point
// sends CNPs as often as every 4 us (ConnectX's minimum time between CNPs) rather than
// the DCQCN paper's 50 us, so that the rate cuts come before PFC does.
TEST_F(NpuRelayTest, DcqcnAndDctcpReactToARelayBottleneck)
{
    const UintegerValue relayBuffer(16 << 20);
    const uint64_t bytes = 4 << 20;
    Config::SetDefault("ns3::NpuRelay::BufferBytes", relayBuffer);
    Config::SetDefault("ns3::RdmaNic::CnpInterval", TimeValue(MicroSeconds(4)));
    const IncastResult pfcOnly = RingIncast("none", bytes);
    ExpectExactlyOnce(pfcOnly);
    Config::Reset();
    Config::SetDefault("ns3::NpuRelay::BufferBytes", relayBuffer);
    Config::SetDefault("ns3::RdmaNic::CnpInterval", TimeValue(MicroSeconds(4)));
    const IncastResult dcqcn = RingIncast("dcqcn", bytes);
    ExpectExactlyOnce(dcqcn);
    Config::Reset();
    Config::SetDefault("ns3::NpuRelay::BufferBytes", relayBuffer);
    const IncastResult dctcp = RingIncast("dctcp", bytes);
    ExpectExactlyOnce(dctcp);

    EXPECT_GT(dcqcn.relayEcnMarks, 0u);
    EXPECT_GT(dcqcn.cnps, 0u);
    EXPECT_GT(dcqcn.rateChanges, 0u);
    EXPECT_GT(dctcp.relayEcnMarks, 0u);
    EXPECT_GT(dctcp.rateChanges + dctcp.windowChanges, 0u);
    EXPECT_LT(2 * dcqcn.relayPeakQueueBytes, pfcOnly.relayPeakQueueBytes)
        << dcqcn.relayPeakQueueBytes << " vs " << pfcOnly.relayPeakQueueBytes;
    EXPECT_LT(2 * dctcp.relayPeakQueueBytes, pfcOnly.relayPeakQueueBytes)
        << dctcp.relayPeakQueueBytes << " vs " << pfcOnly.relayPeakQueueBytes;
    // Without congestion control only PFC holds the relay back.
    EXPECT_GT(pfcOnly.relayHolds, 0u);
}

// Acceptance 2: HPCC on a switchless path gets INT from the relay, leaves its initial
// window (one BDP at line rate) and still carries >= 90 % of the line rate.
TEST_F(NpuRelayTest, HpccOnASwitchlessPathUsesRelayTelemetry)
{
    const Fabric ring = Ring(8);
    RoceNetwork net;
    const auto rankNode =
        InstallFabric(ring, ComputeRouting(ring, RoutingAlgorithm::ShortestPath), net, kMtu);
    CcSettings cc;
    cc.scheme = "hpcc";
    InstallCongestionControl(net, cc);
    // NPU 0 to NPU 2, relayed by NPU 1: no switch on the path.
    ASSERT_EQ(net.GetHopCount(rankNode[0], rankNode[2]), 1u);
    Ptr<RdmaQueuePair> qp = net.Connect(rankNode[0], rankNode[2], 3);
    Ptr<CcHpcc> hpcc = DynamicCast<CcHpcc>(qp->GetCongestionOps());
    ASSERT_TRUE(hpcc);
    const uint64_t initialWindow = hpcc->GetWindow();
    const uint64_t bytes = 8 << 20;
    const auto [done, minWindow] =
        hpcctest::RunHpccMessage(net.GetNic(rankNode[0]), qp, hpcc, bytes);

    ASSERT_TRUE(done.IsStrictlyPositive());
    const NpuRelay::Counters& relay = net.GetNic(rankNode[1])->GetRelay()->GetCounters();
    EXPECT_GT(relay.intStamps, 0u);
    EXPECT_LT(minWindow, initialWindow);
    EXPECT_LT(hpcc->GetUtilization(), 1.0);
    // The message's wire bits over its completion time, against the line rate.
    const double wireBits = static_cast<double>(bytes) * WireBytes(kMtu) / kMtu * 8;
    EXPECT_GE(wireBits / done.GetSeconds(), 0.9 * kRate) << done;
    EXPECT_EQ(relay.drops, 0u);
}

// The NPU's own queue pair and the traffic it relays share its port by LocalWeight :
// TransitWeight; the local message ends when its share has carried it (closed form).
TEST_F(NpuRelayTest, OwnAndTransitDataShareThePortByWeight)
{
    for (const uint32_t localWeight : {1u, 3u})
    {
        Config::SetDefault("ns3::NpuRelay::LocalWeight", UintegerValue(localWeight));
        const Fabric ring = Ring(8);
        RoceNetwork net;
        const auto rankNode =
            InstallFabric(ring, ComputeRouting(ring, RoutingAlgorithm::ShortestPath), net, kMtu);
        // NPU 1's own message to NPU 0 and NPU 2's through NPU 1, both at line rate.
        Ptr<RdmaQueuePair> local = net.Connect(rankNode[1], rankNode[0], 3);
        Ptr<RdmaQueuePair> relayed = net.Connect(rankNode[2], rankNode[0], 3);
        const uint64_t bytes = 4 << 20;
        Time done[2];
        auto sent = [&done](Ptr<RdmaQueuePair>, uint64_t, uint64_t tag, uint64_t, Time)
        {
            done[tag] = Simulator::Now();
        };
        const Callback<void, Ptr<RdmaQueuePair>, uint64_t, uint64_t, uint64_t, Time> cb(sent);
        net.GetNic(rankNode[1])->TraceConnectWithoutContext("MessageSent", cb);
        net.GetNic(rankNode[2])->TraceConnectWithoutContext("MessageSent", cb);
        net.GetNic(rankNode[1])->PostSend(local, bytes, 0);
        net.GetNic(rankNode[2])->PostSend(relayed, bytes, 1);
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        // Closed form: the local message's wire bytes at its share of the line rate.
        const double share = localWeight / (localWeight + 1.0);
        const double wireSeconds = static_cast<double>(bytes) * WireBytes(kMtu) / kMtu * 8 / kRate;
        const double localExpected = wireSeconds / share;
        EXPECT_NEAR(done[0].GetSeconds(), localExpected, 0.02 * localExpected)
            << "local weight " << localWeight;
        // Then the relayed one has the port: both together take twice one message's time.
        EXPECT_NEAR(done[1].GetSeconds(), 2 * wireSeconds, 0.02 * 2 * wireSeconds)
            << "local weight " << localWeight;
        EXPECT_EQ(net.GetNic(rankNode[1])->GetRelay()->GetCounters().drops, 0u);
        Simulator::Destroy();
        Config::Reset();
    }
}

// ACKs in a control class of their own (AckPriority 7), relayed toward an NPU whose data
// priority is paused, pass the paused data at the relay: the reverse message completes
// while the forward one is held.
TEST_F(NpuRelayTest, ControlFramesPassPausedData)
{
    Config::SetDefault("ns3::RdmaNic::AckPriority", IntegerValue(7));
    LinkSettings link;
    link.rateBps = kRate;
    link.delayPs = 1'000'000;
    // A line of three NPUs: 0 - 1 - 2, NPU 1 relays.
    const Fabric line =
        BuildMultiDim("line-3", {DimensionSpec{DimensionTopology::Ring, 3, link, "ring"}});
    RoceNetwork net;
    const auto rankNode =
        InstallFabric(line, ComputeRouting(line, RoutingAlgorithm::ShortestPath), net, kMtu);
    const uint32_t n0 = rankNode[0];
    const uint32_t n1 = rankNode[1];
    const uint32_t n2 = rankNode[2];
    // Route 0 <-> 2 through NPU 1 only (a ring of three also links them directly).
    const uint32_t toOne = line.GetPort(n0, 0).peer == n1 ? 0 : 1;
    const uint32_t twoToOne = line.GetPort(n2, 0).peer == n1 ? 0 : 1;
    net.GetNic(n0)->SetRoute(n2, {toOne});
    net.GetNic(n2)->SetRoute(n0, {twoToOne});
    Ptr<RdmaQueuePair> forward = net.Connect(n0, n2, 3);
    Ptr<RdmaQueuePair> reverse = net.Connect(n2, n0, 3);
    // NPU 2 holds priority 3 of NPU 1's port toward it paused from the start.
    Ptr<RocePort> twoFacingOne = net.GetNic(n2)->GetPort(twoToOne);
    Simulator::Schedule(Time(0), &RocePort::SetPfcXoff, twoFacingOne, 3, true);
    Simulator::Schedule(MicroSeconds(200), &RocePort::SetPfcXoff, twoFacingOne, 3, false);
    Time done[2];
    auto sent = [&done](Ptr<RdmaQueuePair>, uint64_t, uint64_t tag, uint64_t, Time)
    {
        done[tag] = Simulator::Now();
    };
    const Callback<void, Ptr<RdmaQueuePair>, uint64_t, uint64_t, uint64_t, Time> cb(sent);
    net.GetNic(n0)->TraceConnectWithoutContext("MessageSent", cb);
    net.GetNic(n2)->TraceConnectWithoutContext("MessageSent", cb);
    Simulator::Schedule(MicroSeconds(10),
                        [&]()
                        {
                            net.GetNic(n0)->PostSend(forward, 64 * 1024, 0);
                            net.GetNic(n2)->PostSend(reverse, 64 * 1024, 1);
                        });
    Simulator::Stop(Seconds(1));
    Simulator::Run();

    // The reverse message's ACKs left NPU 1 toward NPU 2 while the forward data waited.
    ASSERT_TRUE(done[1].IsStrictlyPositive());
    EXPECT_LT(done[1], MicroSeconds(200));
    EXPECT_GT(done[0], MicroSeconds(200));
}

// Three-hop flows all the same way round a ring of 7: the channel dependency check
// reports the cycle through the NPUs. Each relay gets 3/4 of a line rate of onward
// transit and may send 1/2 (its own flow has the other half), so with small relay
// buffers under PFC every relay fills and holds the one before: the run deadlocks and
// the guard names the NPU ports that hold each other paused.
TEST_F(NpuRelayTest, RingDeadlockIsReportedByTheCheckAndTheGuard)
{
    Config::SetDefault("ns3::NpuRelay::BufferBytes", UintegerValue(512 * 1024));
    const uint32_t n = 7;
    const Fabric ring = Ring(n);
    const RoutingTable routes = ComputeRouting(ring, RoutingAlgorithm::ShortestPath);
    const ChannelDependencyGraph cdg(ring, routes);
    EXPECT_TRUE(cdg.IsCyclic());

    RoceNetwork net;
    const auto rankNode = InstallFabric(ring, routes, net, kMtu);
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<RdmaQueuePair> qp = net.Connect(rankNode[i], rankNode[(i + 3) % n], 3);
        net.GetNic(rankNode[i])->PostSend(qp, 64 << 20, i);
    }
    RunGuard guard(net, MilliSeconds(20), MilliSeconds(2));
    guard.Start();
    Simulator::Stop(Seconds(1));
    Simulator::Run();

    ASSERT_EQ(guard.GetVerdict(), RunGuard::Verdict::PFC_DEADLOCK) << guard.GetReport();
    const std::string& report = guard.GetReport();
    // The cycle is the ring: every NPU's clockwise port, held by the next NPU.
    EXPECT_NE(report.find(std::to_string(n) + " ports wait on each other"), std::string::npos)
        << report;
    for (uint32_t i = 0; i < n; ++i)
    {
        EXPECT_NE(report.find("host " + std::to_string(rankNode[i]) + " port"), std::string::npos)
            << report;
    }
    EXPECT_NE(report.find("priority 3"), std::string::npos) << report;
    EXPECT_LT(Simulator::Now(), MilliSeconds(100));
}

// A relay buffer that cannot hold its ports' reserve and headroom is refused at install,
// naming the node and the attribute.
TEST_F(NpuRelayTest, TooSmallRelayBufferIsAnInputError)
{
    Config::SetDefault("ns3::NpuRelay::BufferBytes", UintegerValue(64 * 1024));
    const Fabric ring = Ring(4);
    RoceNetwork net;
    try
    {
        InstallFabric(ring, ComputeRouting(ring, RoutingAlgorithm::ShortestPath), net, kMtu);
        FAIL() << "installed";
    }
    catch (const InputError& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("node 0"), std::string::npos) << what;
        EXPECT_NE(what.find("ns3::NpuRelay::BufferBytes"), std::string::npos) << what;
    }
}

// A relay port that neither the link nor the ECN map sets marks at the switch's default
// for its rate (EcnThresholdMap::PeerDefault(): 100 Gb/s 400 KB/1600 KB, 25 Gb/s
// 100 KB/400 KB), and a threshold set on the port wins.
TEST_F(NpuRelayTest, UnsetRelayPortsTakeTheSwitchDefaultByRate)
{
    const std::pair<uint64_t, EcnThresholds> cases[] = {
        {kRate, EcnThresholds{400'000, 1'600'000, 0.2}},
        {25'000'000'000, EcnThresholds{100'000, 400'000, 0.2}}};
    for (const auto& [rate, expected] : cases)
    {
        LinkSettings link;
        link.rateBps = rate;
        link.delayPs = 1'000'000;
        const Fabric ring =
            BuildMultiDim("ring", {DimensionSpec{DimensionTopology::Ring, 4, link, "ring"}});
        RoceNetwork net;
        InstallFabric(ring, ComputeRouting(ring, RoutingAlgorithm::ShortestPath), net, kMtu);
        Ptr<NpuRelay> relay = net.GetNic(0)->GetRelay();
        ASSERT_TRUE(relay->IsConfigured());
        ASSERT_GT(net.GetNic(0)->GetNPorts(), 0u);
        for (uint32_t port = 0; port < net.GetNic(0)->GetNPorts(); ++port)
        {
            const EcnThresholds got = relay->GetEcnThresholds(port);
            EXPECT_EQ(got.kminBytes, expected.kminBytes) << rate << " port " << port;
            EXPECT_EQ(got.kmaxBytes, expected.kmaxBytes) << rate << " port " << port;
            EXPECT_DOUBLE_EQ(got.pmax, expected.pmax) << rate << " port " << port;
        }
        relay->SetEcnThresholds(0, EcnThresholds{20'000, 100'000, 0.5});
        EXPECT_EQ(relay->GetEcnThresholds(0).kminBytes, 20'000u);
        EXPECT_EQ(relay->GetEcnThresholds(0).kmaxBytes, 100'000u);
        Simulator::Destroy();
    }
}

// defaults.relay_buffer in a fabric file sizes every relay, in the unit grammar; a bad
// value names the file, the line and the key, and one too small for the relay's
// reserve and headroom names the key and the node at install.
TEST_F(NpuRelayTest, FabricRelayBufferKeyIsAppliedAndChecked)
{
    const auto dir = std::filesystem::temp_directory_path() / "mlfabric-npu-relay-test";
    std::filesystem::create_directories(dir);
    const auto write = [&dir](const std::string& value)
    {
        const std::string path = (dir / "relay-buffer.yaml").string();
        std::ofstream(path) << "name: ring\ndefaults:\n  relay_buffer: " << value
                            << "\ndimensions:\n  - {topology: Ring, npus: 4, rate: 100Gbps, "
                               "latency: 1us}\n";
        return path;
    };
    {
        const LoadedFabric loaded = LoadFabric(write("6MiB"));
        EXPECT_EQ(loaded.fabric.GetRelayBuffer(), 6u << 20);
        RoceNetwork net;
        const auto rankNode =
            InstallFabric(loaded.fabric, ComputeRouting(loaded.fabric, loaded.routing), net, kMtu);
        for (uint32_t node : rankNode)
        {
            UintegerValue bytes;
            net.GetNic(node)->GetRelay()->GetAttribute("BufferBytes", bytes);
            EXPECT_EQ(bytes.Get(), 6u << 20) << "node " << node;
            EXPECT_TRUE(net.GetNic(node)->GetRelay()->IsConfigured());
        }
    }
    Simulator::Destroy();
    for (const auto& [value, expect] : {std::pair<std::string, std::string>{"0B", "must be > 0"},
                                        {"4", "defaults.relay_buffer"},
                                        {"4MiBB", "defaults.relay_buffer"}})
    {
        const std::string path = write(value);
        try
        {
            LoadFabric(path);
            FAIL() << value << " was accepted";
        }
        catch (const InputError& e)
        {
            const std::string what = e.what();
            EXPECT_NE(what.find(path + ":3: "), std::string::npos) << what;
            EXPECT_NE(what.find(expect), std::string::npos) << what;
        }
    }
    const LoadedFabric small = LoadFabric(write("64KiB"));
    RoceNetwork net;
    try
    {
        InstallFabric(small.fabric, ComputeRouting(small.fabric, small.routing), net, kMtu);
        FAIL() << "a 64 KiB relay buffer was installed";
    }
    catch (const InputError& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("defaults.relay_buffer of 65536 B"), std::string::npos) << what;
        EXPECT_NE(what.find("node 0"), std::string::npos) << what;
    }
}

// The ring of the PFC deadlock above as a scale-up dimension: the relays' links use
// credits, not PFC. The same three-hop routes make a credit cycle; the guard reports it
// as a deadlock naming every NPU's port out of credits from the next NPU.
TEST_F(NpuRelayTest, CreditCycleOnAScaleUpRingIsReportedByTheGuard)
{
    const uint32_t n = 7;
    const auto dir = std::filesystem::temp_directory_path() / "mlfabric-npu-relay-test";
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "scale-up-ring.yaml").string();
    std::ofstream(path) << "name: su-ring\ndimensions:\n  - {topology: Ring, npus: " << n
                        << ", rate: 100Gbps, latency: 1us, scale_up: {vc_buffer: 16KiB}}\n";
    const LoadedFabric loaded = LoadFabric(path);
    const RoutingTable routes = ComputeRouting(loaded.fabric, RoutingAlgorithm::ShortestPath);
    EXPECT_TRUE(ChannelDependencyGraph(loaded.fabric, routes).IsCyclic());
    RoceNetwork net;
    const auto rankNode = InstallFabric(loaded.fabric, routes, net, kMtu);
    for (uint32_t i = 0; i < n; ++i)
    {
        ASSERT_TRUE(net.IsScaleUpPath(rankNode[i], rankNode[(i + 3) % n]));
        Ptr<RdmaQueuePair> qp = net.Connect(rankNode[i], rankNode[(i + 3) % n], 3);
        net.GetNic(rankNode[i])->PostSend(qp, 64 << 20, i);
    }
    RunGuard guard(net, MilliSeconds(20), MilliSeconds(2));
    guard.Start();
    Simulator::Stop(Seconds(1));
    Simulator::Run();

    ASSERT_EQ(guard.GetVerdict(), RunGuard::Verdict::PFC_DEADLOCK) << guard.GetReport();
    const std::string& report = guard.GetReport();
    EXPECT_NE(report.find("deadlock (PFC or link credits): " + std::to_string(n) +
                          " ports wait on each other"),
              std::string::npos)
        << report;
    for (uint32_t i = 0; i < n; ++i)
    {
        EXPECT_NE(report.find("host " + std::to_string(rankNode[i]) + " port"), std::string::npos)
            << report;
    }
    EXPECT_NE(report.find("priority 3 out of credits from node"), std::string::npos) << report;
    EXPECT_EQ(report.find("paused by node"), std::string::npos) << report;
    // Nothing was dropped on the way: credits, not loss, stopped the ring.
    for (uint32_t node : rankNode)
    {
        EXPECT_EQ(net.GetNic(node)->GetRelay()->GetCounters().drops, 0u) << node;
    }
    EXPECT_LT(Simulator::Now(), MilliSeconds(100));
}
