/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Several jobs on one fabric: a job alone on its NPUs replays exactly as its own run;
// ring all-reduces on disjoint NPUs of one non-blocking switch leave each other alone
// (the analytical closed form, and the same figures at packet level and congestion-
// aware); two jobs whose rings cross one oversubscribed leaf uplink each take about
// twice as long at packet level, the uplink's share, and not when kept off it; a job
// that cannot finish leaves the others to finish and is reported by name.

#include "replay-test-support.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

/** ASTRA-sim network files of these tests: 50 GB/s (2^30), 500 ns per link. */
constexpr double kGbps = 50;
constexpr double kLatencyNs = 500;
constexpr double kEndpointNs = 10; // ASTRA-sim's default endpoint delay

/** \return the prefix of a workload of one all-reduce of \p bytes on \p ranks ranks */
std::string
AllReduce(const ettest::ScratchDir& dir, const std::string& name, uint32_t ranks, uint64_t bytes)
{
    const std::string prefix = dir.File(name);
    for (uint32_t r = 0; r < ranks; ++r)
    {
        WriteRank(prefix, r, {Collective(1, EtCollectiveType::ALL_REDUCE, bytes)});
    }
    return prefix;
}

/** \return a run of \p jobs on \p fabric */
ReplayRunConfig
JobsConfig(const std::string& fabric,
           ReplayBackendKind backend,
           const std::vector<ReplayJobSpec>& jobs)
{
    ReplayRunConfig config = RunConfig("", fabric, "", backend);
    config.jobs = jobs;
    return config;
}

/** \return the last finish of a job's ranks */
Time
JobFinish(const ReplayJobResult& job)
{
    Time last;
    for (const auto& r : job.ranks)
    {
        last = Max(last, r.finish);
    }
    return last;
}

/** Expect two runs of the same ranks to agree to the picosecond. */
void
ExpectSameRanks(const std::vector<ReplayRankStats>& a, const std::vector<ReplayRankStats>& b)
{
    ASSERT_EQ(a.size(), b.size());
    for (size_t r = 0; r < a.size(); ++r)
    {
        EXPECT_TRUE(a[r].finished && b[r].finished) << "rank " << r;
        EXPECT_EQ(a[r].finish, b[r].finish) << "rank " << r;
        EXPECT_EQ(a[r].compute, b[r].compute) << "rank " << r;
        EXPECT_EQ(a[r].comm, b[r].comm) << "rank " << r;
        EXPECT_EQ(a[r].exposedComm, b[r].exposedComm) << "rank " << r;
        EXPECT_EQ(a[r].bytesSent, b[r].bytesSent) << "rank " << r;
        EXPECT_EQ(a[r].bytesReceived, b[r].bytesReceived) << "rank " << r;
    }
}

/** Expect two runs of the same collectives to agree to the picosecond. */
void
ExpectSameCollectives(const std::vector<ReplayCollectiveRecord>& a,
                      const std::vector<ReplayCollectiveRecord>& b)
{
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i)
    {
        EXPECT_EQ(a[i].start, b[i].start) << "collective " << i;
        EXPECT_EQ(a[i].end, b[i].end) << "collective " << i;
        EXPECT_EQ(a[i].algorithm, b[i].algorithm) << "collective " << i;
    }
}

/**
 * Ring all-reduce of \p bytes on \p n ranks through one switch, congestion-unaware,
 * default system (one chunk): a hand-off, then 2(n-1) steps of two links' latency,
 * bytes / n at the link bandwidth (truncated to ns) and a hand-off.
 */
double
SwitchRingAllReduceNs(uint32_t n, uint64_t bytes)
{
    const double bytesPerNs = kGbps * (1ULL << 30) / 1e9;
    const double step = std::floor(2 * kLatencyNs + static_cast<double>(bytes) / n / bytesPerNs);
    return kEndpointNs + 2.0 * (n - 1) * (step + kEndpointNs);
}

const std::vector<ReplayBackendKind> kBackends = {
    ReplayBackendKind::Analytical, ReplayBackendKind::AnalyticalAware, ReplayBackendKind::Packet};

} // namespace

TEST(ReplayMultiJob, OneJobEqualsTheSingleWorkloadRun)
{
    ettest::ScratchDir dir;
    const std::string workload = AllReduce(dir, "ar8", 8, 1 << 20);
    const std::string fabric = kAstra + "network/analytical/Ring_8npus.yml";
    const std::string system = kAstra + "system/native_collectives/Ring_4chunks.json";
    for (ReplayBackendKind backend : kBackends)
    {
        SCOPED_TRACE(ToString(backend));
        const ReplayResult single = RunReplay(RunConfig(workload, fabric, system, backend));
        ReplayRunConfig config = JobsConfig(fabric, backend, {{"a", workload, {}, ""}});
        config.systemPath = system;
        const ReplayResult jobs = RunReplay(config);
        ASSERT_TRUE(single.completed && jobs.completed);
        ASSERT_EQ(jobs.jobs.size(), 1u);
        EXPECT_TRUE(jobs.ranks.empty());
        EXPECT_EQ(jobs.jobs[0].npus, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
        EXPECT_EQ(jobs.jobs[0].dimensions, (std::vector<uint32_t>{8}));
        ExpectSameRanks(jobs.jobs[0].ranks, single.ranks);
        ExpectSameCollectives(jobs.jobs[0].collectives, single.collectives);
        EXPECT_EQ(jobs.simulated, single.simulated);
        EXPECT_EQ(jobs.events, single.events);
        EXPECT_EQ(jobs.networkDeliveredBytes, single.networkDeliveredBytes);
    }
}

TEST(ReplayMultiJob, JobOnPartOfTheFabricEqualsItsOwnFabric)
{
    ettest::ScratchDir dir;
    const std::string workload = AllReduce(dir, "ar4", 4, 1 << 20);
    const std::string small = WriteNetwork(dir, "Switch", 4, kGbps, kLatencyNs);
    const std::string large = WriteNetwork(dir, "Switch", 8, kGbps, kLatencyNs);
    for (ReplayBackendKind backend : kBackends)
    {
        SCOPED_TRACE(ToString(backend));
        const ReplayResult own = RunReplay(RunConfig(workload, small, "", backend));
        const ReplayResult part =
            RunReplay(JobsConfig(large, backend, {{"a", workload, {4, 5, 6, 7}, ""}}));
        ASSERT_TRUE(own.completed && part.completed);
        ExpectSameRanks(part.jobs[0].ranks, own.ranks);
        ExpectSameCollectives(part.jobs[0].collectives, own.collectives);
    }
}

TEST(ReplayMultiJob, RingsOnDisjointNpusOfOneSwitchDoNotInterfere)
{
    ettest::ScratchDir dir;
    const uint64_t bytes = 1 << 20;
    const std::string workload = AllReduce(dir, "ar4", 4, bytes);
    const std::string fabric = WriteNetwork(dir, "Switch", 8, kGbps, kLatencyNs);
    const double closedForm = SwitchRingAllReduceNs(4, bytes);
    EXPECT_DOUBLE_EQ(closedForm, 35362); // 10 + 6 x (floor(1000 + 4882.8125) + 10)
    // In blocks and interleaved: through a switch every NPU has links of its own.
    const std::vector<std::vector<ReplayJobSpec>> placements = {
        {{"a", workload, {}, ""}, {"b", workload, {}, ""}},
        {{"a", workload, {0, 2, 4, 6}, ""}, {"b", workload, {1, 3, 5, 7}, ""}}};
    for (ReplayBackendKind backend : kBackends)
    {
        for (const auto& jobs : placements)
        {
            SCOPED_TRACE(ToString(backend) + " " + std::to_string(jobs[0].npus.size()));
            const ReplayResult both = RunReplay(JobsConfig(fabric, backend, jobs));
            ASSERT_TRUE(both.completed);
            ASSERT_EQ(both.jobs.size(), 2u);
            for (size_t j = 0; j < 2; ++j)
            {
                const ReplayResult alone = RunReplay(
                    JobsConfig(fabric, backend, {{jobs[j].name, workload, both.jobs[j].npus, ""}}));
                ExpectSameRanks(both.jobs[j].ranks, alone.jobs[0].ranks);
                if (backend == ReplayBackendKind::Analytical)
                {
                    EXPECT_DOUBLE_EQ(JobFinish(both.jobs[j]).GetPicoSeconds() / 1e3, closedForm);
                }
            }
        }
    }
}

TEST(ReplayMultiJob, SharedOversubscribedUplinkSlowsBothAtPacketLevel)
{
    // Two leaves of two hosts under one spine, every link 100 Gb/s: each leaf has 200
    // Gb/s below and 100 Gb/s above (2:1).
    ettest::ScratchDir dir;
    const std::string fabric = dir.File("leaf-spine.yaml");
    WriteText(fabric,
              "name: leaf-spine-2to1\n"
              "scale_out:\n"
              "  topology: clos\n"
              "  servers: 4\n"
              "  hosts_per_leaf: 2\n"
              "  oversubscription: 2\n"
              "  host_link: {rate: 100Gbps, latency: 1us}\n"
              "  leaf_link: {rate: 100Gbps, latency: 1us}\n");
    const uint64_t bytes = 4 << 20;
    const std::string workload = AllReduce(dir, "ar2", 2, bytes);
    const auto run = [&](const std::vector<ReplayJobSpec>& jobs)
    {
        const ReplayResult r = RunReplay(JobsConfig(fabric, ReplayBackendKind::Packet, jobs));
        EXPECT_TRUE(r.completed) << r.networkFailure;
        std::vector<double> finishUs;
        for (const auto& job : r.jobs)
        {
            finishUs.push_back(JobFinish(job).GetPicoSeconds() / 1e6);
        }
        return finishUs;
    };
    // Each job spans both leaves: its two ranks send to each other across the spine.
    const double alone = run({{"a", workload, {0, 2}, ""}})[0];
    const auto across = run({{"a", workload, {0, 2}, ""}, {"b", workload, {1, 3}, ""}});
    // Each job within one leaf: the uplinks carry nothing.
    const auto within = run({{"a", workload, {0, 1}, ""}, {"b", workload, {2, 3}, ""}});
    const double withinAlone = run({{"a", workload, {0, 1}, ""}})[0];

    // Alone, each rank sends bytes / 2 twice at the goodput of a link that also carries
    // the other rank's ACKs, 100 Gb/s x 4096 / (4178 + 86), each time over three links
    // of 1 us.
    const double goodputBytesPerUs = 100e9 / 8 / 1e6 * 4096 / (4178 + 86);
    const double transferUs = bytes / goodputBytesPerUs;
    EXPECT_NEAR(alone, transferUs + 2 * 3.0, 0.015 * transferUs);
    // Together, two flows share each 100 Gb/s uplink in each direction: each job gets
    // half of it, so its transfer takes twice as long; the latencies do not double.
    for (double both : across)
    {
        const double slowdown = both / alone;
        EXPECT_GT(slowdown, 1.85) << both << " us against " << alone << " us alone";
        EXPECT_LT(slowdown, 2.05) << both << " us against " << alone << " us alone";
    }
    EXPECT_NEAR(across[0], across[1], 0.05 * across[0]);
    for (double both : within)
    {
        EXPECT_NEAR(both, withinAlone, 1e-6 * withinAlone);
    }
}

TEST(ReplayMultiJob, StuckJobIsNamedAndTheOthersFinish)
{
    ettest::ScratchDir dir;
    const std::string fabric = WriteNetwork(dir, "Switch", 4, kGbps, kLatencyNs);
    const std::string good = AllReduce(dir, "ar2", 2, 1 << 20);
    // Rank 0 waits for a message rank 1 never sends.
    const std::string stuck = dir.File("stuck");
    WriteRank(stuck, 0, {Receive(1, 1, 4096, 7)});
    WriteRank(stuck, 1, {Compute(1, 5)});
    // Analytical only: at packet level a receive that waits forever keeps the run guard
    // checking (nothing is outstanding, so nothing stalls) until --stop.
    for (ReplayBackendKind backend :
         {ReplayBackendKind::Analytical, ReplayBackendKind::AnalyticalAware})
    {
        SCOPED_TRACE(ToString(backend));
        const ReplayResult r = RunReplay(
            JobsConfig(fabric, backend, {{"good", good, {}, ""}, {"stuck", stuck, {}, ""}}));
        const ReplayResult alone = RunReplay(JobsConfig(fabric, backend, {{"good", good, {}, ""}}));
        EXPECT_FALSE(r.completed);
        EXPECT_TRUE(r.jobs[0].completed);
        EXPECT_FALSE(r.jobs[1].completed);
        ExpectSameRanks(r.jobs[0].ranks, alone.jobs[0].ranks);
        ASSERT_FALSE(r.stuck.empty());
        for (const std::string& line : r.stuck)
        {
            EXPECT_EQ(line.rfind("job 'stuck': ", 0), 0u) << line;
        }
    }
}
