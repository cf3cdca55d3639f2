/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-report-format.h"

#include "ns3/input-error.h"

namespace ns3
{
namespace replayfmt
{

const char* const kRankCsvHeader =
    "rank,finished,finish_ns,compute_ns,comm_ns,exposed_comm_ns,astra_exposed_comm_ns,"
    "cpu_ns,remote_memory_ns,nodes,collectives,sends,receives,bytes_sent,bytes_received";

const char* const kCollectiveCsvHeader =
    "id,type,bytes,group,sequence,ranks,finished_ranks,algorithm,chunks,start_ns,end_ns,kind,"
    "issue_skew_ns,rank_mean_ns,rank_max_ns";

const char* const kSendCsvHeader = "src,dst,tag,bytes,issue_ns,arrival_ns";

const char* const kKindCsvHeader = "kind,count,bytes,slowest_rank_ns,mean_rank_ns,issue_skew_ns,"
                                   "unfinished";

namespace
{

/** The backend's own counts, one per line. */
std::string
NetworkCounterLines(const ReplayResult& r)
{
    std::string lines;
    for (const auto& [name, value] : r.networkCounters)
    {
        lines += Format("%-30s %llu\n", name.c_str(), static_cast<unsigned long long>(value));
    }
    return lines;
}

/** The busiest links, one per line, by role: mean and peak utilization, bytes. */
std::string
BusiestLinkLines(const NetworkStats& n)
{
    if (n.busiestLinks.empty())
    {
        return "";
    }
    std::string lines = Format("busiest links (utilization: mean over the run / peak per %.0f us "
                               "window; wire bytes)\n",
                               n.linkWindow.GetSeconds() * 1e6);
    for (const LinkUtilization& l : n.busiestLinks)
    {
        lines += Format("  %-28s %5.1f %% / %5.1f %%  %.3f MB (%s)\n",
                        l.name.GetName().c_str(),
                        100.0 * l.mean,
                        100.0 * l.peak,
                        static_cast<double>(l.wireBytes) / 1e6,
                        l.name.GetRoles().c_str());
    }
    return lines;
}

/** Packet-level network figures, one per line; empty for the analytical backends. */
std::string
NetworkLines(const ReplayResult& r)
{
    if (!r.networkStats)
    {
        return "";
    }
    const NetworkStats& n = *r.networkStats;
    std::string handOvers;
    if (n.relayStaged + n.relayHeldCredits > 0)
    {
        handOvers = Format("%-30s %llu / %llu%s\n",
                           "relayed to RoCE staged / held",
                           static_cast<unsigned long long>(n.relayStaged),
                           static_cast<unsigned long long>(n.relayHeldCredits),
                           n.relayHeldCredits == 0
                               ? ""
                               : " (held their scale-up credits, the relay's pool full: the "
                                 "NPU's own scale-up frames waited)");
    }
    return Format("%-30s %llu (paused %.3f us)\n",
                  "PFC pause frames",
                  static_cast<unsigned long long>(n.pfcPauseFrames),
                  n.pfcPausedTime.GetSeconds() * 1e6) +
           Format("%-30s %llu / %llu\n",
                  "ECN marks / CNPs",
                  static_cast<unsigned long long>(n.ecnMarks),
                  static_cast<unsigned long long>(n.cnps)) +
           Format("%-30s %llu / %llu\n",
                  "drops / timeouts",
                  static_cast<unsigned long long>(n.drops),
                  static_cast<unsigned long long>(n.timeouts)) +
           Format("%-30s %.1f / %.1f\n",
                  "switch queue peak / mean (KiB)",
                  n.peakQueueBytes / 1024.0,
                  n.meanQueueBytes / 1024.0) +
           handOvers + BusiestLinkLines(n);
}

} // namespace

double
Us(Time t)
{
    return static_cast<double>(t.GetPicoSeconds()) / 1e6;
}

double
Ns(Time t)
{
    return static_cast<double>(t.GetPicoSeconds()) / 1e3;
}

std::string
GroupName(const std::string& group)
{
    return group.empty() ? "all" : group;
}

std::string
Outcome(const ReplayResult& r)
{
    if (r.completed)
    {
        return "completed";
    }
    if (r.interrupted)
    {
        return "interrupted";
    }
    if (!r.networkFailure.empty())
    {
        return "network failure";
    }
    return r.timedOut ? "time limit" : "deadlock";
}

std::ofstream
OpenCsv(const std::string& path)
{
    std::ofstream out(path, std::ios::trunc);
    if (!out)
    {
        throw InputError(path + ": cannot write the CSV file");
    }
    return out;
}

std::string
CsvField(const std::string& text)
{
    if (text.find_first_of(",\"") == std::string::npos)
    {
        return text;
    }
    std::string quoted = "\"";
    for (char c : text)
    {
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return quoted + "\"";
}

std::string
CsvSibling(const std::string& path, const std::string& part)
{
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash) ||
        dot == (slash == std::string::npos ? 0 : slash + 1))
    {
        return path + "." + part;
    }
    return path.substr(0, dot) + "." + part + path.substr(dot);
}

void
PrintTotals(std::ostream& out, const ReplayRunConfig& config, const ReplayResult& r)
{
    uint64_t dangling = 0;
    for (const auto* s : r.GetAllRanks())
    {
        dangling += s->danglingCtrlDeps;
    }
    out << "\n"
        << Format("%-30s %s\n", "outcome", Outcome(r).c_str())
        << Format("%-30s %.3f\n", "simulated time (us)", Us(r.simulated))
        << Format("%-30s %llu / %llu\n",
                  "bytes sent / received",
                  static_cast<unsigned long long>(r.GetBytesSent()),
                  static_cast<unsigned long long>(r.GetBytesReceived()))
        << Format("%-30s %llu\n",
                  "bytes delivered by the network",
                  static_cast<unsigned long long>(r.networkDeliveredBytes))
        << Format("%-30s %llu%s\n",
                  "dangling ctrl_deps",
                  static_cast<unsigned long long>(dangling),
                  config.ctrlDeps ? "" : " (ctrl_deps not used; --ctrl-deps)")
        << NetworkCounterLines(r) << NetworkLines(r)
        << Format("%-30s %llu\n", "events", static_cast<unsigned long long>(r.events))
        << Format("%-30s %.3f\n", "wall time (s)", r.wallSeconds)
        << Format("%-30s %.3f M/s\n",
                  "events per second",
                  r.wallSeconds > 0 ? static_cast<double>(r.events) / r.wallSeconds / 1e6 : 0.0);
    for (const auto& line : r.stuck)
    {
        out << "stuck: " << line << "\n";
    }
    if (!r.networkFailure.empty())
    {
        out << "network: " << r.networkFailure << "\n";
    }
    out.flush();
}

nlohmann::json
RankToJson(const ReplayRankStats& s)
{
    return {{"rank", s.rank},
            {"finished", s.finished},
            {"finish_ns", Ns(s.finish)},
            {"compute_ns", Ns(s.compute)},
            {"comm_ns", Ns(s.comm)},
            {"exposed_comm_ns", Ns(s.exposedComm)},
            {"astra_exposed_comm_ns", Ns(s.GetAstraExposedComm())},
            {"cpu_ns", Ns(s.cpu)},
            {"remote_memory_ns", Ns(s.memory)},
            {"nodes", s.nodes},
            {"nodes_done", s.nodesDone},
            {"compute_nodes", s.computeNodes},
            {"collectives", s.collectives},
            {"sends", s.sends},
            {"receives", s.receives},
            {"memory_accesses", s.memoryAccesses},
            {"bytes_sent", s.bytesSent},
            {"bytes_received", s.bytesReceived},
            {"dangling_ctrl_deps", s.danglingCtrlDeps}};
}

nlohmann::json
CollectiveToJson(const ReplayCollectiveRecord& c)
{
    // Built field by field: an initializer list would copy every object once more,
    // which matters for traces of hundreds of thousands of collectives.
    nlohmann::json j = nlohmann::json::object();
    j["id"] = c.id;
    j["type"] = ToString(c.type);
    j["bytes"] = c.bytes;
    j["group"] = GroupName(c.group);
    j["sequence"] = c.sequence;
    j["ranks"] = c.ranks;
    j["finished_ranks"] = c.finishedRanks;
    j["algorithm"] = c.algorithm;
    j["chunks"] = c.chunks;
    j["start_ns"] = Ns(c.start);
    j["end_ns"] = Ns(c.end);
    j["kind"] = c.kind;
    j["issue_skew_ns"] = Ns(c.lastIssue - c.start);
    j["rank_mean_ns"] = Ns(c.rankMean);
    j["rank_max_ns"] = Ns(c.rankMax);
    return j;
}

nlohmann::json
NotesToJson(const ReplayNotes& notes)
{
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [what, count] : notes)
    {
        j[what] = count;
    }
    return j;
}

nlohmann::json
RunToJson(const ReplayRunConfig& config, const ReplayResult& r)
{
    return {
        {"fabric", config.network.fabricPath},
        {"backend", ToString(config.network.backend)},
        {"network", r.network},
        {"system", r.system},
        {"ctrl_deps", config.ctrlDeps},
        {"outcome", Outcome(r)},
        {"completed", r.completed},
        {"simulated_ns", Ns(r.simulated)},
        {"events", r.events},
        {"wall_seconds", r.wallSeconds},
        {"nodes", r.nodes},
        {"bytes_sent", r.GetBytesSent()},
        {"bytes_received", r.GetBytesReceived()},
        {"network_delivered_bytes", r.networkDeliveredBytes},
        {"network_counters", r.networkCounters},
        {"warnings", r.warnings},
        {"stuck", r.stuck},
        {"network_failure", r.networkFailure},
        {"network_stats", r.networkStats ? r.networkStats->ToJson() : nlohmann::json::object()}};
}

void
WriteRankCsvRow(std::ostream& out, const ReplayRankStats& s)
{
    out << s.rank << "," << (s.finished ? 1 : 0) << "," << Format("%.3f", Ns(s.finish)) << ","
        << Format("%.3f", Ns(s.compute)) << "," << Format("%.3f", Ns(s.comm)) << ","
        << Format("%.3f", Ns(s.exposedComm)) << "," << Format("%.3f", Ns(s.GetAstraExposedComm()))
        << "," << Format("%.3f", Ns(s.cpu)) << "," << Format("%.3f", Ns(s.memory)) << "," << s.nodes
        << "," << s.collectives << "," << s.sends << "," << s.receives << "," << s.bytesSent << ","
        << s.bytesReceived << "\n";
}

void
WriteCollectiveCsvRow(std::ostream& out, const ReplayCollectiveRecord& c)
{
    out << c.id << "," << ToString(c.type) << "," << c.bytes << "," << CsvField(GroupName(c.group))
        << "," << c.sequence << "," << c.ranks << "," << c.finishedRanks << ","
        << CsvField(c.algorithm) << "," << c.chunks << "," << Format("%.3f", Ns(c.start)) << ","
        << Format("%.3f", Ns(c.end)) << "," << CsvField(c.kind) << ","
        << Format("%.3f", Ns(c.lastIssue - c.start)) << "," << Format("%.3f", Ns(c.rankMean)) << ","
        << Format("%.3f", Ns(c.rankMax)) << "\n";
}

void
WriteSendCsvRow(std::ostream& out, const ReplaySendRecord& s)
{
    out << s.src << "," << s.dst << "," << s.tag << "," << s.bytes << ","
        << Format("%.3f", Ns(s.issue)) << ","
        << (s.arrived ? Format("%.3f", Ns(s.arrival)) : std::string()) << "\n";
}

void
WriteKindCsvRow(std::ostream& out, const ReplayKindTotal& t)
{
    out << CsvField(t.kind) << "," << t.count << "," << t.bytes << ","
        << Format("%.3f", Ns(t.slowest)) << "," << Format("%.3f", Ns(t.mean)) << ","
        << Format("%.3f", Ns(t.skew)) << "," << t.unfinished << "\n";
}

nlohmann::json
SendToJson(const ReplaySendRecord& s)
{
    nlohmann::json j = nlohmann::json::object();
    j["src"] = s.src;
    j["dst"] = s.dst;
    j["tag"] = s.tag;
    j["bytes"] = s.bytes;
    j["issue_ns"] = Ns(s.issue);
    j["arrival_ns"] = s.arrived ? nlohmann::json(Ns(s.arrival)) : nlohmann::json();
    return j;
}

nlohmann::json
KindsToJson(const std::vector<ReplayKindTotal>& totals)
{
    nlohmann::json j = nlohmann::json::array();
    for (const auto& t : totals)
    {
        j.push_back({{"kind", t.kind},
                     {"count", t.count},
                     {"bytes", t.bytes},
                     {"slowest_rank_ns", Ns(t.slowest)},
                     {"mean_rank_ns", Ns(t.mean)},
                     {"issue_skew_ns", Ns(t.skew)},
                     {"unfinished", t.unfinished}});
    }
    return j;
}

void
PrintSendsAndKinds(std::ostream& out,
                   const std::vector<ReplaySendRecord>& sends,
                   const std::vector<ReplayKindTotal>& totals,
                   size_t limit)
{
    if (!sends.empty())
    {
        out << "\n"
            << Format("%6s %6s %12s %12s %12s %12s %12s\n",
                      "src",
                      "dst",
                      "tag",
                      "bytes",
                      "issue(us)",
                      "arrival(us)",
                      "time(us)");
        for (size_t i = 0; i < sends.size() && i < limit; ++i)
        {
            const auto& s = sends[i];
            out << Format("%6u %6u %12lld %12llu %12.3f %12s %12s\n",
                          s.src,
                          s.dst,
                          static_cast<long long>(s.tag),
                          static_cast<unsigned long long>(s.bytes),
                          Us(s.issue),
                          s.arrived ? Format("%.3f", Us(s.arrival)).c_str() : "-",
                          s.arrived ? Format("%.3f", Us(s.arrival - s.issue)).c_str()
                                    : "unfinished");
        }
        if (sends.size() > limit)
        {
            out << "  ... " << sends.size() - limit
                << " more sends (all of them with --csv or --summary)\n";
        }
    }
    if (totals.empty())
    {
        return;
    }
    out << "\n"
        << Format("%-8s %8s %16s %16s %16s %14s\n",
                  "kind",
                  "count",
                  "bytes",
                  "slowest(us)",
                  "mean(us)",
                  "skew(us)");
    for (const auto& t : totals)
    {
        out << Format(
            "%-8s %8llu %16llu %16.3f %16.3f %14.3f%s\n",
            t.kind.c_str(),
            static_cast<unsigned long long>(t.count),
            static_cast<unsigned long long>(t.bytes),
            Us(t.slowest),
            Us(t.mean),
            Us(t.skew),
            t.unfinished > 0
                ? Format("  %llu unfinished", static_cast<unsigned long long>(t.unfinished)).c_str()
                : "");
    }
}

} // namespace replayfmt
} // namespace ns3
