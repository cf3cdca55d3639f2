/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-report.h"

#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/replay-report-format.h"

#include <fstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayReport");

using namespace replayfmt;

void
PrintReplayTables(std::ostream& out,
                  const ReplayRunConfig& config,
                  const ReplayResult& r,
                  size_t maxCollectives)
{
    out << "chakra-replay: " << config.workload << " (" << r.ranks.size() << " ranks, " << r.nodes
        << " nodes) on " << r.fabricName << "\n";
    out << "network: " << r.network << "\n";
    out << "system:  " << r.system << "\n";
    out << "groups:  " << r.groups << "\n";
    for (const std::string& line : r.groupPlans)
    {
        out << "  " << line << "\n";
    }
    out << "\n";

    out << Format("%6s %14s %14s %14s %14s %14s %14s %14s\n",
                  "rank",
                  "finish(us)",
                  "compute(us)",
                  "comm(us)",
                  "exposed(us)",
                  "astra-exp(us)",
                  "sent(B)",
                  "received(B)");
    for (const auto& s : r.ranks)
    {
        out << Format("%6u %14.3f %14.3f %14.3f %14.3f %14.3f %14llu %14llu%s\n",
                      s.rank,
                      Us(s.finish),
                      Us(s.compute),
                      Us(s.comm),
                      Us(s.exposedComm),
                      Us(s.GetAstraExposedComm()),
                      static_cast<unsigned long long>(s.bytesSent),
                      static_cast<unsigned long long>(s.bytesReceived),
                      s.finished ? "" : "  unfinished");
    }

    out << "\n"
        << Format("%6s %-15s %12s %6s %-5s %-20s %6s %12s %12s %12s %12s %12s\n",
                  "coll",
                  "type",
                  "bytes",
                  "group",
                  "kind",
                  "algorithm",
                  "chunks",
                  "start(us)",
                  "end(us)",
                  "time(us)",
                  "rank-max(us)",
                  "skew(us)");
    for (size_t i = 0; i < r.collectives.size() && i < maxCollectives; ++i)
    {
        const auto& c = r.collectives[i];
        const bool done = c.finishedRanks == c.ranks;
        out << Format("%6u %-15s %12llu %6s %-5s %-20s %6u %12.3f %12s %12s %12s %12.3f\n",
                      c.id,
                      ToString(c.type).c_str(),
                      static_cast<unsigned long long>(c.bytes),
                      GroupName(c.group).c_str(),
                      c.kind.c_str(),
                      c.algorithm.c_str(),
                      c.chunks,
                      Us(c.start),
                      done ? Format("%.3f", Us(c.end)).c_str() : "-",
                      done ? Format("%.3f", Us(c.end - c.start)).c_str() : "unfinished",
                      done ? Format("%.3f", Us(c.rankMax)).c_str() : "-",
                      Us(c.lastIssue - c.start));
    }
    if (r.collectives.size() > maxCollectives)
    {
        out << "  ... " << r.collectives.size() - maxCollectives
            << " more collectives (all of them with --csv or --summary)\n";
    }
    if (r.collectives.empty())
    {
        out << "  (no collectives)\n";
    }
    PrintSendsAndKinds(out, r.sends, TotalReplayKinds(r.collectives, r.sends), maxCollectives);

    if (!r.notes.empty())
    {
        out << "\nnotes:\n";
        for (const auto& [what, count] : r.notes)
        {
            out << "  " << count << " x " << what << "\n";
        }
    }
    PrintTotals(out, config, r);
}

namespace
{

/** ASTRA-sim's line for each finished rank of \p ranks. */
void
PrintAstraSimRanks(std::ostream& out, const std::vector<ReplayRankStats>& ranks)
{
    for (const auto& s : ranks)
    {
        if (s.finished)
        {
            out << "sys[" << s.rank << "] finished, " << s.finish.GetNanoSeconds()
                << " cycles, exposed communication " << s.GetAstraExposedComm().GetNanoSeconds()
                << " cycles.\n";
        }
    }
}

} // namespace

void
PrintAstraSimLines(std::ostream& out, const ReplayResult& result)
{
    PrintAstraSimRanks(out, result.ranks);
    for (const auto& job : result.jobs)
    {
        out << "job " << job.name << ":\n";
        PrintAstraSimRanks(out, job.ranks);
    }
    out.flush();
}

nlohmann::json
ReplayToJson(const ReplayRunConfig& config, const ReplayResult& r)
{
    nlohmann::json ranks = nlohmann::json::array();
    for (const auto& s : r.ranks)
    {
        ranks.push_back(RankToJson(s));
    }
    nlohmann::json collectives = nlohmann::json::array();
    for (const auto& c : r.collectives)
    {
        collectives.push_back(CollectiveToJson(c));
    }
    nlohmann::json summary = RunToJson(config, r);
    summary["workload"] = config.workload;
    summary["groups"] = r.groups;
    summary["group_plans"] = r.groupPlans;
    summary["ranks"] = std::move(ranks);
    summary["collectives"] = std::move(collectives);
    nlohmann::json sends = nlohmann::json::array();
    for (const auto& send : r.sends)
    {
        sends.push_back(SendToJson(send));
    }
    summary["sends"] = std::move(sends);
    summary["kinds"] = KindsToJson(TotalReplayKinds(r.collectives, r.sends));
    summary["notes"] = NotesToJson(r.notes);
    return summary;
}

std::string
ReplayCollectivesCsvPath(const std::string& path)
{
    return CsvSibling(path, "collectives");
}

void
WriteReplayCsv(const std::string& path, const ReplayResult& r)
{
    if (path.empty())
    {
        return;
    }
    std::ofstream ranks = OpenCsv(path);
    ranks << kRankCsvHeader << "\n";
    for (const auto& s : r.ranks)
    {
        WriteRankCsvRow(ranks, s);
    }
    if (!ranks)
    {
        throw InputError(path + ": cannot write the CSV file");
    }
    const std::string collectivesPath = ReplayCollectivesCsvPath(path);
    std::ofstream coll = OpenCsv(collectivesPath);
    coll << kCollectiveCsvHeader << "\n";
    for (const auto& c : r.collectives)
    {
        WriteCollectiveCsvRow(coll, c);
    }
    if (!coll)
    {
        throw InputError(collectivesPath + ": cannot write the CSV file");
    }
    const std::string sendsPath = CsvSibling(path, "sends");
    std::ofstream sends = OpenCsv(sendsPath);
    sends << kSendCsvHeader << "\n";
    for (const auto& s : r.sends)
    {
        WriteSendCsvRow(sends, s);
    }
    if (!sends)
    {
        throw InputError(sendsPath + ": cannot write the CSV file");
    }
    const std::string kindsPath = CsvSibling(path, "kinds");
    std::ofstream kinds = OpenCsv(kindsPath);
    kinds << kKindCsvHeader << "\n";
    for (const auto& t : TotalReplayKinds(r.collectives, r.sends))
    {
        WriteKindCsvRow(kinds, t);
    }
    if (!kinds)
    {
        throw InputError(kindsPath + ": cannot write the CSV file");
    }
}

} // namespace ns3
