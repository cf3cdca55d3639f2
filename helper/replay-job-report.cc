/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-job-report.h"

#include "ns3/input-error.h"
#include "ns3/replay-job-spec.h"
#include "ns3/replay-report-format.h"

#include <fstream>

namespace ns3
{

using namespace replayfmt;

namespace
{

/** \return "4 x 2" */
std::string
DimensionText(const std::vector<uint32_t>& dims)
{
    std::string text;
    for (uint32_t d : dims)
    {
        text += (text.empty() ? "" : " x ") + std::to_string(d);
    }
    return text;
}

/** \return the mean of \p total over \p count, or zero */
Time
Mean(Time total, size_t count)
{
    return count == 0 ? Time(0) : PicoSeconds(total.GetPicoSeconds() / static_cast<int64_t>(count));
}

/** \return the job-figures CSV line of \p job, without its end */
std::string
JobCsvFields(const ReplayJobResult& job, const ReplayJobFigures& f)
{
    return CsvField(job.name) + "," + CsvField(job.workload) + "," +
           std::to_string(job.ranks.size()) + "," + CsvField(FormatNpuList(job.npus)) + "," +
           (job.completed ? "1" : "0") + "," + Format("%.3f", Ns(f.finish)) + "," +
           Format("%.3f", Ns(f.firstFinish)) + "," + Format("%.3f", Ns(f.compute)) + "," +
           Format("%.3f", Ns(f.comm)) + "," + Format("%.3f", Ns(f.exposedComm)) + "," +
           Format("%.3f", Ns(f.maxExposedComm)) + "," + std::to_string(f.collectives) + "," +
           Format("%.3f", Ns(f.collectiveTime)) + "," + std::to_string(f.bytesSent) + "," +
           (job.alone.IsStrictlyPositive() ? Format("%.3f", Ns(job.alone)) : std::string()) + "," +
           (f.slowdown > 0 ? Format("%.6f", f.slowdown) : std::string());
}

} // namespace

ReplayJobFigures
ComputeReplayJobFigures(const ReplayJobResult& job)
{
    ReplayJobFigures f;
    Time compute;
    Time comm;
    Time exposed;
    for (size_t i = 0; i < job.ranks.size(); ++i)
    {
        const ReplayRankStats& s = job.ranks[i];
        f.finish = Max(f.finish, s.finish);
        f.firstFinish = i == 0 ? s.finish : Min(f.firstFinish, s.finish);
        compute += s.compute;
        comm += s.comm;
        exposed += s.exposedComm;
        f.maxExposedComm = Max(f.maxExposedComm, s.exposedComm);
        f.bytesSent += s.bytesSent;
    }
    f.compute = Mean(compute, job.ranks.size());
    f.comm = Mean(comm, job.ranks.size());
    f.exposedComm = Mean(exposed, job.ranks.size());
    f.collectives = job.collectives.size();
    for (const auto& c : job.collectives)
    {
        if (c.finishedRanks == c.ranks)
        {
            f.collectiveTime += c.end - c.start;
        }
    }
    if (job.alone.IsStrictlyPositive())
    {
        f.slowdown = static_cast<double>(f.finish.GetPicoSeconds()) /
                     static_cast<double>(job.alone.GetPicoSeconds());
    }
    return f;
}

void
PrintReplayJobTables(std::ostream& out,
                     const ReplayRunConfig& config,
                     const ReplayResult& r,
                     size_t maxCollectives)
{
    size_t ranks = 0;
    bool alone = false;
    for (const auto& job : r.jobs)
    {
        ranks += job.ranks.size();
        alone = alone || job.alone.IsStrictlyPositive();
    }
    out << "chakra-replay: " << r.jobs.size() << " jobs (" << ranks << " ranks, " << r.nodes
        << " nodes) on " << r.fabricName << "\n";
    out << "network: " << r.network << "\n";
    out << "system:  " << r.system << "\n";
    for (const auto& job : r.jobs)
    {
        out << "job " << job.name << ": " << job.workload << ", " << job.ranks.size()
            << " ranks on NPUs " << FormatNpuList(job.npus) << " (dimensions "
            << DimensionText(job.dimensions) << "), groups " << job.groups << "\n";
        for (const std::string& line : job.groupPlans)
        {
            out << "  " << line << "\n";
        }
    }

    out << "\n"
        << Format("%-12s %6s %13s %13s %13s %13s %13s %6s %13s",
                  "job",
                  "ranks",
                  "finish(us)",
                  "compute(us)",
                  "comm(us)",
                  "exposed(us)",
                  "max-exp(us)",
                  "colls",
                  "coll-sum(us)");
    out << (alone ? Format(" %13s %9s", "alone(us)", "slowdown") : std::string()) << "\n";
    for (const auto& job : r.jobs)
    {
        const ReplayJobFigures f = ComputeReplayJobFigures(job);
        out << Format("%-12s %6zu %13.3f %13.3f %13.3f %13.3f %13.3f %6llu %13.3f",
                      job.name.c_str(),
                      job.ranks.size(),
                      Us(f.finish),
                      Us(f.compute),
                      Us(f.comm),
                      Us(f.exposedComm),
                      Us(f.maxExposedComm),
                      static_cast<unsigned long long>(f.collectives),
                      Us(f.collectiveTime));
        if (alone)
        {
            out << (f.slowdown > 0 ? Format(" %13.3f %9.4f", Us(job.alone), f.slowdown)
                                   : Format(" %13s %9s", "-", "-"));
        }
        out << (job.completed ? "" : "  unfinished") << "\n";
    }

    out << "\n"
        << Format("%-12s %6s %6s %13s %13s %13s %13s %13s %13s %13s\n",
                  "job",
                  "rank",
                  "npu",
                  "finish(us)",
                  "compute(us)",
                  "comm(us)",
                  "exposed(us)",
                  "astra-exp(us)",
                  "sent(B)",
                  "received(B)");
    for (const auto& job : r.jobs)
    {
        for (const auto& s : job.ranks)
        {
            out << Format("%-12s %6u %6u %13.3f %13.3f %13.3f %13.3f %13.3f %13llu %13llu%s\n",
                          job.name.c_str(),
                          s.rank,
                          job.npus[s.rank],
                          Us(s.finish),
                          Us(s.compute),
                          Us(s.comm),
                          Us(s.exposedComm),
                          Us(s.GetAstraExposedComm()),
                          static_cast<unsigned long long>(s.bytesSent),
                          static_cast<unsigned long long>(s.bytesReceived),
                          s.finished ? "" : "  unfinished");
        }
    }

    out << "\n"
        << Format("%-12s %6s %-15s %12s %6s %-20s %6s %12s %12s %12s\n",
                  "job",
                  "coll",
                  "type",
                  "bytes",
                  "group",
                  "algorithm",
                  "chunks",
                  "start(us)",
                  "end(us)",
                  "time(us)");
    size_t printed = 0;
    size_t total = 0;
    for (const auto& job : r.jobs)
    {
        total += job.collectives.size();
        for (const auto& c : job.collectives)
        {
            if (printed == maxCollectives)
            {
                break;
            }
            ++printed;
            const bool done = c.finishedRanks == c.ranks;
            out << Format("%-12s %6u %-15s %12llu %6s %-20s %6u %12.3f %12s %12s\n",
                          job.name.c_str(),
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
    }
    if (total > printed)
    {
        out << "  ... " << total - printed
            << " more collectives (all of them with --csv or --summary)\n";
    }
    if (total == 0)
    {
        out << "  (no collectives)\n";
    }

    for (const auto& job : r.jobs)
    {
        if (!job.notes.empty())
        {
            out << "\nnotes of job " << job.name << ":\n";
            for (const auto& [what, count] : job.notes)
            {
                out << "  " << count << " x " << what << "\n";
            }
        }
    }
    PrintTotals(out, config, r);
}

nlohmann::json
ReplayJobsToJson(const ReplayRunConfig& config, const ReplayResult& r)
{
    nlohmann::json jobs = nlohmann::json::array();
    for (const auto& job : r.jobs)
    {
        const ReplayJobFigures f = ComputeReplayJobFigures(job);
        nlohmann::json ranks = nlohmann::json::array();
        for (const auto& s : job.ranks)
        {
            nlohmann::json rank = RankToJson(s);
            rank["npu"] = job.npus[s.rank];
            ranks.push_back(std::move(rank));
        }
        nlohmann::json collectives = nlohmann::json::array();
        for (const auto& c : job.collectives)
        {
            collectives.push_back(CollectiveToJson(c));
        }
        nlohmann::json& j = jobs.emplace_back(nlohmann::json::object());
        j["name"] = job.name;
        j["workload"] = job.workload;
        j["npus"] = job.npus;
        j["dimensions"] = job.dimensions;
        j["groups"] = job.groups;
        j["group_plans"] = job.groupPlans;
        j["completed"] = job.completed;
        j["nodes"] = job.nodes;
        j["finish_ns"] = Ns(f.finish);
        j["first_finish_ns"] = Ns(f.firstFinish);
        j["compute_ns"] = Ns(f.compute);
        j["comm_ns"] = Ns(f.comm);
        j["exposed_comm_ns"] = Ns(f.exposedComm);
        j["max_exposed_comm_ns"] = Ns(f.maxExposedComm);
        j["collective_count"] = f.collectives;
        j["collective_ns"] = Ns(f.collectiveTime);
        j["bytes_sent"] = f.bytesSent;
        j["alone_ns"] = job.alone.IsStrictlyPositive() ? nlohmann::json(Ns(job.alone))
                                                       : nlohmann::json(nullptr);
        j["slowdown"] = f.slowdown > 0 ? nlohmann::json(f.slowdown) : nlohmann::json(nullptr);
        j["ranks"] = std::move(ranks);
        j["collectives"] = std::move(collectives);
        j["notes"] = NotesToJson(job.notes);
    }
    nlohmann::json summary = RunToJson(config, r);
    summary["jobs"] = std::move(jobs);
    return summary;
}

void
WriteReplayJobsCsv(const std::string& path, const ReplayResult& r)
{
    if (path.empty())
    {
        return;
    }
    std::ofstream ranks = OpenCsv(path);
    ranks << "job,npu," << kRankCsvHeader << "\n";
    for (const auto& job : r.jobs)
    {
        for (const auto& s : job.ranks)
        {
            ranks << CsvField(job.name) << "," << job.npus[s.rank] << ",";
            WriteRankCsvRow(ranks, s);
        }
    }
    if (!ranks)
    {
        throw InputError(path + ": cannot write the CSV file");
    }
    const std::string collectivesPath = CsvSibling(path, "collectives");
    std::ofstream coll = OpenCsv(collectivesPath);
    coll << "job," << kCollectiveCsvHeader << "\n";
    for (const auto& job : r.jobs)
    {
        for (const auto& c : job.collectives)
        {
            coll << CsvField(job.name) << ",";
            WriteCollectiveCsvRow(coll, c);
        }
    }
    if (!coll)
    {
        throw InputError(collectivesPath + ": cannot write the CSV file");
    }
    const std::string jobsPath = CsvSibling(path, "jobs");
    std::ofstream jobs = OpenCsv(jobsPath);
    jobs << "job,workload,ranks,npus,completed,finish_ns,first_finish_ns,compute_ns,comm_ns,"
            "exposed_comm_ns,max_exposed_comm_ns,collectives,collective_ns,bytes_sent,alone_ns,"
            "slowdown\n";
    for (const auto& job : r.jobs)
    {
        jobs << JobCsvFields(job, ComputeReplayJobFigures(job)) << "\n";
    }
    if (!jobs)
    {
        throw InputError(jobsPath + ": cannot write the CSV file");
    }
}

} // namespace ns3
