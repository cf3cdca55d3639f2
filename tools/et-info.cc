/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Summarize a Chakra workload, <prefix>.<rank>.et for every rank: per rank the nodes
// by type, the collectives by type and group with their bytes, point-to-point traffic,
// compute time and its critical path; then the checks that the ranks can replay
// together (each trace loads and validates, group members issue the same collectives,
// every send has its receive). Any failed check ends with status 2.
//
//   ./mlfabric et-info traces/gpt-16npu/gpt
//   ./mlfabric et-info traces/gpt-16npu/gpt --rank=3
//   ./mlfabric et-info traces/gpt-16npu/gpt --rank=0 --json > gpt.0.jsonl

#include "ns3/et-info-checks.h"
#include "ns3/et-info-dry-run.h"
#include "ns3/et-info-json.h"
#include "ns3/et-rank-files.h"
#include "ns3/example-cli.h"
#include "ns3/gen-workload.h"
#include "ns3/input-error.h"
#include "ns3/input-file.h"
#include "ns3/summary.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <tuple>

using namespace ns3;

namespace
{

/** \return the value of the GlobalMetadata string attribute `name`, or "" */
std::string
MetadataString(const EtTrace& trace, const std::string& name)
{
    for (const auto& attr : trace.GetMetadata().attr())
    {
        if (attr.name() == name && attr.has_string_val())
        {
            return attr.string_val();
        }
    }
    return "";
}

/** \return "s" unless n is 1 */
const char*
Plural(uint64_t n)
{
    return n == 1 ? "" : "s";
}

/** Print one rank's section. */
void
PrintRank(const EtRankInfo& info, const std::optional<EtCommGroups>& groups, uint32_t rankCount)
{
    std::printf("\nrank %u: %s, %llu nodes, %llu dependencies, %llu root%s\n",
                info.rank,
                info.path.c_str(),
                static_cast<unsigned long long>(info.nodes),
                static_cast<unsigned long long>(info.edges),
                static_cast<unsigned long long>(info.roots),
                Plural(info.roots));
    std::string types;
    for (const auto& [type, count] : info.nodesByType)
    {
        types += (types.empty() ? "" : ", ") + type + " " + std::to_string(count);
    }
    std::printf("  nodes:    %s\n", types.empty() ? "none" : types.c_str());
    std::printf("  compute:  %llu node%s, %llu us in total, %llu us on the critical path\n",
                static_cast<unsigned long long>(info.computeNodes),
                Plural(info.computeNodes),
                static_cast<unsigned long long>(info.computeMicros),
                static_cast<unsigned long long>(info.criticalPathMicros));
    if (info.danglingCtrlDeps > 0)
    {
        std::printf("  ctrl_deps naming absent nodes (ignored): %llu\n",
                    static_cast<unsigned long long>(info.danglingCtrlDeps));
    }
    if (info.collectives.empty() && info.sends.count == 0 && info.recvs.count == 0)
    {
        return;
    }
    std::printf(
        "  %-22s %-8s %6s %10s %18s\n", "communication", "group", "ranks", "count", "bytes");
    // Collective type, then group ids in numeric order (shorter decimal first).
    std::vector<std::pair<std::pair<std::string, std::string>, EtTraffic>> rows(
        info.collectives.begin(), info.collectives.end());
    std::sort(rows.begin(),
              rows.end(),
              [](const auto& a, const auto& b)
              {
                  return std::make_tuple(a.first.first, a.first.second.size(), a.first.second) <
                         std::make_tuple(b.first.first, b.first.second.size(), b.first.second);
              });
    for (const auto& [key, traffic] : rows)
    {
        const std::string label = EtGroupLabel(key.second);
        std::string size = "?";
        if (label == "world")
        {
            size = std::to_string(rankCount);
        }
        else if (groups && groups->count(key.second) > 0)
        {
            size = std::to_string(groups->at(key.second).size());
        }
        std::printf("  %-22s %-8s %6s %10llu %18llu\n",
                    key.first.c_str(),
                    label.c_str(),
                    size.c_str(),
                    static_cast<unsigned long long>(traffic.count),
                    static_cast<unsigned long long>(traffic.bytes));
    }
    for (const auto& [name, traffic] :
         {std::pair{"send", &info.sends}, std::pair{"recv", &info.recvs}})
    {
        if (traffic->count > 0)
        {
            std::printf("  %-22s %-8s %6s %10llu %18llu\n",
                        name,
                        "",
                        "",
                        static_cast<unsigned long long>(traffic->count),
                        static_cast<unsigned long long>(traffic->bytes));
        }
    }
}

/** \return one rank's figures as JSON */
nlohmann::json
RankJson(const EtRankInfo& info)
{
    nlohmann::json collectives = nlohmann::json::array();
    for (const auto& [key, traffic] : info.collectives)
    {
        collectives.push_back({{"type", key.first},
                               {"group", EtGroupLabel(key.second)},
                               {"count", traffic.count},
                               {"bytes", traffic.bytes}});
    }
    return {{"rank", info.rank},
            {"path", info.path},
            {"nodes", info.nodes},
            {"dependencies", info.edges},
            {"roots", info.roots},
            {"nodes_by_type", info.nodesByType},
            {"compute_nodes", info.computeNodes},
            {"compute_us", info.computeMicros},
            {"critical_path_us", info.criticalPathMicros},
            {"collectives", collectives},
            {"sends", {{"count", info.sends.count}, {"bytes", info.sends.bytes}}},
            {"recvs", {{"count", info.recvs.count}, {"bytes", info.recvs.bytes}}}};
}

int
Run(int argc, char** argv)
{
    const std::string prefix = argc > 1 ? argv[1] : "";
    if (prefix.empty() || prefix.rfind("--", 0) == 0)
    {
        std::printf("usage: et-info <prefix> [--rank=R] [--json] [--comm-groups=FILE] "
                    "[--ctrl-deps] [--summary=FILE]\n"
                    "reads <prefix>.0.et, <prefix>.1.et, ... and <prefix>.comm-groups.json\n");
        if (prefix == "--help" || prefix == "-h")
        {
            return 0;
        }
        throw InputError("missing the workload prefix (files <prefix>.<rank>.et)");
    }
    ExampleCli cli("Summarize and check the Chakra workload " + prefix);
    cli.Add("rank", "show this rank only (all: every rank)", "all");
    cli.Add("json", "write the selected ranks' nodes as JSON lines instead", "0");
    cli.AddInput("comm-groups",
                 "communicator-group file (default <prefix>.comm-groups.json if present)");
    cli.Add("ctrl-deps", "treat ctrl_deps naming nodes of the file as dependencies", "0");
    cli.Add("dry-run", "replay the ranks together in zero time to find deadlocks", "1");
    cli.Add("summary", "also write the figures as JSON to this file", "");
    cli.Parse(argc - 1, argv + 1);
    CheckInputFile(EtRankFilePath(prefix, 0), "workload");

    const uint32_t rankCount = DiscoverEtRankCount(prefix);
    const bool allRanks = cli.Get("rank") == "all";
    const uint32_t shown = allRanks ? 0 : cli.GetUint("rank", 0, rankCount - 1);
    auto selected = [&](uint32_t r)
    {
        return allRanks || r == shown;
    };

    if (cli.GetBool("json"))
    {
        for (uint32_t r = 0; r < rankCount; ++r)
        {
            if (selected(r))
            {
                WriteEtJsonLines(EtRankFilePath(prefix, r), std::cout);
            }
        }
        return 0;
    }

    std::optional<EtCommGroups> groups;
    std::string groupFile = cli.Get("comm-groups");
    if (groupFile.empty() && std::filesystem::exists(CommGroupFilePath(prefix)))
    {
        groupFile = CommGroupFilePath(prefix);
    }
    if (!groupFile.empty())
    {
        groups = ReadEtCommGroups(groupFile, rankCount);
    }

    EtLoadOptions options;
    options.useCtrlDeps = cli.GetBool("ctrl-deps");
    const bool dryRun = cli.GetBool("dry-run");
    std::vector<EtTrace> traces;
    std::vector<EtRankInfo> ranks;
    std::string generator;
    std::string parameters;
    for (uint32_t r = 0; r < rankCount; ++r)
    {
        EtTrace trace = EtTrace::Load(EtRankFilePath(prefix, r), options);
        if (r == 0)
        {
            generator = MetadataString(trace, "generator");
            parameters = MetadataString(trace, "parameters");
        }
        ranks.push_back(SummarizeEtRank(trace, r));
        if (dryRun)
        {
            traces.push_back(std::move(trace));
        }
    }

    const std::string groupLine = groups ? std::to_string(groups->size()) + " communicator group" +
                                               Plural(groups->size()) + " in " + groupFile
                                         : "no communicator-group file";
    std::printf("workload %s: %u rank%s, %s\n",
                prefix.c_str(),
                rankCount,
                Plural(rankCount),
                groupLine.c_str());
    if (!generator.empty())
    {
        std::printf("made by %s%s%s\n",
                    generator.c_str(),
                    parameters.empty() ? "" : ": ",
                    parameters.c_str());
    }
    for (const auto& info : ranks)
    {
        if (selected(info.rank))
        {
            PrintRank(info, groups, rankCount);
        }
    }

    EtWorkloadChecks checks = CheckEtWorkload(ranks, groups);
    std::optional<EtDryRun> run;
    if (dryRun)
    {
        run = DryRunEtWorkload(traces, groups);
        if (!run->rejected.empty())
        {
            checks.AddProblem("dry run: the replay cannot run the workload: " + run->rejected);
        }
        for (const auto& line : run->stuck)
        {
            checks.AddProblem("deadlock: " + line);
        }
        if (run->rejected.empty() && !run->Completed() && run->stuck.empty())
        {
            checks.AddProblem("deadlock: " + std::to_string(run->nodesTotal - run->nodesDone) +
                              " nodes never become ready");
        }
    }
    std::printf("\nchecks: %u trace%s load with acyclic dependencies; %llu group%s, %llu "
                "collective%s matched across members; %llu send%s matched by receives\n",
                rankCount,
                Plural(rankCount),
                static_cast<unsigned long long>(checks.groupsChecked),
                Plural(checks.groupsChecked),
                static_cast<unsigned long long>(checks.collectivesMatched),
                Plural(checks.collectivesMatched),
                static_cast<unsigned long long>(checks.messagesMatched),
                Plural(checks.messagesMatched));
    if (run)
    {
        std::printf("dry run (zero-time nodes, rendezvous sends): %llu of %llu nodes complete, "
                    "%llu collectives, %llu messages\n",
                    static_cast<unsigned long long>(run->nodesDone),
                    static_cast<unsigned long long>(run->nodesTotal),
                    static_cast<unsigned long long>(run->collectivesDone),
                    static_cast<unsigned long long>(run->messagesDone));
    }
    for (const auto& problem : checks.problems)
    {
        std::printf("  problem: %s\n", problem.c_str());
    }
    if (checks.problemCount > checks.problems.size())
    {
        std::printf("  ... and %llu more\n",
                    static_cast<unsigned long long>(checks.problemCount - checks.problems.size()));
    }

    nlohmann::json perRank = nlohmann::json::array();
    for (const auto& info : ranks)
    {
        if (selected(info.rank))
        {
            perRank.push_back(RankJson(info));
        }
    }
    WriteSummary(cli.Get("summary"),
                 {{"prefix", prefix},
                  {"ranks", rankCount},
                  {"generator", generator},
                  {"parameters", parameters},
                  {"groups", groups ? groups->size() : 0},
                  {"groups_checked", checks.groupsChecked},
                  {"collectives_matched", checks.collectivesMatched},
                  {"messages_matched", checks.messagesMatched},
                  {"dry_run_completed", run ? nlohmann::json(run->Completed()) : nlohmann::json()},
                  {"problems", checks.problemCount},
                  {"per_rank", perRank}});
    if (checks.problemCount > 0)
    {
        throw InputError(prefix + ": " + std::to_string(checks.problemCount) + " problem" +
                         Plural(checks.problemCount) +
                         " found; the first: " + checks.problems.front());
    }
    return 0;
}

} // namespace

int
main(int argc, char** argv)
{
    return RunMain([&] { return Run(argc, argv); });
}
