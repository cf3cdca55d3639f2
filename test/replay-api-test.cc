/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The replay as an ns-3 script wires it: a backend, one ReplayEngine, an EtReplayApp per
// NPU on its node, and the trace sources.

#include "replay-test-support.h"

#include "ns3/comm-group-table.h"
#include "ns3/congestion-unaware-backend.h"
#include "ns3/et-replay-app.h"
#include "ns3/node-container.h"
#include "ns3/replay-engine.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::replaytest;

TEST(ReplayApi, ScriptWiresBackendEngineAndApplications)
{
    ettest::ScratchDir dir;
    const std::string prefix = dir.File("w");
    // Node ids deliberately out of file order: issue order is by id.
    const std::vector<EtNode> nodes = {
        Compute(30, 2), Compute(10, 1), Collective(20, EtCollectiveType::ALL_REDUCE, 4096, {10})};
    WriteRank(prefix, 0, nodes);
    WriteRank(prefix, 1, nodes);

    auto backend = CreateObject<CongestionUnawareBackend>();
    backend->SetTopology(AnalyticalTopology({{AnalyticalBlock::Ring, 2, 50, 500}}));
    ReplaySetup setup;
    setup.backend = backend;
    setup.system = DefaultReplaySystemConfig(1);
    setup.physicalDimensions = {2};
    setup.groups = std::make_shared<CommGroupTable>(2);
    auto engine = CreateObject<ReplayEngine>();
    engine->Setup(setup);

    std::vector<std::vector<uint64_t>> issued(2);
    std::vector<std::vector<uint64_t>> finished(2);
    std::vector<Time> done(2);
    std::vector<uint32_t> collectives;
    engine->TraceConnectWithoutContext("CollectiveFinished",
                                       MakeCallback(+[](std::vector<uint32_t>* ids, uint32_t id) {
                                           ids->push_back(id);
                                       }).Bind(&collectives));
    NodeContainer npus;
    npus.Create(2);
    for (uint32_t r = 0; r < 2; ++r)
    {
        auto app = CreateObject<EtReplayApp>();
        app->SetAttribute("Rank", UintegerValue(r));
        app->SetTrace(std::make_shared<const EtTrace>(EtTrace::Load(EtRankFilePath(prefix, r))));
        app->SetEngine(engine);
        npus.Get(r)->AddApplication(app);
        engine->AddRank(app);
        app->TraceConnectWithoutContext("NodeIssued",
                                        MakeCallback(+[](std::vector<uint64_t>* ids, uint64_t id) {
                                            ids->push_back(id);
                                        }).Bind(&issued[r]));
        app->TraceConnectWithoutContext("NodeFinished",
                                        MakeCallback(+[](std::vector<uint64_t>* ids, uint64_t id) {
                                            ids->push_back(id);
                                        }).Bind(&finished[r]));
        app->TraceConnectWithoutContext(
            "Finished", MakeCallback(+[](std::vector<Time>* at, uint32_t rank, Time t) {
                            (*at)[rank] = t;
                        }).Bind(&done));
    }
    Simulator::Run();

    // Node 10 (1 us) then node 30 (2 us) share the compute slot; the all-reduce follows
    // node 10 and overlaps node 30: endpoint delay, two steps of 2 KiB, each 500 ns plus
    // 2048 B at 50 GiB/s and a hand-off.
    const uint64_t step = static_cast<uint64_t>(500 + 2048 / AnalyticalTopology::ToBytesPerNs(50));
    const Time allReduceEnd = MicroSeconds(1) + NanoSeconds(10 + 2 * (step + 10));
    for (uint32_t r = 0; r < 2; ++r)
    {
        EXPECT_EQ(issued[r], (std::vector<uint64_t>{10, 20, 30})) << "rank " << r;
        EXPECT_EQ(finished[r], (std::vector<uint64_t>{10, 20, 30})) << "rank " << r;
        EXPECT_EQ(done[r], MicroSeconds(3));
        const ReplayRankStats s = engine->GetApp(r)->GetStats();
        EXPECT_EQ(s.comm, allReduceEnd - MicroSeconds(1));
        EXPECT_EQ(s.exposedComm, Time(0));
        EXPECT_EQ(engine->GetBytesSent(r), 4096u);
    }
    ASSERT_LT(allReduceEnd, MicroSeconds(3));
    EXPECT_EQ(collectives, (std::vector<uint32_t>{0}));
    EXPECT_EQ(engine->GetFinishedRankCount(), 2u);
    engine->Dispose();
    Simulator::Destroy();
}
