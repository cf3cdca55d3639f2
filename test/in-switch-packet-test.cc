/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// In-switch all-reduce at packet level: each member's chunks cross its link up once to the
// switch's reduction engine and the result crosses it down once. An nvls all-reduce on an
// uncongested scale-up switch against the analytical closed form with the scale-up
// framing, 2 endpoint-delay + 2L + D / B_eff, and against a ring's 2(n-1)/n; a SHARP-like
// reduction on a Clos leaf; conservation (every member receives every result chunk
// once); the reduction buffer's bound; and a small buffer's throughput limit, window x
// chunk / round trip to the switch.

#include "latency-premise.h"
#include "replay-test-support.h"

#include "ns3/config.h"
#include "ns3/fabric-loader.h"
#include "ns3/fabric-routing.h"
#include "ns3/input-error.h"
#include "ns3/rdma-backend-attach.h"
#include "ns3/reduction-member.h"
#include "ns3/roce-network.h"
#include "ns3/roce-wire.h"
#include "ns3/simulator.h"
#include "ns3/switch-reduction.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

constexpr double kLineBytesPerNs = 1600.0 / 8; // 1600 Gb/s scale-up links
constexpr double kLatencyNs = 25;
constexpr double kSwitchNs = 150; // the scale-up switch's latency
constexpr double kEndpointNs = 10;
constexpr uint32_t kMtu = 4096;   // the NICs' payload per packet: a chunk on Ethernet
constexpr uint32_t kPacket = 256; // a scale-up packet's payload: a chunk there

/** Wire time of one chunk on a scale-up link: 256 B with a 16-byte header. */
double
ChunkWireNs()
{
    return wire::LinkFramedBytes(kPacket, 16, 256, 16) / kLineBytesPerNs;
}

/** Wire time of a grant on a scale-up link: one header. */
double
GrantWireNs()
{
    return wire::LinkFramedBytes(0, 16, 256, 16) / kLineBytesPerNs;
}

std::string
ScaleUpFabric(const ettest::ScratchDir& dir, uint32_t npus)
{
    const std::string path = dir.File("scale-up.yaml");
    WriteText(path,
              "name: su\ndimensions:\n  - {name: nvlink, topology: Switch, npus: " +
                  std::to_string(npus) + ", rate: 1600Gbps, latency: 25ns, scale_up: true}\n");
    return path;
}

/** 8 hosts at 100 Gb/s, 4 under each of two leaves, lossless priority 3. */
std::string
ClosFabric(const ettest::ScratchDir& dir, const std::string& pfc = "[3]")
{
    const std::string path = dir.File("clos.yaml");
    WriteText(path,
              "name: clos8\ndefaults:\n  switch_buffer: 32MiB\n  pfc_priorities: " + pfc +
                  "\nscale_out:\n  topology: clos\n  servers: 8\n  hosts_per_leaf: 4\n"
                  "  oversubscription: 1\n  host_link: {rate: 100Gbps, latency: 1us}\n"
                  "  leaf_link: {rate: 400Gbps, latency: 1us}\n");
    return path;
}

std::string
System(const ettest::ScratchDir& dir, const std::string& allReduce)
{
    const std::string path = dir.File("system-" + allReduce + ".json");
    WriteText(path,
              "{\"endpoint-delay\": 10, \"preferred-dataset-splits\": 1, "
              "\"collective-optimization\": \"baseline\", \"all-reduce-implementation\": [\"" +
                  allReduce +
                  "\"], \"reduce-scatter-implementation\": [\"ring\"], "
                  "\"all-gather-implementation\": [\"ring\"], "
                  "\"all-to-all-implementation\": [\"direct\"]}");
    return path;
}

/** A built network with the packet backend, the members' reductions issued at 0. */
struct Direct
{
    LoadedFabric loaded;
    RoceNetwork net;
    std::vector<uint32_t> nodes;
    Ptr<RdmaNetworkBackend> backend;
    std::vector<double> doneNs;
    std::vector<uint32_t> doneCount;

    explicit Direct(const std::string& fabric)
        : loaded(LoadFabric(fabric))
    {
        nodes = net.Install(loaded.fabric, ComputeRouting(loaded.fabric, loaded.routing), kMtu);
        backend = CreateObject<RdmaNetworkBackend>();
        AttachRoceNetwork(backend, net, nodes);
        doneNs.assign(nodes.size(), -1);
        doneCount.assign(nodes.size(), 0);
    }

    void
    Reduce(const std::vector<uint32_t>& ranks, uint64_t bytes, uint64_t tag = 1)
    {
        auto members = std::make_shared<const std::vector<uint32_t>>(ranks);
        for (uint32_t r : ranks)
        {
            backend->ReduceInSwitch({r, members, bytes, tag},
                                    [this](const NetworkBackend::Contribution& c)
                                    {
                                        doneNs[c.rank] = Simulator::Now().GetPicoSeconds() / 1e3;
                                        ++doneCount[c.rank];
                                    });
        }
    }

    /** \return the engine of the switch the reduction ran in */
    Ptr<ReductionEngine>
    EngineOf(uint32_t rank) const
    {
        for (uint32_t sw : net.GetSwitches())
        {
            Ptr<SwitchReduction> r = net.GetSwitch(sw)->GetObject<SwitchReduction>();
            if (r)
            {
                return r->GetEngine();
            }
        }
        ADD_FAILURE() << "no switch reduced for rank " << rank;
        return nullptr;
    }

    /** Every member got the whole result once, and sent every chunk once. */
    void
    ExpectConserved(const std::vector<uint32_t>& ranks, uint64_t bytes, uint32_t chunk) const
    {
        const uint64_t chunks = (bytes + chunk - 1) / chunk;
        for (uint32_t r : ranks)
        {
            Ptr<ReductionMember> m = net.GetNic(nodes[r])->GetObject<ReductionMember>();
            ASSERT_TRUE(m) << "rank " << r;
            EXPECT_EQ(m->GetResultBytes(), bytes) << "rank " << r;
            EXPECT_EQ(m->GetChunksSent(), chunks) << "rank " << r;
            EXPECT_EQ(doneCount[r], 1u) << "rank " << r;
        }
    }
};

class InSwitchPacketTest : public ::testing::Test
{
  protected:
    void
    SetUp() override
    {
        WithoutSwitchAndNicLatency(); // the closed forms charge links and the scale-up switch
    }

    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

} // namespace

// The acceptance case: nvls on one scale-up switch, through the replay, against the
// analytical closed form with scale-up framing and against the ring at packet level.
TEST_F(InSwitchPacketTest, NvlsAllReduceWithinOnePercentOfClosedFormAndBeatsRing)
{
    constexpr uint32_t n = 4;
    constexpr uint64_t bytes = 4 << 20;
    ettest::ScratchDir dir;
    const std::string prefix = dir.File("w");
    for (uint32_t r = 0; r < n; ++r)
    {
        WriteRank(prefix, r, {Collective(1, EtCollectiveType::ALL_REDUCE, bytes)});
    }
    const std::string fabric = ScaleUpFabric(dir, n);
    ReplayRunConfig nvlsConfig = RunConfig(prefix, fabric, System(dir, "nvls"));
    nvlsConfig.network.mtu = kMtu;
    const ReplayResult nvls = RunReplay(nvlsConfig);
    ASSERT_TRUE(nvls.completed);
    const double goodput = kPacket / ChunkWireNs(); // bytes per ns
    const double closedForm =
        2 * kEndpointNs + 2 * kLatencyNs + static_cast<double>(bytes) / goodput;
    const double measured = LastFinishNs(nvls);
    RecordProperty("nvls_closed_form_ns", std::to_string(closedForm));
    RecordProperty("nvls_measured_ns", std::to_string(measured));
    EXPECT_LT(std::abs(measured - closedForm) / closedForm, 0.01)
        << "measured " << measured << " ns, closed form " << closedForm << " ns";
    // What the closed form leaves out: the scale-up switch's latency and the first
    // packet's store and forward.
    EXPECT_GT(measured, closedForm);
    EXPECT_LT(measured, closedForm + kSwitchNs + 2 * ChunkWireNs());
    for (const auto& s : nvls.ranks)
    {
        EXPECT_EQ(s.bytesReceived, bytes) << "rank " << s.rank;
    }
    EXPECT_EQ(nvls.networkDeliveredBytes, n * bytes); // each result once, nothing else

    Simulator::Destroy();
    Config::Reset();
    WithoutSwitchAndNicLatency();
    ReplayRunConfig ringConfig = RunConfig(prefix, fabric, System(dir, "ring"));
    ringConfig.network.mtu = kMtu;
    const ReplayResult ring = RunReplay(ringConfig);
    ASSERT_TRUE(ring.completed);
    const double ringNs = LastFinishNs(ring);
    RecordProperty("ring_measured_ns", std::to_string(ringNs));
    // The ring moves 2(n-1)/n of the data, each packet sharing its wire with the
    // acknowledgement of the neighbour's: at least 1.5 x the in-switch time.
    const double ackShare = (ChunkWireNs() + GrantWireNs()) / ChunkWireNs(); // a header each
    EXPECT_NEAR(ringNs / measured, 2.0 * (n - 1) / n * ackShare, 0.05 * 2 * (n - 1) / n);
    EXPECT_GT(ringNs / measured, 2.0 * (n - 1) / n);
}

// SHARP-like: the four hosts under one leaf of a Clos reduce in the leaf; the result is
// the closed form of one pass through the leaf, store and forward, RoCEv2 framing.
TEST_F(InSwitchPacketTest, SharpLikeReductionOnAClosLeaf)
{
    ettest::ScratchDir dir;
    Direct d(ClosFabric(dir));
    const std::vector<uint32_t> ranks{0, 1, 2, 3};
    constexpr uint64_t bytes = 4 << 20;
    d.Reduce(ranks, bytes);
    Simulator::Run();
    d.ExpectConserved(ranks, bytes, kMtu);
    // Chunks stream at line rate with 82 bytes of RoCEv2 overhead each; the result of
    // the last one comes down one chunk time and a cable after it went up.
    const double lineBytesPerNs = 100.0 / 8;
    const double chunkNs = (kMtu + 82.0) / lineBytesPerNs;
    const double chunks = static_cast<double>(bytes / kMtu);
    const double expected = (chunks + 1) * chunkNs + 2 * 1000;
    for (uint32_t r : ranks)
    {
        EXPECT_NEAR(d.doneNs[r], expected, 1) << "rank " << r;
    }
    EXPECT_LE(d.EngineOf(0)->GetPeakHeldBytes(), d.EngineOf(0)->GetBufferBytes());
    EXPECT_EQ(d.EngineOf(0)->GetOpenCount(), 0u);
    EXPECT_TRUE(d.backend->IsIdle());
}

// A buffer of four chunks: each member may have four chunks outstanding, and each slot
// turns over once per round trip to the switch (chunk up, the switch's latency, result
// down, grant down), so the reduction runs at 4 x chunk / RTT, not at line rate.
TEST_F(InSwitchPacketTest, SmallBufferLimitsThroughputToWindowOverRoundTrip)
{
    constexpr uint64_t window = 4;
    Config::SetDefault("ns3::ReductionEngine::BufferBytes", UintegerValue(window * kPacket));
    ettest::ScratchDir dir;
    Direct d(ScaleUpFabric(dir, 4));
    const std::vector<uint32_t> ranks{0, 1, 2, 3};
    constexpr uint64_t bytes = 256 << 10;
    d.Reduce(ranks, bytes);
    Simulator::Run();
    d.ExpectConserved(ranks, bytes, kPacket);
    Ptr<ReductionEngine> engine = d.EngineOf(0);
    EXPECT_LE(engine->GetPeakHeldBytes(), window * kPacket);
    EXPECT_GT(engine->GetPeakHeldBytes(), 0u);

    const double rtt = 2 * ChunkWireNs() + GrantWireNs() + 2 * kLatencyNs + kSwitchNs;
    ASSERT_LT(window * ChunkWireNs(), rtt);      // window-limited, not line-rate-limited
    const double limit = window * kPacket / rtt; // bytes per ns
    const double measured = static_cast<double>(bytes) / d.doneNs[0];
    RecordProperty("window_limit_bytes_per_ns", std::to_string(limit));
    RecordProperty("measured_bytes_per_ns", std::to_string(measured));
    EXPECT_NEAR(measured / limit, 1.0, 0.02) << measured << " B/ns against " << limit;
    EXPECT_LT(measured, 0.5 * kLineBytesPerNs);
}

// Two groups on one switch at once, a buffer for one of them: the second waits for the
// first to finish and the buffer is never exceeded.
TEST_F(InSwitchPacketTest, ReductionsShareTheBufferAndNeverExceedIt)
{
    Config::SetDefault("ns3::ReductionEngine::BufferBytes", UintegerValue(64 * kPacket));
    ettest::ScratchDir dir;
    Direct d(ScaleUpFabric(dir, 8));
    constexpr uint64_t bytes = kPacket * 300 + 17;
    d.Reduce({0, 1, 2, 3}, bytes, 1);
    d.Reduce({4, 5, 6, 7}, bytes, 1);
    Simulator::Run();
    d.ExpectConserved({0, 1, 2, 3}, bytes, kPacket);
    d.ExpectConserved({4, 5, 6, 7}, bytes, kPacket);
    EXPECT_LE(d.EngineOf(0)->GetPeakHeldBytes(), 64 * kPacket);
    EXPECT_GT(d.EngineOf(0)->GetPeakHeldBytes(), 0u);
    EXPECT_GT(d.doneNs[4], d.doneNs[0]);
}

// Members no single switch is cabled to, and a lossy link, are refused by name.
TEST_F(InSwitchPacketTest, RefusesMembersWithoutOneSwitchAndLossyLinks)
{
    ettest::ScratchDir dir;
    {
        Direct d(ClosFabric(dir));
        try
        {
            d.Reduce({0, 4}, kMtu);
            ADD_FAILURE() << "ranks under two leaves were reduced";
        }
        catch (const InputError& e)
        {
            EXPECT_NE(std::string(e.what()).find("ranks 0,4: no switch is cabled to every member"),
                      std::string::npos)
                << e.what();
        }
    }
    Simulator::Destroy();
    ettest::ScratchDir lossy;
    Direct d(ClosFabric(lossy, "[]"));
    try
    {
        d.Reduce({0, 1}, kMtu);
        ADD_FAILURE() << "a lossy link was used";
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find("can lose frames of traffic class 3"),
                  std::string::npos)
            << e.what();
    }
}
