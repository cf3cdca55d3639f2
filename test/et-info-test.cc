/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The et-info inspector: per-rank summaries (issue order, critical path, traffic), the
// cross-rank checks and the zero-time dry run catching each kind of broken workload,
// the comm-group file reader, JSON lines, and the program's output and exit status.
#include "et-test-support.h"

#include "ns3/comm-group-table.h"
#include "ns3/et-info-checks.h"
#include "ns3/et-info-dry-run.h"
#include "ns3/et-info-groups.h"
#include "ns3/et-info-json.h"
#include "ns3/et-rank-files.h"
#include "ns3/et-writer.h"
#include "ns3/gen-workload.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <cstdio>
#include <sstream>

using namespace ns3;
using namespace ns3::ettest;

namespace
{

/** A workload built by hand, written to a scratch folder and loaded back. */
struct HandWorkload
{
    ScratchDir dir;                    //!< where the files go
    std::string prefix{dir.File("w")}; //!< workload prefix
    GenWorkload workload;              //!< the ranks being built
    std::vector<EtTrace> traces;       //!< loaded after Load()
    std::vector<EtRankInfo> infos;     //!< their summaries

    /** \param ranks number of ranks */
    explicit HandWorkload(uint32_t ranks)
        : workload("hand", ranks)
    {
    }

    /** Write, load and summarize every rank. */
    void
    Load()
    {
        workload.Write(prefix);
        for (uint32_t r = 0; r < workload.ranks.size(); ++r)
        {
            traces.push_back(EtTrace::Load(EtRankFilePath(prefix, r)));
            infos.push_back(SummarizeEtRank(traces.back(), r));
        }
    }

    /** \return the checks with the workload's groups */
    EtWorkloadChecks
    Check() const
    {
        return CheckEtWorkload(infos, workload.groups.GetGroups());
    }
};

/** \return true if some problem line contains every part */
bool
HasProblem(const std::vector<std::string>& problems, std::initializer_list<std::string> parts)
{
    for (const auto& line : problems)
    {
        bool all = true;
        for (const auto& part : parts)
        {
            all = all && line.find(part) != std::string::npos;
        }
        if (all)
        {
            return true;
        }
    }
    return false;
}

/** Output and exit status of et-info. */
struct RunResult
{
    int status{-1};     //!< exit status
    std::string output; //!< stdout and stderr
};

RunResult
RunEtInfo(const std::string& arguments)
{
    const std::string command = std::string(MLFABRIC_TOOLS_DIR) + "/et-info " + arguments + " 2>&1";
    RunResult result;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr)
    {
        return result;
    }
    char buffer[4096];
    size_t n = 0;
    while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
    {
        result.output.append(buffer, n);
    }
    const int raw = pclose(pipe);
    result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return result;
}

} // namespace

TEST(EtInfoRank, CountsTrafficAndTakesTheLongestComputeChain)
{
    HandWorkload w(2);
    const std::string pair = w.workload.groups.Register({0, 1});
    auto& t = w.workload.ranks[0];
    //        a(10)
    //       /     \
    //   b(20)     c(5) -> all_reduce 4 KiB
    //       \     /
    //        d(7) -> send 1 KiB to rank 1
    const uint64_t a = t.AddCompute("a", {}, 10, {});
    const uint64_t b = t.AddCompute("b", {}, 20, {a});
    const uint64_t c = t.AddCompute("c", {}, 5, {a});
    t.AddCollective("ar", EtCollectiveType::ALL_REDUCE, 4096, pair, {c});
    const uint64_t d = t.AddCompute("d", {}, 7, {b, c});
    t.AddSend("s", 1, 9, 1024, {d});
    auto& u = w.workload.ranks[1];
    u.AddCollective("ar", EtCollectiveType::ALL_REDUCE, 4096, pair, {});
    u.AddRecv("r", 0, 9, 1024, {});
    w.Load();

    const EtRankInfo& info = w.infos[0];
    EXPECT_EQ(info.nodes, 6u);
    EXPECT_EQ(info.edges, 6u);
    EXPECT_EQ(info.roots, 1u);
    EXPECT_EQ(info.computeNodes, 4u);
    EXPECT_EQ(info.computeMicros, 42u);
    EXPECT_EQ(info.criticalPathMicros, 37u); // a, b, d
    EXPECT_EQ(info.nodesByType.at("COMP_NODE"), 4u);
    const EtTraffic& ar = info.collectives.at({"ALL_REDUCE", pair});
    EXPECT_EQ(ar.count, 1u);
    EXPECT_EQ(ar.bytes, 4096u);
    EXPECT_EQ(info.sends.count, 1u);
    EXPECT_EQ(info.sends.bytes, 1024u);
    EXPECT_EQ(w.infos[1].recvs.bytes, 1024u);
    EXPECT_TRUE(info.problems.empty());

    const EtWorkloadChecks checks = w.Check();
    EXPECT_EQ(checks.problemCount, 0u);
    EXPECT_EQ(checks.groupsChecked, 1u);
    EXPECT_EQ(checks.collectivesMatched, 1u);
    EXPECT_EQ(checks.messagesMatched, 1u);
    const EtDryRun run = DryRunEtWorkload(w.traces, w.workload.groups.GetGroups());
    EXPECT_TRUE(run.Completed());
    EXPECT_EQ(run.nodesDone, 8u);
    EXPECT_EQ(run.collectivesDone, 1u);
    EXPECT_EQ(run.messagesDone, 1u);
}

TEST(EtInfoRank, IssueOrderTakesTheFirstReadyNodeInTheFile)
{
    // File order: x (waits for z), y, z. Issue order: y, z, x.
    ScratchDir dir;
    const std::string path = dir.File("order.0.et");
    EtWriter writer(path);
    EtStringPool strings;
    auto collective = [&](uint64_t id, EtCollectiveType type, EtIdList deps)
    {
        EtNode node;
        node.id = id;
        node.type = EtNodeType::COMM_COLL_NODE;
        node.name = strings.Intern("n" + std::to_string(id));
        node.SetCommType(type);
        node.SetCommSize(100 + id);
        node.dataDeps = deps;
        writer.AddNode(node);
    };
    collective(1, EtCollectiveType::ALL_GATHER, {3});
    collective(2, EtCollectiveType::ALL_REDUCE, {});
    collective(3, EtCollectiveType::ALL_TO_ALL, {});
    writer.Close();
    const EtRankInfo info = SummarizeEtRank(EtTrace::Load(path), 0);
    const auto& calls = info.groupCalls.at("");
    ASSERT_EQ(calls.size(), 3u);
    EXPECT_EQ(calls[0].nodeId, 2u);
    EXPECT_EQ(calls[1].nodeId, 3u);
    EXPECT_EQ(calls[2].nodeId, 1u);
    EXPECT_EQ(EtGroupLabel(""), "world");
    EXPECT_EQ(EtGroupLabel("0"), "world");
    EXPECT_EQ(EtGroupLabel("3"), "3");
}

TEST(EtInfoRank, RecordsNodesNoReplayCanRun)
{
    ScratchDir dir;
    const std::string path = dir.File("bad.0.et");
    EtWriter writer(path);
    EtStringPool strings;
    EtNode coll;
    coll.id = 1;
    coll.type = EtNodeType::COMM_COLL_NODE;
    coll.name = strings.Intern("no_size");
    coll.SetCommType(EtCollectiveType::ALL_REDUCE);
    writer.AddNode(coll);
    EtNode send;
    send.id = 2;
    send.type = EtNodeType::COMM_SEND_NODE;
    send.name = strings.Intern("foreign_send");
    send.SetCommSrc(5);
    send.SetCommDst(1);
    send.SetCommTag(0);
    send.SetCommSize(10);
    writer.AddNode(send);
    EtNode recv;
    recv.id = 3;
    recv.type = EtNodeType::COMM_RECV_NODE;
    recv.name = strings.Intern("untagged_recv");
    recv.SetCommSrc(1);
    recv.SetCommSize(10);
    writer.AddNode(recv);
    writer.Close();
    const EtRankInfo info = SummarizeEtRank(EtTrace::Load(path), 0);
    ASSERT_EQ(info.problems.size(), 3u);
    EXPECT_TRUE(HasProblem(info.problems, {"node 1 (no_size)", "comm_size"}));
    EXPECT_TRUE(
        HasProblem(info.problems, {"node 2 (foreign_send)", "comm_src 5", "not this rank"}));
    EXPECT_TRUE(HasProblem(info.problems, {"node 3 (untagged_recv)", "comm_tag"}));
}

TEST(EtInfoChecks, FindDivergentGroupsUnknownGroupsAndUnmatchedMessages)
{
    HandWorkload w(3);
    const std::string pair = w.workload.groups.Register({0, 1});
    auto& r0 = w.workload.ranks[0];
    auto& r1 = w.workload.ranks[1];
    auto& r2 = w.workload.ranks[2];
    r0.AddCollective("a", EtCollectiveType::ALL_REDUCE, 1 << 20, pair, {});
    r1.AddCollective("a", EtCollectiveType::ALL_GATHER, 1 << 20, pair, {});
    r1.AddCollective("b", EtCollectiveType::ALL_GATHER, 1 << 20, pair, {});
    r2.AddCollective("c", EtCollectiveType::ALL_REDUCE, 64, pair, {}); // not a member
    r2.AddCollective("d", EtCollectiveType::ALL_REDUCE, 64, "7", {});  // unknown group
    r0.AddSend("s", 2, 4, 100, {});
    r2.AddRecv("r", 0, 4, 99, {});  // size differs
    r1.AddSend("t", 9, 0, 100, {}); // no such rank
    w.Load();
    const EtWorkloadChecks checks = w.Check();
    const auto& p = checks.problems;
    EXPECT_TRUE(
        HasProblem(p, {"group 1, collective #0", "ALL_REDUCE of 1048576 B", "rank 1 ALL_GATHER"}));
    EXPECT_TRUE(HasProblem(p, {"rank 2", "group 1", "does not include it"}));
    EXPECT_TRUE(HasProblem(p, {"rank 2", "group 7", "does not define"}));
    EXPECT_TRUE(HasProblem(
        p, {"rank 0, node 1", "sends 100 B", "to rank 2 with tag 4", "no matching receive"}));
    EXPECT_TRUE(HasProblem(p, {"rank 2", "receives 99 B from rank 0", "sends no such message"}));
    EXPECT_TRUE(HasProblem(p, {"rank 1", "peer rank 9"}));
    EXPECT_EQ(checks.problemCount, p.size());
    EXPECT_EQ(checks.collectivesMatched, 0u);
    EXPECT_EQ(checks.messagesMatched, 0u);

    // Same collectives, but one rank issues one more.
    HandWorkload v(2);
    v.workload.ranks[0].AddCollective("a", EtCollectiveType::ALL_TO_ALL, 8, "", {});
    v.workload.ranks[1].AddCollective("a", EtCollectiveType::ALL_TO_ALL, 8, "", {});
    v.workload.ranks[1].AddCollective("b", EtCollectiveType::ALL_TO_ALL, 8, "", {0});
    v.Load();
    EXPECT_TRUE(HasProblem(v.Check().problems, {"group world", "rank 0 issues 1", "rank 1 2"}));
}

TEST(EtInfoDryRun, FindsSendReceiveAndCrossGroupDeadlocks)
{
    // Both ranks wait to receive before they send.
    HandWorkload p2p(2);
    for (uint32_t r = 0; r < 2; ++r)
    {
        auto& t = p2p.workload.ranks[r];
        const uint64_t recv = t.AddRecv("r", 1 - r, 0, 8, {});
        t.AddSend("s", 1 - r, 0, 8, {recv});
    }
    p2p.Load();
    EXPECT_EQ(p2p.Check().problemCount, 0u); // every message has its partner
    const EtDryRun stuck = DryRunEtWorkload(p2p.traces, std::nullopt);
    EXPECT_FALSE(stuck.Completed());
    EXPECT_EQ(stuck.nodesDone, 0u);
    EXPECT_TRUE(
        HasProblem(stuck.stuck, {"rank 0, node 0 (r)", "receive from rank 1", "never sent"}));

    // Two groups of the same two ranks, entered in opposite orders.
    HandWorkload groups(2);
    const std::string a = groups.workload.groups.Register({0, 1});
    groups.workload.ranks[0].AddCollective("x", EtCollectiveType::ALL_REDUCE, 8, a, {});
    groups.workload.ranks[1].AddCollective("x", EtCollectiveType::ALL_REDUCE, 8, "", {});
    groups.workload.ranks[0].AddCollective("y", EtCollectiveType::ALL_REDUCE, 8, "", {0});
    groups.workload.ranks[1].AddCollective("y", EtCollectiveType::ALL_REDUCE, 8, a, {0});
    groups.Load();
    const EtDryRun crossed = DryRunEtWorkload(groups.traces, groups.workload.groups.GetGroups());
    EXPECT_FALSE(crossed.Completed());
    EXPECT_TRUE(HasProblem(crossed.stuck, {"rank 0, node 0 (x)", "group 1", "1 of 2 arrived"}));
    EXPECT_TRUE(HasProblem(crossed.stuck, {"rank 1, node 0 (x)", "group 0", "1 of 2 arrived"}));
}

TEST(EtInfoDryRun, SendsWaitForTheirReceivesAndRefusedWorkloadsAreNamed)
{
    // Both ranks send before they receive: buffered sends would get through, rendezvous
    // ones wait for each other.
    HandWorkload swap(2);
    for (uint32_t r = 0; r < 2; ++r)
    {
        auto& t = swap.workload.ranks[r];
        const uint64_t send = t.AddSend("s", 1 - r, 3, 8, {});
        t.AddRecv("r", 1 - r, 3, 8, {send});
    }
    swap.Load();
    EXPECT_EQ(swap.Check().problemCount, 0u);
    const EtDryRun held = DryRunEtWorkload(swap.traces, std::nullopt);
    EXPECT_FALSE(held.Completed());
    EXPECT_EQ(held.nodesDone, 0u);
    EXPECT_EQ(held.nodesTotal, 4u);
    ASSERT_EQ(held.stuck.size(), 2u);
    EXPECT_TRUE(HasProblem(held.stuck, {"rank 0, node 0 (s)", "send to rank 1 with tag 3"}));
    EXPECT_TRUE(HasProblem(held.stuck, {"rank 1, node 0 (s)", "never received"}));

    // Receives posted first: everything completes, one message per pair.
    HandWorkload ordered(2);
    const uint64_t first = ordered.workload.ranks[0].AddSend("s", 1, 3, 8, {});
    ordered.workload.ranks[0].AddRecv("r", 1, 4, 8, {first});
    const uint64_t receive = ordered.workload.ranks[1].AddRecv("r", 0, 3, 8, {});
    ordered.workload.ranks[1].AddSend("s", 0, 4, 8, {receive});
    ordered.Load();
    const EtDryRun done = DryRunEtWorkload(ordered.traces, std::nullopt);
    EXPECT_TRUE(done.Completed());
    EXPECT_EQ(done.messagesDone, 2u);
    EXPECT_TRUE(done.stuck.empty());

    // A collective on a group nobody defines: the replay refuses, the dry run says why.
    HandWorkload unknown(2);
    for (uint32_t r = 0; r < 2; ++r)
    {
        unknown.workload.ranks[r].AddCollective("c", EtCollectiveType::ALL_REDUCE, 8, "7", {});
    }
    unknown.Load();
    const EtDryRun refused = DryRunEtWorkload(unknown.traces, std::nullopt);
    EXPECT_FALSE(refused.Completed());
    EXPECT_NE(refused.rejected.find("\"7\" names no communicator group"), std::string::npos)
        << refused.rejected;
}

TEST(EtInfoGroups, ReadsAstraSimsFormatAndRejectsBadGroups)
{
    ScratchDir dir;
    const std::string path = dir.File("groups.json");
    WriteBytes(path, R"({"1": [3, 0, 2], "2": [1]})");
    const EtCommGroups groups = ReadEtCommGroups(path, 4);
    EXPECT_EQ(groups.at("1"), (std::vector<uint32_t>{0, 2, 3}));
    EXPECT_EQ(groups.at("2"), (std::vector<uint32_t>{1}));
    auto expectError = [&](const std::string& text, std::initializer_list<std::string> parts)
    {
        WriteBytes(path, text);
        ExpectInputError([&] { ReadEtCommGroups(path, 4); }, parts);
    };
    expectError(R"({"0": [0, 1]})", {"groups.json:1", "\"0\"", "default group"});
    expectError(R"({"1": [0, 4]})", {"key \"1\"", "4", "[0, 4)"});
    expectError(R"({"1": [0, 0]})", {"key \"1\"", "twice"});
    expectError(R"({"1": []})", {"key \"1\"", "no ranks"});
    expectError(R"([[0, 1]])", {"groups.json", "object"});
    expectError(R"({"1": [0, )", {"groups.json", "not valid JSON"});
    ExpectInputError([&] { ReadEtCommGroups(dir.File("absent.json"), 4); }, {"absent.json"});
}

// et-info once had its own reader, which took ids such as "tp" or "01" that a replay
// rejects; both now read through CommGroupTable and must give the same verdict.
TEST(EtInfoGroups, AcceptsExactlyWhatTheReplayAccepts)
{
    ScratchDir dir;
    const std::string path = dir.File("groups.json");
    const std::vector<std::pair<std::string, bool>> cases = {
        {R"({"1": [0, 1], "2": [2, 3]})", true},
        {R"({"12": [3, 1]})", true},
        {R"({"tp": [0, 1]})", false},
        {R"({"01": [0, 1]})", false},
        {R"({"-1": [0, 1]})", false},
        {R"({"0": [0, 1]})", false},
        {R"({"1": [0, 1.0]})", false},
        {R"({"1": [-1]})", false},
        {R"({"1": [4]})", false},
        {R"({"1": [2, 2]})", false},
        {R"({"1": []})", false},
        {R"({"1": "0,1"})", false},
    };
    for (const auto& [text, valid] : cases)
    {
        WriteBytes(path, text);
        std::string etInfoError;
        std::string replayError;
        try
        {
            ReadEtCommGroups(path, 4);
        }
        catch (const InputError& e)
        {
            etInfoError = e.what();
        }
        try
        {
            CommGroupTable(4).LoadFile(path);
        }
        catch (const InputError& e)
        {
            replayError = e.what();
        }
        EXPECT_EQ(etInfoError.empty(), valid) << text << ": " << etInfoError;
        EXPECT_EQ(etInfoError, replayError) << text;
    }
}

TEST(EtInfoJson, WritesOneJsonizerStyleLinePerMessage)
{
    HandWorkload w(1);
    auto& t = w.workload.ranks[0];
    const uint64_t a = t.AddCompute("gemm", {uint64_t{1} << 40, 4096}, 3, {});
    t.AddCollective("ar", EtCollectiveType::ALL_REDUCE, 1 << 20, "1", {a});
    w.workload.Write(w.prefix);
    std::ostringstream out;
    EXPECT_EQ(WriteEtJsonLines(EtRankFilePath(w.prefix, 0), out), 2u);
    std::istringstream lines(out.str());
    std::string line;
    std::vector<nlohmann::json> messages;
    while (std::getline(lines, line))
    {
        messages.push_back(nlohmann::json::parse(line));
    }
    ASSERT_EQ(messages.size(), 3u);
    EXPECT_EQ(messages[0]["version"], "0.0.4");
    EXPECT_EQ(messages[0]["attr"][0]["stringVal"], "mlfabric et-gen hand");
    EXPECT_FALSE(messages[1].contains("id")); // 0 is proto3's default
    EXPECT_EQ(messages[1]["type"], "COMP_NODE");
    EXPECT_EQ(messages[1]["durationMicros"], "3"); // 64-bit integers as strings
    EXPECT_EQ(messages[1]["attr"][1]["name"], "num_ops");
    EXPECT_EQ(messages[1]["attr"][1]["int64Val"], "1099511627776");
    EXPECT_EQ(messages[2]["dataDeps"], nlohmann::json({"0"}));
    EXPECT_EQ(messages[2]["attr"][3]["stringVal"], "1");
}

TEST(EtInfoTool, ReportsAGeneratedWorkloadAndExitsZero)
{
    HandWorkload w(2);
    const std::string pair = w.workload.groups.Register({0, 1});
    for (uint32_t r = 0; r < 2; ++r)
    {
        auto& t = w.workload.ranks[r];
        const uint64_t c = t.AddCompute("c", {2'000'000, 100}, 12, {});
        t.AddCollective("ar", EtCollectiveType::ALL_REDUCE, 3 << 20, pair, {c});
    }
    w.workload.Write(w.prefix);
    const RunResult run = RunEtInfo(w.prefix + " --summary=" + w.dir.File("s.json"));
    ASSERT_EQ(run.status, 0) << run.output;
    for (const std::string part : {"workload " + w.prefix + ": 2 ranks, 1 communicator group in",
                                   std::string("rank 1: "),
                                   std::string("ALL_REDUCE"),
                                   std::string("3145728"),
                                   std::string("12 us on the critical path"),
                                   std::string("1 group, 1 collective matched"),
                                   std::string("4 of 4 nodes complete")})
    {
        EXPECT_NE(run.output.find(part), std::string::npos) << part << "\n" << run.output;
    }
    const auto summary = nlohmann::json::parse(ReadBytes(w.dir.File("s.json")));
    EXPECT_EQ(summary["per_rank"][1]["collectives"][0]["bytes"], 3 << 20);
    EXPECT_EQ(summary["problems"], 0);

    const RunResult json = RunEtInfo(w.prefix + " --rank=1 --json");
    ASSERT_EQ(json.status, 0) << json.output;
    EXPECT_EQ(std::count(json.output.begin(), json.output.end(), '\n'), 3); // metadata + 2
}

TEST(EtInfoTool, BrokenWorkloadsExitWithStatus2)
{
    HandWorkload w(3);
    for (uint32_t r = 0; r < 3; ++r)
    {
        w.workload.ranks[r].AddSend("s", (r + 1) % 3, 0, 8, {});
    }
    w.workload.Write(w.prefix);
    // Nobody receives: each send is reported, and the first in the error line.
    const RunResult unmatched = RunEtInfo(w.prefix);
    EXPECT_EQ(unmatched.status, 2) << unmatched.output;
    EXPECT_NE(unmatched.output.find("error: " + w.prefix + ": 6 problems found"), std::string::npos)
        << unmatched.output;
    EXPECT_NE(unmatched.output.find("no matching receive"), std::string::npos);

    EXPECT_EQ(RunEtInfo(w.prefix + " --rank=3").status, 2);
    EXPECT_EQ(RunEtInfo("").status, 2);
    EXPECT_EQ(RunEtInfo(w.dir.File("nothing")).status, 2);
    WriteBytes(CommGroupFilePath(w.prefix), "{\"1\": [0, 7]}");
    const RunResult groups = RunEtInfo(w.prefix);
    EXPECT_EQ(groups.status, 2);
    EXPECT_NE(groups.output.find("comm-groups.json:1: key \"1\": rank 7"), std::string::npos)
        << groups.output;
    std::filesystem::remove(EtRankFilePath(w.prefix, 1));
    const RunResult gap = RunEtInfo(w.prefix);
    EXPECT_EQ(gap.status, 2);
    EXPECT_NE(gap.output.find(".1.et"), std::string::npos) << gap.output;
}
