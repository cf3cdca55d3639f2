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
    "id,type,bytes,group,sequence,ranks,finished_ranks,algorithm,chunks,start_ns,end_ns";

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

/** Packet-level network figures, one per line; empty for the analytical backends. */
std::string
NetworkLines(const ReplayResult& r)
{
    if (!r.networkStats)
    {
        return "";
    }
    const NetworkStats& n = *r.networkStats;
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
                  n.meanQueueBytes / 1024.0);
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
        << Format("%.3f", Ns(c.end)) << "\n";
}

} // namespace replayfmt
} // namespace ns3
