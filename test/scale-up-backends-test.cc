/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The analytical and flow backends on scale-up dimensions: a link declared scale_up
// carries payload at its own framing's goodput (256-byte packets with a 16-byte header
// in 16-byte flits: 256/272 of the line rate) and a frame entering its switch waits the
// switch latency, as at packet level.
//
// A TP all-reduce inside one scale-up switch (ring and NVLS in-switch on every backend)
// matches its closed form, and the
// cut-through models (analytical, flow) the packet level within 1 %; the
// congestion-aware model stores and forwards per link, as ASTRA-sim's does. A message that crosses
// scale-up links and then RoCE links is charged each part's framing: per extra 4096-byte packet,
// whichever link is slower in payload (272/256 of the packet on the scale-up link, 4178/4096 on
// RoCE) sets the extra time.

#include "replay-test-support.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/congestion-aware-backend.h"
#include "ns3/double.h"
#include "ns3/fabric-loader.h"
#include "ns3/fabric-routing.h"
#include "ns3/flow-backend.h"
#include "ns3/roce-wire.h"
#include "ns3/scale-up-framing.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <utility>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

constexpr double kRateGbps = 1600;
constexpr double kLatencyNs = 25;
constexpr double kSwitchNs = 150;
constexpr double kEndpointNs = 10; // WriteSystem's endpoint-delay, once per hand-off
constexpr uint32_t kNpus = 4;
constexpr uint64_t kBytes = 4 << 20;

/** \return one server: kNpus NPUs on a default scale-up switch of 1.6 Tb/s */
std::string
OneServer(const ettest::ScratchDir& dir)
{
    const std::string path = dir.File("one-server.yaml");
    WriteText(path,
              "name: su\ndimensions:\n  - {name: nvlink, topology: Switch, npus: " +
                  std::to_string(kNpus) + ", rate: 1600Gbps, latency: 25ns, scale_up: true}\n");
    return path;
}

/** \return payload bytes per ns of a full scale-up packet stream at the line rate */
double
ScaleUpPayloadBytesPerNs()
{
    const ScaleUpSettings su;
    return kRateGbps / 8 * ScaleUpGoodput(su);
}

/**
 * \return the finish of a collective of \p type and \p bytes per rank on one server with
 *         \p algorithm
 */
double
CollectiveNs(ReplayBackendKind backend,
             const std::string& algorithm,
             EtCollectiveType type,
             uint64_t bytes)
{
    ettest::ScratchDir dir;
    const std::string prefix = dir.File("w");
    for (uint32_t r = 0; r < kNpus; ++r)
    {
        WriteRank(prefix, r, {Collective(1, type, bytes)});
    }
    ReplayRunConfig config =
        RunConfig(prefix, OneServer(dir), WriteSystem(dir, algorithm, 1), backend);
    const ReplayResult r = RunReplay(config);
    EXPECT_TRUE(r.completed) << ToString(backend) << " " << algorithm;
    const double finish = LastFinishNs(r);
    Simulator::Destroy();
    Config::Reset();
    return finish;
}

/** \return the finish of an all-reduce of kBytes on one server with \p algorithm */
double
AllReduceNs(ReplayBackendKind backend, const std::string& algorithm)
{
    return CollectiveNs(backend, algorithm, EtCollectiveType::ALL_REDUCE, kBytes);
}

/** Relative deviation of \p measured from \p expected. */
double
Deviation(double measured, double expected)
{
    return std::abs(measured - expected) / expected;
}

class ScaleUpBackendsTest : public ::testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

} // namespace

TEST_F(ScaleUpBackendsTest, FramingArithmeticIsThePacketLevels)
{
    const ScaleUpSettings su;
    EXPECT_EQ(ScaleUpFramedBytes(su, 256), wire::LinkFramedBytes(256, 16, 256, 16));
    EXPECT_EQ(ScaleUpFramedBytes(su, 0), 16U);
    EXPECT_DOUBLE_EQ(ScaleUpGoodput(su), 256.0 / 272.0);
    ScaleUpSettings odd;
    odd.payloadBytes = 200;
    odd.headerBytes = 20;
    odd.flitBytes = 32;
    // 220 bytes take 7 flits of 32.
    EXPECT_DOUBLE_EQ(ScaleUpGoodput(odd), 200.0 / 224.0);
}

TEST_F(ScaleUpBackendsTest, RingAllReduceMatchesClosedFormsAndPacketLevel)
{
    const double steps = 2.0 * (kNpus - 1);
    const double stepBytes = static_cast<double>(kBytes) / kNpus;
    const double su = ScaleUpPayloadBytesPerNs();
    // Analytical, cut-through: per step the payload at the framed goodput, both cables
    // and the switch latency, and a hand-off.
    const double analytical =
        kEndpointNs + steps * (stepBytes / su + 2 * kLatencyNs + kSwitchNs + kEndpointNs);
    // Analytical-aware, store-and-forward as ASTRA-sim's: the payload crosses each of
    // the two links in turn.
    const double awareForm =
        kEndpointNs + steps * (2 * (stepBytes / su + kLatencyNs) + kSwitchNs + kEndpointNs);
    // Packet and flow level add what they model beyond the cut-through form: one 16-byte
    // ACK per 64 packets on the same wires and one packet's store and forward.
    const double packetWire = 272;
    const double stepPackets = stepBytes / 256;
    const double lineBytesPerNs = kRateGbps / 8;
    const double packetForm =
        kEndpointNs +
        steps * ((stepPackets * packetWire + std::ceil(stepPackets / 64) * 16) / lineBytesPerNs +
                 2 * kLatencyNs + kSwitchNs + packetWire / lineBytesPerNs + kEndpointNs);

    const double packet = AllReduceNs(ReplayBackendKind::Packet, "ring");
    const double unaware = AllReduceNs(ReplayBackendKind::Analytical, "ring");
    const double aware = AllReduceNs(ReplayBackendKind::AnalyticalAware, "ring");
    const double flow = AllReduceNs(ReplayBackendKind::Flow, "ring");
    RecordProperty("packet_ns", std::to_string(packet));
    RecordProperty("analytical_ns", std::to_string(unaware));
    RecordProperty("analytical_aware_ns", std::to_string(aware));
    RecordProperty("flow_ns", std::to_string(flow));

    // Messages are delivered in whole ns by the analytical models.
    EXPECT_NEAR(unaware, analytical, steps + 1);
    EXPECT_NEAR(aware, awareForm, steps + 1);
    EXPECT_LT(Deviation(flow, packetForm), 0.001) << flow << " vs " << packetForm;
    // The cut-through models answer for the packet level; store-and-forward takes about
    // twice as long on two hops by design.
    for (double model : {unaware, flow})
    {
        EXPECT_LT(Deviation(model, packet), 0.01) << model << " ns vs packet " << packet;
    }
    // Unframed (goodput 1, no switch latency) the analytical figure would be 6 % off.
    EXPECT_GT(
        Deviation(kEndpointNs + steps * (stepBytes / lineBytesPerNs + 2 * kLatencyNs + kEndpointNs),
                  packet),
        0.05);
}

TEST_F(ScaleUpBackendsTest, NvlsAllReduceMatchesClosedFormAndPacketLevel)
{
    const double d = static_cast<double>(kBytes);
    const double su = ScaleUpPayloadBytesPerNs();
    // Up to the switch and the result down: the data once at the framed goodput, both
    // cables and the switch latency, two hand-offs.
    const double closed = 2 * kEndpointNs + d / su + 2 * kLatencyNs + kSwitchNs;
    // Store-and-forward: the data up as one message, the result down as another.
    const double awareForm = 2 * kEndpointNs + 2 * (d / su + kLatencyNs) + kSwitchNs;
    const double packet = AllReduceNs(ReplayBackendKind::Packet, "nvls");
    const double unaware = AllReduceNs(ReplayBackendKind::Analytical, "nvls");
    const double aware = AllReduceNs(ReplayBackendKind::AnalyticalAware, "nvls");
    const double flow = AllReduceNs(ReplayBackendKind::Flow, "nvls");
    RecordProperty("packet_ns", std::to_string(packet));
    RecordProperty("analytical_ns", std::to_string(unaware));
    RecordProperty("analytical_aware_ns", std::to_string(aware));
    RecordProperty("flow_ns", std::to_string(flow));
    EXPECT_NEAR(unaware, closed, 2);
    EXPECT_NEAR(aware, awareForm, 2);
    EXPECT_LT(Deviation(unaware, packet), 0.01) << unaware << " ns vs packet " << packet;
    // Flow level: within 1 % of the closed form and of the packet level; beyond the
    // closed form it charges the up flow's first chunk before the result starts down.
    EXPECT_LT(Deviation(flow, closed), 0.01) << flow << " ns vs closed form " << closed;
    EXPECT_LT(Deviation(flow, packet), 0.01) << flow << " ns vs packet " << packet;
    EXPECT_GT(flow, closed);
    // A ring moves 2(n-1)/n of the data over each NPU link; NVLS moves it once.
    const double ring = AllReduceNs(ReplayBackendKind::Flow, "ring");
    RecordProperty("flow_ring_ns", std::to_string(ring));
    const double ringForm =
        kEndpointNs +
        2.0 * (kNpus - 1) * (d / kNpus / su + 2 * kLatencyNs + kSwitchNs + kEndpointNs);
    EXPECT_LT(Deviation(ring, ringForm), 0.01) << ring << " ns vs ring closed form " << ringForm;
    // Their bandwidth terms stand in 2(n-1)/n = 1.5 for n = 4; latencies add the rest.
    EXPECT_GT(ring / flow, 2.0 * (kNpus - 1) / kNpus) << "ring " << ring << " ns, nvls " << flow;
    EXPECT_LT(Deviation(ring / flow, ringForm / closed), 0.02)
        << "ring " << ring << " ns, nvls " << flow << " ns";
}

// NVLS reduce-scatter: D up, its D/n shard down, paced by the data up: the all-reduce's
// 2E + 2L + S + D/B_eff. NVLS all-gather of a share S_r: S_r up, the n-1 others' shares
// down: 2E + 2L + S + (n-1) S_r / B_eff. The packet level adds one packet's store and
// forward; every backend stays within 1 % of the forms, the flow level within 0.01 % of
// the packet level.
TEST_F(ScaleUpBackendsTest, NvlsReduceScatterAndAllGatherMatchTheirClosedForms)
{
    const double d = static_cast<double>(kBytes);
    const double su = ScaleUpPayloadBytesPerNs();
    const double fixed = 2 * kEndpointNs + 2 * kLatencyNs + kSwitchNs;
    const double rsForm = fixed + d / su;
    const uint64_t share = kBytes / kNpus;
    const double agForm = fixed + (kNpus - 1) * static_cast<double>(share) / su;
    std::map<ReplayBackendKind, std::pair<double, double>> finish; // reduce-scatter, all-gather
    for (auto backend :
         {ReplayBackendKind::Analytical, ReplayBackendKind::Flow, ReplayBackendKind::Packet})
    {
        const double tolerance = backend == ReplayBackendKind::Packet ? 0.01 : 0.001;
        const double rs = CollectiveNs(backend, "nvls", EtCollectiveType::REDUCE_SCATTER, kBytes);
        const double ag = CollectiveNs(backend, "nvls", EtCollectiveType::ALL_GATHER, share);
        RecordProperty(ToString(backend) + "_reduce_scatter_ns", std::to_string(rs));
        RecordProperty(ToString(backend) + "_all_gather_ns", std::to_string(ag));
        EXPECT_LT(Deviation(rs, rsForm), tolerance) << ToString(backend) << " " << rs << " ns";
        EXPECT_LT(Deviation(ag, agForm), tolerance) << ToString(backend) << " " << ag << " ns";
        // Against the ring: a reduce-scatter's (n-1)/n D over (n-1) steps of latency, an
        // all-gather's (n-1) S_r over as many.
        const double ringRs =
            CollectiveNs(backend, "ring", EtCollectiveType::REDUCE_SCATTER, kBytes);
        const double ringAg = CollectiveNs(backend, "ring", EtCollectiveType::ALL_GATHER, share);
        RecordProperty(ToString(backend) + "_ring_reduce_scatter_ns", std::to_string(ringRs));
        RecordProperty(ToString(backend) + "_ring_all_gather_ns", std::to_string(ringAg));
        const double steps = kNpus - 1.0;
        const double ringStepFixed = 2 * kLatencyNs + kSwitchNs + kEndpointNs;
        EXPECT_LT(Deviation(ringRs, kEndpointNs + steps * (d / kNpus / su + ringStepFixed)), 0.01)
            << ToString(backend) << " ring " << ringRs;
        EXPECT_LT(Deviation(ringAg, kEndpointNs + steps * (share / su + ringStepFixed)), 0.01)
            << ToString(backend) << " ring " << ringAg;
        EXPECT_LT(ag, ringAg);
        finish[backend] = {rs, ag};
    }
    // The flow level streams the result one packet behind the data, as the packet level.
    const auto& flow = finish[ReplayBackendKind::Flow];
    const auto& packet = finish[ReplayBackendKind::Packet];
    EXPECT_LT(Deviation(flow.first, packet.first), 0.0001)
        << "reduce-scatter: flow " << flow.first << " ns, packet " << packet.first;
    EXPECT_LT(Deviation(flow.second, packet.second), 0.0001)
        << "all-gather: flow " << flow.second << " ns, packet " << packet.second;
}

namespace
{

/**
 * \return a fabric of two servers of four NPUs: a 100 Gb/s scale-up switch each and one
 *         RoCE switch for all eight NICs at \p roceGbps
 */
std::string
TwoServers(const ettest::ScratchDir& dir, uint32_t roceGbps)
{
    const std::string path = dir.File("two-servers-" + std::to_string(roceGbps) + ".yaml");
    const std::string link = "{rate: " + std::to_string(roceGbps) + "Gbps, latency: 500ns}";
    WriteText(path,
              "name: mixed\nrouting: dimension-order\ndimensions:\n"
              "  - {name: nvlink, topology: Switch, npus: 4, rate: 100Gbps, latency: 25ns, "
              "scale_up: true}\n"
              "scale_out:\n  topology: clos\n  servers: 2\n  hosts_per_leaf: 8\n  spines: 0\n"
              "  host_link: " +
                  link + "\n  leaf_link: " + link + "\n");
    return path;
}

/** \return when a message of \p bytes from rank 0 to rank 5 arrives, ps */
template <typename Backend>
int64_t
ArrivalPs(Ptr<Backend> backend, const std::string& fabric, uint64_t bytes)
{
    const LoadedFabric loaded = LoadFabric(fabric);
    backend->SetFabric(loaded.fabric, ComputeRouting(loaded.fabric, loaded.routing));
    int64_t at = -1;
    backend->Send({0, 5, bytes, 1},
                  nullptr,
                  [&at](const NetworkBackend::Message&)
                  { at = Simulator::Now().GetPicoSeconds(); });
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_GE(at, 0) << "message not delivered";
    return at;
}

/** \return the extra ps of \p extra more 4096-byte packets on rank 0 -> 5 */
template <typename MakeBackend>
double
ExtraPs(const std::string& fabric, uint32_t extra, MakeBackend make)
{
    constexpr uint64_t base = 64 * 4096;
    return static_cast<double>(ArrivalPs(make(), fabric, base + extra * 4096ULL) -
                               ArrivalPs(make(), fabric, base));
}

} // namespace

TEST_F(ScaleUpBackendsTest, ScaleUpThenRoceIsFramedByEachLink)
{
    ettest::ScratchDir dir;
    constexpr uint32_t extra = 256;
    const ScaleUpSettings su;
    // Extra picoseconds per 4096-byte packet on each link class.
    const double scaleUpPs = ScaleUpFramedBytes(su, 4096) * 8.0 / 100e9 * 1e12; // 348.16 ns
    const double roceFraction = 4096.0 / (4096 + wire::kDataOverhead);
    for (uint32_t roceGbps : {100U, 90U})
    {
        const std::string fabric = TwoServers(dir, roceGbps);
        const double rocePs = (4096 + wire::kDataOverhead) * 8.0 / (roceGbps * 1e9) * 1e12;
        // 100 Gb/s RoCE: the scale-up link is slower in payload; 90 Gb/s: RoCE is.
        const double expected = std::max(scaleUpPs, rocePs) * extra;
        const double flow = ExtraPs(fabric,
                                    extra,
                                    []()
                                    {
                                        auto b = CreateObject<FlowBackend>();
                                        b->SetAttribute("AckLoad", BooleanValue(false));
                                        return b;
                                    });
        EXPECT_LT(Deviation(flow, expected), 1e-6)
            << roceGbps << " Gb/s RoCE: flow " << flow << " ps, closed form " << expected;
        const double aware =
            ExtraPs(fabric,
                    extra,
                    [roceFraction]()
                    {
                        auto b = CreateObject<CongestionAwareBackend>();
                        b->SetAttribute("GoodputFraction", DoubleValue(roceFraction));
                        return b;
                    });
        // Store-and-forward: the extra bytes cross all four links in turn, each at its
        // own payload rate (ASTRA-sim's B/ns); whole ns per message.
        const double awareExpected =
            extra * (2 * scaleUpPs + 2 * 4096 * 8.0 / (roceGbps * 1e9 * roceFraction) * 1e12);
        EXPECT_NEAR(aware, awareExpected, 2000)
            << roceGbps << " Gb/s RoCE: analytical-aware " << aware << " ps";
    }
    EXPECT_GT(scaleUpPs, (4096 + wire::kDataOverhead) * 8.0 / 100e9 * 1e12);
    EXPECT_LT(scaleUpPs, (4096 + wire::kDataOverhead) * 8.0 / 90e9 * 1e12);
}

TEST_F(ScaleUpBackendsTest, SwitchLatencyEntersEveryScaleUpHopIntoTheSwitch)
{
    // Raising the switch latency by 1 us delays a one-packet message inside a server
    // by exactly 1 us on the flow and analytical-aware backends.
    ettest::ScratchDir dir;
    auto server = [&dir](const std::string& latency)
    {
        const std::string path = dir.File("server-" + latency + ".yaml");
        WriteText(path,
                  "name: su\ndimensions:\n  - {name: nvlink, topology: Switch, npus: 4, "
                  "rate: 1600Gbps, latency: 25ns, scale_up: {switch_latency: " +
                      latency + "}}\n");
        return path;
    };
    auto arrival = [](auto backend, const std::string& fabric)
    {
        const LoadedFabric loaded = LoadFabric(fabric);
        backend->SetFabric(loaded.fabric, ComputeRouting(loaded.fabric, loaded.routing));
        int64_t at = -1;
        backend->Send({0, 2, 256, 1},
                      nullptr,
                      [&at](const NetworkBackend::Message&)
                      { at = Simulator::Now().GetPicoSeconds(); });
        Simulator::Run();
        Simulator::Destroy();
        return at;
    };
    const std::string fast = server("150ns");
    const std::string slow = server("1150ns");
    EXPECT_EQ(arrival(CreateObject<FlowBackend>(), slow) -
                  arrival(CreateObject<FlowBackend>(), fast),
              1'000'000);
    EXPECT_EQ(arrival(CreateObject<CongestionAwareBackend>(), slow) -
                  arrival(CreateObject<CongestionAwareBackend>(), fast),
              1'000'000);
}

TEST_F(ScaleUpBackendsTest, FlowLevelTakesThePacketLevelsAckCadence)
{
    // One setting, ns3::RdmaNic::ScaleUpAckInterval, moves both levels. An ACK per packet
    // puts a 16-byte header-only frame on every NPU's uplink per 272-byte data frame it
    // receives, so the bandwidth term of the ring grows by (272 + 16) / (272 + 16 / 64).
    const auto run = [](uint32_t interval)
    {
        Config::SetDefault("ns3::RdmaNic::ScaleUpAckInterval", UintegerValue(interval));
        ettest::ScratchDir dir;
        const std::string prefix = dir.File("w");
        for (uint32_t r = 0; r < kNpus; ++r)
        {
            WriteRank(prefix, r, {Collective(1, EtCollectiveType::ALL_REDUCE, kBytes)});
        }
        const ReplayResult r = RunReplay(RunConfig(
            prefix, OneServer(dir), WriteSystem(dir, "ring", 1), ReplayBackendKind::Flow));
        EXPECT_TRUE(r.completed);
        EXPECT_NE(r.network.find("ACK every " + std::to_string(interval) + " packets"),
                  std::string::npos)
            << r.network;
        const double finish = LastFinishNs(r);
        Simulator::Destroy();
        Config::Reset();
        return finish;
    };
    const double perPacket = run(1);
    const double coalesced = run(64);
    const double bandwidthNs = 2.0 * (kNpus - 1) / kNpus * kBytes / ScaleUpPayloadBytesPerNs();
    const double growth = (272.0 + 16.0) / (272.0 + 16.0 / 64) - 1;
    EXPECT_NEAR(perPacket - coalesced, bandwidthNs * growth, 0.01 * bandwidthNs * growth);
}
