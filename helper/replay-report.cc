/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-report.h"

#include "ns3/log.h"

#include "model/util/input-error.h"

#include <cstdio>
#include <fstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayReport");

namespace
{

/** \return \p t in microseconds */
double
Us(Time t)
{
    return static_cast<double>(t.GetPicoSeconds()) / 1e6;
}

/** \return \p t in nanoseconds, keeping picoseconds as decimals */
double
Ns(Time t)
{
    return static_cast<double>(t.GetPicoSeconds()) / 1e3;
}

/** \return the group as reports name it */
std::string
GroupName(const std::string& group)
{
    return group.empty() ? "all" : group;
}

/** printf into a std::string */
template <typename... Args>
std::string
Format(const char* format, Args... args)
{
    char buffer[512];
    std::snprintf(buffer, sizeof(buffer), format, args...);
    return buffer;
}

/** \return "ok", "interrupted", "time limit" or "deadlock" */
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

/** Open \p path for writing or throw InputError. */
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

/** A CSV field: quoted when it holds a comma or a quote. */
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
    out << "groups:  " << r.groups << "\n\n";

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
        << Format("%6s %-15s %12s %6s %-20s %6s %12s %12s %12s\n",
                  "coll",
                  "type",
                  "bytes",
                  "group",
                  "algorithm",
                  "chunks",
                  "start(us)",
                  "end(us)",
                  "time(us)");
    for (size_t i = 0; i < r.collectives.size() && i < maxCollectives; ++i)
    {
        const auto& c = r.collectives[i];
        const bool done = c.finishedRanks == c.ranks;
        out << Format("%6u %-15s %12llu %6s %-20s %6u %12.3f %12s %12s\n",
                      c.id,
                      ToString(c.type).c_str(),
                      static_cast<unsigned long long>(c.bytes),
                      GroupName(c.group).c_str(),
                      c.algorithm.c_str(),
                      c.chunks,
                      Us(c.start),
                      done ? Format("%.3f", Us(c.end)).c_str() : "-",
                      done ? Format("%.3f", Us(c.end - c.start)).c_str() : "unfinished");
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

    if (!r.notes.empty())
    {
        out << "\nnotes:\n";
        for (const auto& [what, count] : r.notes)
        {
            out << "  " << count << " x " << what << "\n";
        }
    }
    uint64_t dangling = 0;
    for (const auto& s : r.ranks)
    {
        dangling += s.danglingCtrlDeps;
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
        << NetworkLines(r)
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

void
PrintAstraSimLines(std::ostream& out, const ReplayResult& result)
{
    for (const auto& s : result.ranks)
    {
        if (s.finished)
        {
            out << "sys[" << s.rank << "] finished, " << s.finish.GetNanoSeconds()
                << " cycles, exposed communication " << s.GetAstraExposedComm().GetNanoSeconds()
                << " cycles.\n";
        }
    }
    out.flush();
}

nlohmann::json
ReplayToJson(const ReplayRunConfig& config, const ReplayResult& r)
{
    nlohmann::json ranks = nlohmann::json::array();
    for (const auto& s : r.ranks)
    {
        ranks.push_back({{"rank", s.rank},
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
                         {"dangling_ctrl_deps", s.danglingCtrlDeps}});
    }
    // Built field by field: an initializer list would copy every object once more,
    // which matters for traces of hundreds of thousands of collectives.
    nlohmann::json collectives = nlohmann::json::array();
    for (const auto& c : r.collectives)
    {
        nlohmann::json& j = collectives.emplace_back(nlohmann::json::object());
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
    }
    nlohmann::json notes = nlohmann::json::object();
    for (const auto& [what, count] : r.notes)
    {
        notes[what] = count;
    }
    return {{"workload", config.workload},
            {"fabric", config.network.fabricPath},
            {"backend", ToString(config.network.backend)},
            {"network", r.network},
            {"system", r.system},
            {"groups", r.groups},
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
            {"ranks", ranks},
            {"collectives", collectives},
            {"notes", notes},
            {"warnings", r.warnings},
            {"stuck", r.stuck},
            {"network_failure", r.networkFailure},
            {"network_stats",
             r.networkStats ? r.networkStats->ToJson() : nlohmann::json::object()}};
}

std::string
ReplayCollectivesCsvPath(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash) ||
        dot == (slash == std::string::npos ? 0 : slash + 1))
    {
        return path + ".collectives";
    }
    return path.substr(0, dot) + ".collectives" + path.substr(dot);
}

void
WriteReplayCsv(const std::string& path, const ReplayResult& r)
{
    if (path.empty())
    {
        return;
    }
    std::ofstream ranks = OpenCsv(path);
    ranks << "rank,finished,finish_ns,compute_ns,comm_ns,exposed_comm_ns,astra_exposed_comm_ns,"
             "cpu_ns,remote_memory_ns,nodes,collectives,sends,receives,bytes_sent,"
             "bytes_received\n";
    for (const auto& s : r.ranks)
    {
        ranks << s.rank << "," << (s.finished ? 1 : 0) << "," << Format("%.3f", Ns(s.finish)) << ","
              << Format("%.3f", Ns(s.compute)) << "," << Format("%.3f", Ns(s.comm)) << ","
              << Format("%.3f", Ns(s.exposedComm)) << ","
              << Format("%.3f", Ns(s.GetAstraExposedComm())) << "," << Format("%.3f", Ns(s.cpu))
              << "," << Format("%.3f", Ns(s.memory)) << "," << s.nodes << "," << s.collectives
              << "," << s.sends << "," << s.receives << "," << s.bytesSent << "," << s.bytesReceived
              << "\n";
    }
    if (!ranks)
    {
        throw InputError(path + ": cannot write the CSV file");
    }
    const std::string collectivesPath = ReplayCollectivesCsvPath(path);
    std::ofstream coll = OpenCsv(collectivesPath);
    coll << "id,type,bytes,group,sequence,ranks,finished_ranks,algorithm,chunks,start_ns,end_ns\n";
    for (const auto& c : r.collectives)
    {
        coll << c.id << "," << ToString(c.type) << "," << c.bytes << ","
             << CsvField(GroupName(c.group)) << "," << c.sequence << "," << c.ranks << ","
             << c.finishedRanks << "," << CsvField(c.algorithm) << "," << c.chunks << ","
             << Format("%.3f", Ns(c.start)) << "," << Format("%.3f", Ns(c.end)) << "\n";
    }
    if (!coll)
    {
        throw InputError(collectivesPath + ": cannot write the CSV file");
    }
}

} // namespace ns3
