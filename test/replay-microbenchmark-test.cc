/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Every ASTRA-sim microbenchmark trace (all_reduce, all_gather, reduce_scatter,
// all_to_all on 4, 8 and 16 NPUs, 1 MB) replayed on the matching Ring_<N>npus.yml
// with Ring_4chunks.json, at packet level and on both analytical networks: every rank
// finishes, the bytes sent equal the bytes received and the collective's traffic, per
// rank and in total, and the finish times are the ring's closed form: exact (integer
// ns, ASTRA-sim's arithmetic) on the analytical networks, within 3 % at packet level
// once the RoCEv2 wire overhead and the NICs' transmit and receive pipelines are counted.

#include "replay-test-support.h"

#include "ns3/analytical-topology.h"
#include "ns3/latency-settings.h"
#include "ns3/system-config.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <regex>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

struct Trace
{
    std::string collective; //!< all_reduce, ...
    uint32_t npus;          //!< from the folder name
    std::string prefix;     //!< workload prefix
};

/** Every microbenchmark trace folder under the shared data, sorted. */
std::vector<Trace>
FindTraces()
{
    std::vector<Trace> traces;
    const std::filesystem::path root = kAstra + "workload/microbenchmarks";
    const std::regex folder("([0-9]+)npus_1MB");
    std::error_code ec;
    for (const auto& coll : std::filesystem::directory_iterator(root, ec))
    {
        for (const auto& dir : std::filesystem::directory_iterator(coll.path(), ec))
        {
            std::smatch m;
            const std::string name = dir.path().filename().string();
            if (std::regex_match(name, m, folder))
            {
                const std::string c = coll.path().filename().string();
                traces.push_back(
                    {c, static_cast<uint32_t>(std::stoul(m[1])), (dir.path() / c).string()});
            }
        }
    }
    std::sort(traces.begin(),
              traces.end(),
              [](const Trace& a, const Trace& b)
              { return std::tie(a.collective, a.npus) < std::tie(b.collective, b.npus); });
    return traces;
}

/** The ring's per-chunk schedule of one collective: steps, message size, reductions. */
struct RingShape
{
    uint32_t steps;      //!< messages each rank sends, in sequence
    uint64_t message;    //!< bytes of each
    uint32_t reductions; //!< messages reduced locally (local-mem-bw)
};

RingShape
ShapeOf(const std::string& collective, uint32_t n, uint64_t chunk)
{
    if (collective == "all_reduce")
    {
        return {2 * (n - 1), chunk / n, n - 1};
    }
    if (collective == "reduce_scatter")
    {
        return {n - 1, chunk / n, n - 1};
    }
    if (collective == "all_gather")
    {
        return {n - 1, chunk, 0};
    }
    return {n * (n - 1) / 2, chunk / n, 0};
}

class Microbenchmarks : public testing::TestWithParam<Trace>
{
  protected:
    static constexpr uint32_t kChunks = 4;      // preferred-dataset-splits
    static constexpr uint64_t kChunk = 1 << 18; // 1 MiB / 4
    static constexpr double kLatencyNs = 500;   // Ring_<N>npus.yml
    static constexpr double kGbps = 50;         // GB/s, GB = 2^30 B

    const SystemConfig m_system =
        LoadSystemConfig(kAstra + "system/native_collectives/Ring_4chunks.json");

    std::string
    Fabric(uint32_t npus) const
    {
        return kAstra + "network/analytical/Ring_" + std::to_string(npus) + "npus.yml";
    }

    /** Local reduction of one message: 3 accesses at local-mem-bw, each whole ns. */
    uint64_t
    ReductionNs(uint64_t bytes) const
    {
        return 3 * static_cast<uint64_t>(static_cast<double>(bytes) / m_system.localMemBwGBps);
    }

    /** Replay and check completion and bytes; \return the result. */
    ReplayResult
    ReplayAndCheckBytes(const Trace& t, ReplayBackendKind backend) const
    {
        ReplayRunConfig config = RunConfig(t.prefix,
                                           Fabric(t.npus),
                                           kAstra + "system/native_collectives/Ring_4chunks.json",
                                           backend);
        const ReplayResult r = RunReplay(config);
        EXPECT_TRUE(r.completed) << ToString(backend);
        const RingShape shape = ShapeOf(t.collective, t.npus, kChunk);
        const uint64_t perRank = kChunks * shape.steps * shape.message;
        EXPECT_EQ(r.ranks.size(), t.npus);
        for (const auto& s : r.ranks)
        {
            EXPECT_TRUE(s.finished) << "rank " << s.rank;
            EXPECT_EQ(s.bytesSent, perRank) << "rank " << s.rank;
            EXPECT_EQ(s.bytesReceived, perRank) << "rank " << s.rank;
            EXPECT_EQ(s.collectives, 1u);
        }
        EXPECT_EQ(r.GetBytesSent(), perRank * t.npus);
        EXPECT_EQ(r.GetBytesReceived(), r.GetBytesSent());
        EXPECT_EQ(r.networkDeliveredBytes, r.GetBytesSent()) << ToString(backend);
        EXPECT_EQ(r.collectives.size(), 1u);
        return r;
    }
};

} // namespace

TEST_P(Microbenchmarks, AnalyticalFinishTimesAreAstraSimArithmetic)
{
    const Trace t = GetParam();
    const RingShape shape = ShapeOf(t.collective, t.npus, kChunk);
    const uint64_t e = m_system.GetEndpointDelayNs();
    const auto hop = static_cast<uint64_t>(
        kLatencyNs + static_cast<double>(shape.message) / AnalyticalTopology::ToBytesPerNs(kGbps));
    const uint64_t expected =
        kChunks * (e + shape.steps * (hop + e) + shape.reductions * ReductionNs(shape.message));
    for (auto backend : {ReplayBackendKind::Analytical, ReplayBackendKind::AnalyticalAware})
    {
        const ReplayResult r = ReplayAndCheckBytes(t, backend);
        for (const auto& s : r.ranks)
        {
            // A ring in one direction never queues: both networks give the same time.
            EXPECT_EQ(s.finish, NanoSeconds(expected)) << ToString(backend) << " rank " << s.rank;
            EXPECT_EQ(s.exposedComm, s.finish);
        }
        RecordProperty(ToString(backend) + "_finish_ns", std::to_string(expected));
    }
}

TEST_P(Microbenchmarks, PacketLevelCompletesWithinThreePercentOfTheRing)
{
    const Trace t = GetParam();
    // Ring neighbours are NIC to NIC: every step pays both NICs' pipelines once.
    const LatencySettings nic = LatencySettings::Current();
    const double pipelinesNs = (nic.nicTransmit + nic.nicReceive).GetNanoSeconds();
    const ReplayResult r = ReplayAndCheckBytes(t, ReplayBackendKind::Packet);
    const RingShape shape = ShapeOf(t.collective, t.npus, kChunk);
    const double rate = kGbps * static_cast<double>(1U << 30) / 1e9; // B/ns
    const double goodput = rate * 4096 / (4096 + 82.0);
    const double e = static_cast<double>(m_system.GetEndpointDelayNs());
    const double expected =
        kChunks * (e +
                   shape.steps * (static_cast<double>(shape.message) / goodput + kLatencyNs +
                                  pipelinesNs + e) +
                   shape.reductions * static_cast<double>(ReductionNs(shape.message)));
    for (const auto& s : r.ranks)
    {
        const double measured = s.finish.GetPicoSeconds() / 1e3;
        EXPECT_LT(std::abs(measured - expected) / expected, 0.03)
            << "rank " << s.rank << ": " << measured << " ns, closed form " << expected;
    }
    RecordProperty("packet_finish_ns", std::to_string(LastFinishNs(r)));
    RecordProperty("closed_form_ns", std::to_string(expected));
}

TEST(MicrobenchmarkTraces, AllTwelveArePresent)
{
    EXPECT_EQ(FindTraces().size(), 12u);
}

// ASTRA-sim's validated HGX-H100 pair: an 8-NPU switch (400 GB/s, 936.25 ns per link,
// two hops) and HGX-H100-validated.json (4 chunks, 2 active per dimension, local-mem-bw
// 3350). Without congestion the two active chunks run side by side: two rounds.
TEST(MicrobenchmarkTraces, HgxH100CongestionUnawareIsTwoRoundsOfTwoChunks)
{
    const SystemConfig system =
        LoadSystemConfig(kAstra + "system/native_collectives/HGX-H100-validated.json");
    ASSERT_EQ(system.activeChunksPerDimension, 2u);
    const uint64_t e = system.GetEndpointDelayNs();
    for (const Trace& t : FindTraces())
    {
        if (t.npus != 8)
        {
            continue;
        }
        SCOPED_TRACE(t.collective);
        const RingShape shape = ShapeOf(t.collective, t.npus, 1 << 18);
        const auto hop =
            static_cast<uint64_t>(2 * 936.25 + static_cast<double>(shape.message) /
                                                   AnalyticalTopology::ToBytesPerNs(400));
        const uint64_t reduce =
            3 * static_cast<uint64_t>(static_cast<double>(shape.message) / system.localMemBwGBps);
        const uint64_t expected = 2 * (e + shape.steps * (hop + e) + shape.reductions * reduce);
        const ReplayResult r =
            RunReplay(RunConfig(t.prefix,
                                kAstra + "network/analytical/HGX-H100-validated.yml",
                                kAstra + "system/native_collectives/HGX-H100-validated.json",
                                ReplayBackendKind::Analytical));
        ASSERT_TRUE(r.completed);
        for (const auto& s : r.ranks)
        {
            EXPECT_EQ(s.finish, NanoSeconds(expected)) << "rank " << s.rank;
        }
        EXPECT_EQ(r.GetBytesSent(), 4 * 8 * shape.steps * shape.message);
    }
}

INSTANTIATE_TEST_SUITE_P(AstraSim,
                         Microbenchmarks,
                         testing::ValuesIn(FindTraces()),
                         [](const testing::TestParamInfo<Trace>& info)
                         { return info.param.collective + "_" + std::to_string(info.param.npus); });
