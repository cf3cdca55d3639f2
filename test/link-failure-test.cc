/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Link and switch failures: a ring of transfers across the k = 4 fat-tree loses a link
// or an aggregation switch in the middle. Every byte must arrive exactly once, the routes
// must move, and the losses must be repaired no sooner than the detection delay and no
// later than it plus one retransmission timeout and the resend of what was in flight.

#include "et-test-support.h"
#include "program-run.h"

#include "ns3/config.h"
#include "ns3/fabric-installer.h"
#include "ns3/fabric-loader.h"
#include "ns3/fabric-routing.h"
#include "ns3/failure-options.h"
#include "ns3/failure-routing.h"
#include "ns3/input-error.h"
#include "ns3/nstime.h"
#include "ns3/roce-network.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const std::string kFatTree = std::string(MLFABRIC_SOURCE_DIR) + "/fabrics/fat-tree-k4.yaml";
constexpr uint64_t kMessage = 1 << 20;
const Time kDetection = MicroSeconds(10);
const Time kRto = MicroSeconds(100);

/** What one ring run measured. */
struct RingRun
{
    uint64_t delivered{0};                   //!< payload delivered in order, all NICs
    std::map<uint32_t, uint32_t> receptions; //!< sender node -> messages received
    std::vector<FailureSchedule::Outcome> outcomes;
    uint64_t lostFrames{0}; //!< frames lost on failed links, all ports
    Time baseRtt;           //!< the longest unloaded round trip of the ring
};

/** Rank r sends kMessage to rank r+1 on the fat-tree, with \p failures. */
RingRun
RunRing(const std::vector<std::string>& failures)
{
    Config::SetDefault("ns3::RdmaNic::RetransmitTimeout", TimeValue(kRto));
    Config::SetDefault("ns3::FailureSchedule::DetectionDelay", TimeValue(kDetection));
    const LoadedFabric loaded = LoadFabric(kFatTree);
    const auto specs = ParseFailureOptions(failures, loaded.fabric);
    RoceNetwork net;
    const auto nodes =
        InstallFabric(loaded.fabric, ComputeRouting(loaded.fabric, loaded.routing), net, 4096);
    const Ptr<FailureSchedule> schedule = InstallFailures(net, specs);
    RingRun run;
    for (size_t r = 0; r < nodes.size(); ++r)
    {
        const uint32_t src = nodes[r];
        const uint32_t dst = nodes[(r + 1) % nodes.size()];
        net.GetNic(dst)->TraceConnectWithoutContext(
            "MessageReceived",
            Callback<void, uint32_t, uint32_t, uint64_t, uint64_t>(
                [&run](uint32_t from, uint32_t, uint64_t, uint64_t) { ++run.receptions[from]; }));
        Ptr<RdmaQueuePair> qp = net.Connect(src, dst, 3);
        net.GetNic(src)->PostSend(qp, kMessage, r);
        run.baseRtt = std::max(run.baseRtt, net.GetBaseRtt(src, dst));
    }
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    for (uint32_t n : nodes)
    {
        run.delivered += net.GetNic(n)->GetCounters().deliveredBytes;
    }
    for (uint32_t l = 0; l < loaded.fabric.GetLinkCount(); ++l)
    {
        const auto ends = net.GetLinkPorts(l);
        run.lostFrames += ends.first->GetCounters().failedFrames;
        run.lostFrames += ends.second->GetCounters().failedFrames;
    }
    run.outcomes = schedule ? schedule->GetOutcomes() : std::vector<FailureSchedule::Outcome>{};
    Simulator::Destroy();
    Config::Reset();
    return run;
}

/** Every rank's message arrived exactly once, every byte of it. */
void
ExpectExactlyOnce(const RingRun& run)
{
    EXPECT_EQ(run.delivered, 16 * kMessage);
    ASSERT_EQ(run.receptions.size(), 16u);
    for (const auto& [sender, times] : run.receptions)
    {
        EXPECT_EQ(times, 1u) << "sender " << sender;
    }
}

/** The failure cost frames, moved routes and was repaired within its bounds. */
void
ExpectRecoveredWithinBounds(const RingRun& run, const FailureSchedule::Outcome& o)
{
    EXPECT_GT(o.lostFrames, 0u);
    EXPECT_GT(o.damagedQps, 0u);
    EXPECT_GT(o.reroutedQps, 0u);
    EXPECT_EQ(o.unrecoveredQps, 0u);
    // Until the routes move every resend takes the same dead path.
    EXPECT_GE(o.recoveryTime, kDetection);
    // After it, a NACK (or, for a lost tail, the timeout) resends from the first loss:
    // what was in flight toward the dead link, at most the detection delay and a round
    // trip of line rate, takes as long again; one check interval rounds it up.
    const Time resend = kDetection + run.baseRtt;
    EXPECT_LE(o.recoveryTime, kDetection + kRto + 2 * resend + MicroSeconds(1))
        << o.recoveryTime.As(Time::US);
}

} // namespace

TEST(LinkFailureTest, RingWithoutFailureLosesNothing)
{
    const RingRun run = RunRing({});
    ExpectExactlyOnce(run);
    EXPECT_EQ(run.lostFrames, 0u);
    EXPECT_TRUE(run.outcomes.empty());
}

TEST(LinkFailureTest, CoreLinkFailsMidCollective)
{
    // Every core link carries ring traffic between pods; agg0-0--core0 carries some.
    const RingRun run = RunRing({"agg0-0--core0@30us"});
    ExpectExactlyOnce(run);
    ASSERT_EQ(run.outcomes.size(), 1u);
    ExpectRecoveredWithinBounds(run, run.outcomes[0]);
    EXPECT_EQ(run.outcomes[0].lostFrames, run.lostFrames);
}

TEST(LinkFailureTest, AggregationSwitchFailsAndComesBack)
{
    const RingRun run = RunRing({"agg1-0@20us,up@60us"});
    ExpectExactlyOnce(run);
    ASSERT_EQ(run.outcomes.size(), 1u);
    EXPECT_EQ(run.outcomes[0].links, 4u); // two leaves below, two cores above
    ExpectRecoveredWithinBounds(run, run.outcomes[0]);
}

TEST(LinkFailureTest, RoutesAvoidTheDeadLinkAndKeepShortestPaths)
{
    const LoadedFabric loaded = LoadFabric(kFatTree);
    const Fabric& f = loaded.fabric;
    const FailureSpec spec = ParseFailureSpec("leaf0--agg0-0@1us", f);
    ASSERT_EQ(spec.links.size(), 1u);
    std::vector<bool> down(f.GetLinkCount(), false);
    down[spec.links[0]] = true;
    const RoutingTable before = ComputeRouting(f, loaded.routing);
    const RoutingTable after = ComputeRoutingAvoiding(f, down);
    const uint32_t leaf0 = f.FindNode("leaf0");
    // leaf0 reaches another pod by its one surviving uplink, in the same four hops.
    const uint32_t far = 15;
    EXPECT_EQ(before.GetEgressPorts(leaf0, far).size(), 2u);
    ASSERT_EQ(after.GetEgressPorts(leaf0, far).size(), 1u);
    EXPECT_EQ(after.GetHops(leaf0, far), before.GetHops(leaf0, far));
    EXPECT_NE(f.GetPort(leaf0, after.GetEgressPorts(leaf0, far)[0]).link, spec.links[0]);
    // No route anywhere leaves by the dead link.
    for (uint32_t n = 0; n < f.GetNodeCount(); ++n)
    {
        for (uint32_t r = 0; r < f.GetNpuCount(); ++r)
        {
            for (uint32_t p : after.GetEgressPorts(n, r))
            {
                EXPECT_NE(f.GetPort(n, p).link, spec.links[0]);
            }
        }
    }
    EXPECT_EQ(FailureLinkName(f, spec.links[0]), "leaf0--agg0-0");
}

TEST(LinkFailureTest, BadSpecificationsNameTheOption)
{
    const Fabric f = LoadFabric(kFatTree).fabric;
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"leaf9--agg0-0@1us", "--fail=leaf9--agg0-0@1us: fabric 'fat-tree-k4' has no node 'leaf9'"},
        {"leaf0--core0@1us", "--fail=leaf0--core0@1us: no link joins 'leaf0' and 'core0'"},
        {"npu0@1us", "--fail=npu0@1us: 'npu0' is an NPU; name a switch or a link (a--b)"},
        {"core0", "--fail=core0: expected <link or switch>@<time>[,up@<time>]"},
        {"core0@5", "--fail=core0@5: failure time"},
        {"core0@5us,up@2us", "--fail=core0@5us,up@2us: up@2us is not after the failure at 5us"},
        {"core0@5us,down@9us", "--fail=core0@5us,down@9us: after the comma expected up@<time>"},
    };
    for (const auto& [value, message] : cases)
    {
        try
        {
            ParseFailureSpec(value, f);
            ADD_FAILURE() << value << " was accepted";
        }
        catch (const InputError& e)
        {
            EXPECT_EQ(std::string(e.what()).rfind(message, 0), 0u) << e.what();
        }
    }
}

TEST(LinkFailureTest, IncastReportsTheFailureAndRejectsBadOnes)
{
    const std::string incast = std::string(MLFABRIC_EXAMPLES_DIR) + "/incast --fabric=" + kFatTree +
                               " --senders=4 --size=256KiB";
    const ProgramRun bad = RunProgram(incast + " --fail=leaf0--spine0@1us");
    EXPECT_EQ(bad.status, 2) << bad.output;
    EXPECT_NE(bad.output.find("error: --fail=leaf0--spine0@1us: fabric 'fat-tree-k4' has no "
                              "node 'spine0'"),
              std::string::npos)
        << bad.output;
    const ProgramRun good = RunProgram(incast + " --fail=agg3-0@5us,up@40us --fail=agg3-1@5us "
                                                "--ns3::RdmaNic::RetransmitTimeout=100us");
    ASSERT_EQ(good.status, 0) << good.output;
    EXPECT_NE(good.output.find("failures: switch agg3-0 down at"), std::string::npos)
        << good.output;
    EXPECT_NE(good.output.find("failure agg3-0@5us,up@40us: "), std::string::npos) << good.output;
    EXPECT_NE(good.output.find("recovered in"), std::string::npos) << good.output;
}

TEST(LinkFailureTest, AllReduceThroughTheReplaySurvivesASpineFailure)
{
    // The bundled 8-NPU all-reduce on the 2:1 leaf-spine of two-dim-4x2 loses one of its
    // two spines 20 us in: it completes, every byte sent arrives once, and the report
    // counts the frames lost on the spine's links, the queue pairs that moved off it and
    // a recovery no shorter than the detection delay (routes move 10 us after the
    // failure; until then every resend takes the dead spine).
    ettest::ScratchDir dir;
    const std::string summaryPath = dir.File("summary.json");
    const std::string root = MLFABRIC_SOURCE_DIR;
    const ProgramRun run = RunProgram(std::string(MLFABRIC_EXAMPLES_DIR) +
                                      "/chakra-replay --progress=0 --workload=" + root +
                                      "/traces/allreduce-8npu/allreduce --fabric=" + root +
                                      "/fabrics/two-dim-4x2.yaml --fail=spine0@20us "
                                      "--ns3::RdmaNic::RetransmitTimeout=100us --summary=" +
                                      summaryPath);
    ASSERT_EQ(run.status, 0) << run.output;
    std::ifstream in(summaryPath);
    const nlohmann::json s = nlohmann::json::parse(in);
    EXPECT_EQ(s["outcome"], "completed");
    const uint64_t sent = s["bytes_sent"];
    EXPECT_GT(sent, 0u);
    EXPECT_EQ(s["bytes_received"], sent);
    EXPECT_EQ(s["network_delivered_bytes"], sent);
    ASSERT_EQ(s["failures"].size(), 1u);
    const nlohmann::json& f = s["failures"][0];
    EXPECT_EQ(f["failure"], "spine0@20us");
    EXPECT_EQ(f["down_ns"], 20000);
    EXPECT_EQ(f["links"], 2); // spine0 has one link to each of the two leaves
    EXPECT_GT(f["lost_frames"].get<uint64_t>(), 0u);
    EXPECT_GT(f["rerouted_qps"].get<uint64_t>(), 0u);
    EXPECT_GT(f["damaged_qps"].get<uint64_t>(), 0u);
    EXPECT_EQ(f["unrecovered_qps"], 0);
    ASSERT_FALSE(f["recovery_time_ns"].is_null()) << run.output;
    const uint64_t recovery = f["recovery_time_ns"];
    EXPECT_GE(recovery, 10000u);
    EXPECT_LE(recovery + 20000, s["simulated_ns"].get<uint64_t>());
    EXPECT_NE(run.output.find("failure spine0@20us: "), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("recovered in"), std::string::npos) << run.output;
}
