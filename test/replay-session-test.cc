/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The replay session's steps and the pieces they share with et-info's dry run: two
// jobs placed, installed and collected by the steps, each backend's observer counting
// the bytes the ranks received, a whole fabric keeping its dimensions of size 1, and the
// engine over a zero-time network with eager and rendezvous sends.

#include "replay-test-support.h"

#include "ns3/boolean.h"
#include "ns3/et-replay-app.h"
#include "ns3/node-container.h"
#include "ns3/replay-job-install.h"
#include "ns3/replay-job-placement.h"
#include "ns3/replay-session.h"
#include "ns3/simulator.h"
#include "ns3/zero-time-backend.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

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

/** Rank r sends to its peer, then receives from it (each waits for its send). */
std::vector<std::shared_ptr<const EtTrace>>
SendThenReceive(const ettest::ScratchDir& dir)
{
    const std::string prefix = dir.File("swap");
    std::vector<std::shared_ptr<const EtTrace>> traces;
    for (uint32_t r = 0; r < 2; ++r)
    {
        WriteRank(prefix,
                  r,
                  {Compute(1, 5), Send(2, 1 - r, 4096, 7, {1}), Receive(3, 1 - r, 4096, 7, {2})});
        traces.push_back(std::make_shared<const EtTrace>(EtTrace::Load(EtRankFilePath(prefix, r))));
    }
    return traces;
}

/** The swap over a zero-time network; \p rendezvous holds sends for their receives. */
struct ZeroTimeSwap
{
    uint64_t nodesDone{0};                      //!< over both ranks
    Time end;                                   //!< when the simulation ended
    std::vector<std::vector<uint32_t>> running; //!< per rank, nodes left running
    std::vector<std::string> stuck;             //!< the engine's stuck lines
    uint64_t delivered{0};                      //!< messages the network carried
};

ZeroTimeSwap
RunZeroTimeSwap(const ettest::ScratchDir& dir, bool rendezvous)
{
    ReplayJob job;
    job.rankCount = 2;
    job.npus = {0, 1};
    job.dimensions = {2};
    job.groups = std::make_shared<CommGroupTable>(2);
    job.traces = SendThenReceive(dir);
    job.engine = CreateObject<ReplayEngine>();
    job.engine->SetAttribute("RendezvousSends", BooleanValue(rendezvous));
    auto network = CreateObject<ZeroTimeBackend>();
    network->SetRankCount(2);
    NodeContainer nodes;
    nodes.Create(2);
    ReplayInstallSettings settings;
    settings.system = DefaultReplaySystemConfig(1);
    InstallReplayJob(job, network, {2}, {nodes.Get(0), nodes.Get(1)}, settings);
    Simulator::Run();
    ZeroTimeSwap out;
    out.end = Simulator::Now();
    for (uint32_t r = 0; r < 2; ++r)
    {
        out.nodesDone += job.engine->GetApp(r)->GetStats().nodesDone;
        out.running.push_back(job.engine->GetApp(r)->GetRunningNodes());
    }
    out.stuck = job.engine->DescribeStuck(20);
    out.delivered = network->GetDeliveredMessages();
    job.engine->Dispose();
    Simulator::Destroy();
    return out;
}

} // namespace

TEST(ReplaySession, StepsPlaceInstallRunAndCollectTwoJobs)
{
    ettest::ScratchDir dir;
    const std::string a = AllReduce(dir, "a", 4, 1 << 20);
    const std::string b = AllReduce(dir, "b", 2, 1 << 16);
    const std::string fabric = WriteNetwork(dir, "Switch", 8, 50, 500);
    ReplaySession session(
        {MakeSharedFabricJob({"a", a, {}, ""}), MakeSharedFabricJob({"b", b, {6, 7}, ""})});
    EXPECT_EQ(session.GetJobs()[0].rankCount, 4u);
    EXPECT_EQ(session.GetJobs()[1].rankCount, 2u);
    ReplayNetworkConfig network;
    network.fabricPath = fabric;
    network.backend = ReplayBackendKind::Analytical;
    session.Build(network);
    session.Install(ReplaySessionInputs{});
    EXPECT_EQ(session.GetJobs()[0].npus, (std::vector<uint32_t>{0, 1, 2, 3}));
    EXPECT_EQ(session.GetJobs()[1].npus, (std::vector<uint32_t>{6, 7}));
    ASSERT_TRUE(session.GetJobs()[1].engine);
    session.Run(ReplaySessionLimits{});
    const ReplayResult result = session.Collect();
    ASSERT_TRUE(result.completed);
    ASSERT_EQ(result.jobs.size(), 2u);
    EXPECT_TRUE(result.ranks.empty());
    EXPECT_EQ(result.jobs[1].name, "b");
    EXPECT_EQ(result.nodes, 6u);
    // A ring all-reduce moves 2 (n - 1) / n of the buffer out of every rank.
    EXPECT_EQ(result.GetBytesSent(), 4 * (2 * 3 * (1u << 20) / 4) + 2 * (2 * 1 * (1u << 16) / 2));
}

TEST(ReplaySession, EachBackendsObserverCountsWhatTheRanksReceived)
{
    ettest::ScratchDir dir;
    const std::string workload = AllReduce(dir, "ar", 4, 1 << 20);
    const std::string fabric = WriteNetwork(dir, "Ring", 4, 50, 500);
    for (ReplayBackendKind backend : {ReplayBackendKind::Packet,
                                      ReplayBackendKind::Analytical,
                                      ReplayBackendKind::AnalyticalAware})
    {
        SCOPED_TRACE(ToString(backend));
        const ReplayResult r = RunReplay(RunConfig(workload, fabric, "", backend));
        ASSERT_TRUE(r.completed);
        EXPECT_GT(r.GetBytesReceived(), 0u);
        EXPECT_EQ(r.networkDeliveredBytes, r.GetBytesReceived());
        EXPECT_EQ(r.networkStats.has_value(), backend == ReplayBackendKind::Packet);
    }
}

TEST(ReplaySession, WholeFabricKeepsItsDimensionsOfSizeOne)
{
    EXPECT_EQ(ReplayJobDimensions({8, 1}, {0, 1, 2, 3, 4, 5, 6, 7}), (std::vector<uint32_t>{8, 1}));
    EXPECT_EQ(ReplayJobDimensions({4, 2}, {0, 1, 2, 3, 4, 5, 6, 7}), (std::vector<uint32_t>{4, 2}));
    // Part of the fabric: the dimensions it spans.
    EXPECT_EQ(ReplayJobDimensions({4, 2}, {4, 5, 6, 7}), (std::vector<uint32_t>{4}));
    EXPECT_EQ(ReplayJobDimensions({4, 2}, {1, 2, 3, 4}), (std::vector<uint32_t>{4}));
}

TEST(ReplayZeroTime, EagerSendsFinishAtTimeZero)
{
    ettest::ScratchDir dir;
    const ZeroTimeSwap swap = RunZeroTimeSwap(dir, false);
    EXPECT_EQ(swap.nodesDone, 6u);
    EXPECT_EQ(swap.end, Time(0)); // the 5 us of compute took no time
    EXPECT_EQ(swap.delivered, 2u);
    EXPECT_TRUE(swap.stuck.empty());
}

TEST(ReplayZeroTime, RendezvousSendsWaitForReceivesThatNeverCome)
{
    ettest::ScratchDir dir;
    const ZeroTimeSwap swap = RunZeroTimeSwap(dir, true);
    // Each rank's send waits for the peer's receive, which waits for the peer's send.
    EXPECT_EQ(swap.nodesDone, 2u);
    EXPECT_EQ(swap.delivered, 0u);
    EXPECT_EQ(swap.running, (std::vector<std::vector<uint32_t>>{{1}, {1}}));
    ASSERT_EQ(swap.stuck.size(), 2u);
    EXPECT_NE(swap.stuck[0].find("COMM_SEND_NODE to rank 1 tag 7"), std::string::npos)
        << swap.stuck[0];
}
