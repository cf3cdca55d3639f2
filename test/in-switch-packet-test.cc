/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// In-switch collectives at packet level: each member's chunks cross its link up once to
// the switch's reduction engine and the result crosses it down once. An nvls all-reduce on an
// uncongested scale-up switch against the analytical closed form with the scale-up
// framing, 2 endpoint-delay + 2L + D / B_eff, and against a ring's 2(n-1)/n; a SHARP-like
// reduction on a Clos leaf; conservation (every member receives every result chunk
// once); the reduction buffer's bound; a small buffer's throughput limit, window x
// chunk / round trip to the switch; and the reduce-scatter's shards and the all-gather's
// multicast with a late member.

#include "in-switch-inputs.h"
#include "latency-premise.h"
#include "replay-test-support.h"

#include "ns3/config.h"
#include "ns3/fabric-loader.h"
#include "ns3/fabric-routing.h"
#include "ns3/input-error.h"
#include "ns3/rdma-backend-attach.h"
#include "ns3/reduction-member.h"
#include "ns3/roce-header.h"
#include "ns3/roce-network.h"
#include "ns3/roce-wire.h"
#include "ns3/simulator.h"
#include "ns3/switch-reduction.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
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

/** \return the wire bytes of a grant on Ethernet: an ACK frame's */
double
EthernetGrantBytes()
{
    RoceHeaderPtr h = MakeRoceHeader();
    h->type = RoceHeader::ACK;
    return h->GetWireBytes();
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
    Reduce(const std::vector<uint32_t>& ranks,
           uint64_t bytes,
           uint64_t tag = 1,
           NetworkBackend::InSwitchOp op = NetworkBackend::InSwitchOp::AllReduce,
           const std::map<uint32_t, double>& lateNs = {})
    {
        auto members = std::make_shared<const std::vector<uint32_t>>(ranks);
        for (uint32_t r : ranks)
        {
            const NetworkBackend::Contribution c{r, members, bytes, tag, op};
            auto contribute = [this, c]()
            {
                backend->ReduceInSwitch(c,
                                        [this](const NetworkBackend::Contribution& c)
                                        {
                                            doneNs[c.rank] =
                                                Simulator::Now().GetPicoSeconds() / 1e3;
                                            ++doneCount[c.rank];
                                        });
            };
            auto late = lateNs.find(r);
            if (late == lateNs.end())
            {
                contribute();
            }
            else
            {
                Simulator::Schedule(NanoSeconds(late->second), contribute);
            }
        }
    }

    /** \return the switch's side of the reductions */
    Ptr<SwitchReduction>
    SwitchOf() const
    {
        for (uint32_t sw : net.GetSwitches())
        {
            if (Ptr<SwitchReduction> r = net.GetSwitch(sw)->GetObject<SwitchReduction>())
            {
                return r;
            }
        }
        return nullptr;
    }

    /** \param rank a member \return its NIC's side of the reductions */
    Ptr<ReductionMember>
    MemberOf(uint32_t rank) const
    {
        return net.GetNic(nodes[rank])->GetObject<ReductionMember>();
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
    ReplayRunConfig nvlsConfig = RunConfig(prefix, fabric, AllReduceSystem(dir, "nvls"));
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
    ReplayRunConfig ringConfig = RunConfig(prefix, fabric, AllReduceSystem(dir, "ring"));
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
    Direct d(ClosOfEightHosts(dir));
    const std::vector<uint32_t> ranks{0, 1, 2, 3};
    constexpr uint64_t bytes = 4 << 20;
    d.Reduce(ranks, bytes);
    Simulator::Run();
    d.ExpectConserved(ranks, bytes, kMtu);
    // Chunks stream at line rate with 82 bytes of RoCEv2 overhead each; the result of
    // the last one comes down one chunk time and a cable after it went up, behind the
    // grants that shared the down link: the 1 MiB window of 256 chunks (WindowBytes) is
    // granted on a quarter at a time, 12 times for 1024 chunks.
    const double lineBytesPerNs = 100.0 / 8;
    const double chunkNs = (kMtu + 82.0) / lineBytesPerNs;
    const double chunks = static_cast<double>(bytes / kMtu);
    const double grants = (chunks - 256) / 64;
    const double expected =
        (chunks + 1) * chunkNs + 2 * 1000 + grants * EthernetGrantBytes() / lineBytesPerNs;
    for (uint32_t r : ranks)
    {
        EXPECT_NEAR(d.doneNs[r], expected, 1) << "rank " << r;
    }
    EXPECT_LE(d.EngineOf(0)->GetPeakHeldBytes(), d.EngineOf(0)->GetBufferBytes());
    EXPECT_EQ(d.EngineOf(0)->GetOpenCount(), 0u);
    EXPECT_TRUE(d.backend->IsIdle());
}

// SHARP-like reduce-scatter and all-gather in the leaf of four hosts (shards of 16 chunks,
// chunk k of shard k mod 4 in turn). Reduce-scatter: rank r's last chunk is chunk
// 60 + r of 64, so its result is down (62 + r) chunk times and two cables after the
// start. All-gather: each rank's down link carries the 3 x 16 chunks of the others from
// the first one's arrival on, 49 chunk times and two cables.
TEST_F(InSwitchPacketTest, SharpLikeReduceScatterAndAllGatherOnAClosLeaf)
{
    const double chunkNs = (kMtu + 82.0) / (100.0 / 8);
    const std::vector<uint32_t> ranks{0, 1, 2, 3};
    {
        ettest::ScratchDir dir;
        Direct d(ClosOfEightHosts(dir));
        d.Reduce(ranks, 64 * kMtu, 1, NetworkBackend::InSwitchOp::ReduceScatter);
        Simulator::Run();
        for (uint32_t r : ranks)
        {
            EXPECT_NEAR(d.doneNs[r], (62 + r) * chunkNs + 2 * 1000, 1) << "rank " << r;
            EXPECT_EQ(d.MemberOf(r)->GetResultBytes(), 16 * kMtu) << "rank " << r;
            EXPECT_EQ(d.MemberOf(r)->GetPayloadSent(), 64 * kMtu) << "rank " << r;
        }
        EXPECT_TRUE(d.backend->IsIdle());
    }
    Simulator::Destroy();
    {
        ettest::ScratchDir dir;
        Direct d(ClosOfEightHosts(dir));
        d.Reduce(ranks, 16 * kMtu, 1, NetworkBackend::InSwitchOp::AllGather);
        Simulator::Run();
        for (uint32_t r : ranks)
        {
            EXPECT_NEAR(d.doneNs[r], 49 * chunkNs + 2 * 1000, 1) << "rank " << r;
            EXPECT_EQ(d.MemberOf(r)->GetResultBytes(), 48 * kMtu) << "rank " << r;
            EXPECT_EQ(d.MemberOf(r)->GetPayloadSent(), 16 * kMtu) << "rank " << r;
        }
        EXPECT_EQ(d.EngineOf(0)->GetReducedChunks(), 0u);
        EXPECT_TRUE(d.backend->IsIdle());
    }
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

// An aggregation tree over the Clos's two leaves and its spine, every engine's buffer 4
// chunks: each switch holds at most its buffer, every byte crosses each hop once, and the
// leaves' windows bound the throughput. A leaf's chunk is held from its hosts'
// contributions until the result's last copy starts down, and its freed slot comes back
// as the next chunk: the grant behind that result copy, a cable, the host's chunk and a
// cable, up to the spine and back down (a quarter chunk time and a cable each way).
TEST_F(InSwitchPacketTest, TreeOverTwoLeavesHoldsEachSwitchToItsBuffer)
{
    constexpr uint64_t window = 4;
    Config::SetDefault("ns3::ReductionEngine::BufferBytes", UintegerValue(window * kMtu));
    ettest::ScratchDir dir;
    Direct d(ClosOfEightHosts(dir));
    std::vector<uint32_t> ranks;
    for (uint32_t r = 0; r < 8; ++r)
    {
        ranks.push_back(r);
    }
    constexpr uint64_t bytes = 1 << 20;
    d.Reduce(ranks, bytes);
    Simulator::Run();
    d.ExpectConserved(ranks, bytes, kMtu);
    uint32_t engines = 0;
    uint64_t sentUp = 0;
    uint64_t received = 0;
    for (uint32_t sw : d.net.GetSwitches())
    {
        Ptr<SwitchReduction> r = d.net.GetSwitch(sw)->GetObject<SwitchReduction>();
        if (!r)
        {
            continue;
        }
        ++engines;
        EXPECT_LE(r->GetEngine()->GetPeakHeldBytes(), window * kMtu) << "switch " << sw;
        EXPECT_EQ(r->GetEngine()->GetReducedChunks(), bytes / kMtu) << "switch " << sw;
        EXPECT_EQ(r->GetEngine()->GetOpenCount(), 0u) << "switch " << sw;
        sentUp += r->GetPayloadSentUp();
        received += r->GetPayloadReceived();
    }
    EXPECT_EQ(engines, 3u);
    EXPECT_EQ(sentUp, 2 * bytes); // each leaf's partial sum, once
    EXPECT_EQ(received,
              8 * bytes + 2 * bytes); // the hosts' data at the leaves, the sums at the spine
    EXPECT_TRUE(d.backend->IsIdle());

    const double hostBytesPerNs = 100.0 / 8;
    const double chunkNs = (kMtu + 82.0) / hostBytesPerNs;
    const double grantNs = EthernetGrantBytes() / hostBytesPerNs;
    const double rtt = 2.5 * chunkNs + grantNs + 4 * 1000;
    const double limit = window * kMtu / rtt;
    const double measured = static_cast<double>(bytes) / d.doneNs[0];
    RecordProperty("window_limit_bytes_per_ns", std::to_string(limit));
    RecordProperty("measured_bytes_per_ns", std::to_string(measured));
    EXPECT_NEAR(measured / limit, 1.0, 0.03) << measured << " B/ns against " << limit;
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

// An nvls reduce-scatter of a size n does not divide: every member sends all D up, the
// switch sends each result chunk to its shard's owner once, shard i being floor(D / n)
// and a byte more for i < D mod n; within a buffer of a few chunks as well.
TEST_F(InSwitchPacketTest, ReduceScatterGivesEachMemberItsShardOnce)
{
    constexpr uint32_t n = 4;
    constexpr uint64_t bytes = kPacket * 300 + 7; // shards of 19202, 19202, 19202, 19201
    for (uint64_t buffer : {uint64_t{8} << 20, uint64_t{6} * kPacket})
    {
        Config::SetDefault("ns3::ReductionEngine::BufferBytes", UintegerValue(buffer));
        ettest::ScratchDir dir;
        Direct d(ScaleUpFabric(dir, n));
        const std::vector<uint32_t> ranks{0, 1, 2, 3};
        d.Reduce(ranks, bytes, 1, NetworkBackend::InSwitchOp::ReduceScatter);
        Simulator::Run();
        uint64_t results = 0;
        for (uint32_t r = 0; r < n; ++r)
        {
            Ptr<ReductionMember> m = d.MemberOf(r);
            ASSERT_TRUE(m) << "rank " << r;
            EXPECT_EQ(m->GetResultBytes(), r < 3 ? 19202u : 19201u) << "rank " << r;
            EXPECT_EQ(m->GetPayloadSent(), bytes) << "rank " << r;
            EXPECT_EQ(m->GetChunksSent(), 4u * 76u) << "rank " << r; // 76 chunks a shard
            EXPECT_EQ(d.doneCount[r], 1u) << "rank " << r;
            results += m->GetResultBytes();
        }
        EXPECT_EQ(results, bytes);
        EXPECT_EQ(d.SwitchOf()->GetPayloadReceived(), n * bytes);
        EXPECT_EQ(d.SwitchOf()->GetPayloadSent(), bytes);
        EXPECT_LE(d.EngineOf(0)->GetPeakHeldBytes(), buffer);
        EXPECT_EQ(d.EngineOf(0)->GetOpenCount(), 0u);
        Simulator::Destroy();
        Config::Reset();
        WithoutSwitchAndNicLatency();
    }
}

// An nvls all-gather with one member 50 us late: nothing is reduced, each member's share
// goes up once and down to the n-1 others; the others finish only once the late share
// has come down, and the late member as soon as its own chunks are out (the others'
// shares reached it while it waited).
TEST_F(InSwitchPacketTest, AllGatherMulticastsEachShareToTheOthers)
{
    constexpr uint32_t n = 4;
    constexpr uint64_t share = kPacket * 100 + 5;
    constexpr double lateNs = 50000;
    ettest::ScratchDir dir;
    Direct d(ScaleUpFabric(dir, n));
    d.Reduce({0, 1, 2, 3}, share, 1, NetworkBackend::InSwitchOp::AllGather, {{2, lateNs}});
    Simulator::Run();
    for (uint32_t r = 0; r < n; ++r)
    {
        Ptr<ReductionMember> m = d.MemberOf(r);
        ASSERT_TRUE(m) << "rank " << r;
        EXPECT_EQ(m->GetResultBytes(), (n - 1) * share) << "rank " << r;
        EXPECT_EQ(m->GetPayloadSent(), share) << "rank " << r;
        EXPECT_EQ(m->GetChunksSent(), 101u) << "rank " << r;
        EXPECT_EQ(d.doneCount[r], 1u) << "rank " << r;
    }
    EXPECT_EQ(d.SwitchOf()->GetPayloadReceived(), n * share);
    EXPECT_EQ(d.SwitchOf()->GetPayloadSent(), n * (n - 1) * share);
    EXPECT_EQ(d.EngineOf(0)->GetReducedChunks(), 0u);
    // The late share streams up and is multicast down one packet behind: the others
    // finish its up time, both cables and the switch after it starts (one packet's
    // store and forward and a grant at most beyond); the late member once its last chunk
    // has gone.
    const double shareNs = static_cast<double>(share) / (kPacket / ChunkWireNs());
    for (uint32_t r : {0u, 1u, 3u})
    {
        EXPECT_GT(d.doneNs[r], lateNs + shareNs + 2 * kLatencyNs + kSwitchNs) << "rank " << r;
        EXPECT_LT(d.doneNs[r],
                  lateNs + shareNs + 2 * kLatencyNs + kSwitchNs + 2 * ChunkWireNs() + GrantWireNs())
            << "rank " << r;
    }
    EXPECT_NEAR(d.doneNs[2], lateNs + shareNs, ChunkWireNs());
    EXPECT_LT(d.doneNs[2], d.doneNs[0]);
}

// A reduce-scatter of members no single switch is cabled to (a tree runs all-reduce only),
// and a lossy link, are refused by name.
TEST_F(InSwitchPacketTest, RefusesTreeReduceScatterAndLossyLinks)
{
    ettest::ScratchDir dir;
    {
        Direct d(ClosOfEightHosts(dir));
        try
        {
            d.Reduce({0, 4}, kMtu, 1, NetworkBackend::InSwitchOp::ReduceScatter);
            ADD_FAILURE() << "a reduce-scatter of ranks under two leaves was reduced";
        }
        catch (const InputError& e)
        {
            EXPECT_NE(std::string(e.what()).find("no switch is cabled to every member, and an "
                                                 "aggregation tree over several switches runs "
                                                 "all-reduce only"),
                      std::string::npos)
                << e.what();
        }
    }
    Simulator::Destroy();
    ettest::ScratchDir lossy;
    Direct d(ClosOfEightHosts(lossy, "[]"));
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
