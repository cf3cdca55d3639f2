/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Replay a Chakra execution trace, one ns-3 application per NPU, over a fabric.
//
//   ./mlfabric run chakra-replay \
//       --workload=../shared/data/astra-sim/workload/microbenchmarks/all_reduce/8npus_1MB/all_reduce
//       \
//       --fabric=../shared/data/astra-sim/network/analytical/Ring_8npus.yml \
//       --system=../shared/data/astra-sim/system/native_collectives/Ring_4chunks.json
//
// Prints per rank the finish, compute, communication and exposed-communication times,
// per collective its type, size, group, algorithm, start and end, and totals;
// --csv=FILE writes the rank and collective tables as CSV, --summary=FILE as JSON.
// Progress lines go to stderr while it runs; Ctrl-C stops it cleanly with what it has.
//
// Under mpirun the replay runs as one simulation across the processes, on ns-3's
// distributed simulator (packet level, one workload); process 0 prints the figures:
//
//   mpirun -n 2 build/examples/chakra-replay --workload=traces/gpt-16npu/gpt
//       --fabric=fabrics/two-dim-4x4-roce.yaml --cc=dcqcn
//
// Several training jobs share one fabric with --job, once per job, instead of
// --workload; each job's ranks live on their own NPUs, and the tables gain a row per
// job (with --alone, its slowdown against running alone on the same NPUs):
//
//   ./mlfabric run chakra-replay --fabric=fabrics/ring-8.yaml --backend=analytical-aware
//       --job=/tmp/ar4,npus=0,2,4,6,name=a --job=/tmp/ar4,npus=1,3,5,7,name=b --alone

#include "ns3/cc-options.h"
#include "ns3/core-module.h"
#include "ns3/distributed-options.h"
#include "ns3/distributed-run.h"
#include "ns3/effective-settings.h"
#include "ns3/example-cli.h"
#include "ns3/failure-options.h"
#include "ns3/input-error.h"
#include "ns3/path-settings.h"
#include "ns3/replay-job-report.h"
#include "ns3/replay-report.h"
#include "ns3/replay-run.h"
#include "ns3/summary.h"

#include <atomic>
#include <csignal>
#include <fstream>
#include <iostream>
#include <memory>

#ifdef MLFABRIC_MPI
#    include "ns3/mpi-process-group.h"
#endif

using namespace ns3;

namespace
{

/** Raised by SIGINT; the replay's progress check stops the simulation. */
std::atomic<bool> g_stop{false};

/** SIGINT handler. */
void
OnInterrupt(int)
{
    g_stop.store(true);
}

/** \return <workload>.comm-groups.json if it exists (what et-gen writes), else "" */
std::string
GroupsBeside(const std::string& workload)
{
    const std::string beside = workload + ".comm-groups.json";
    return std::ifstream(beside).good() ? beside : std::string();
}

/**
 * Run every job of \p result alone on the NPUs it had and note its finish as the
 * baseline of its slowdown. Skipped runs (interrupted) leave the baseline unset.
 */
void
MeasureAlone(const ReplayRunConfig& config, ReplayResult& result)
{
    for (size_t j = 0; j < result.jobs.size() && !g_stop.load(); ++j)
    {
        ReplayRunConfig alone = config;
        alone.jobs = {config.jobs[j]};
        alone.jobs.front().npus = result.jobs[j].npus;
        // The shared run's files stay the shared run's.
        alone.timeseriesPath.clear();
        alone.timelinePath.clear();
        alone.links.path.clear();
        const ReplayResult run = RunReplay(alone);
        if (run.completed)
        {
            for (const auto& rank : run.jobs.front().ranks)
            {
                result.jobs[j].alone = Max(result.jobs[j].alone, rank.finish);
            }
        }
    }
}

#ifdef MLFABRIC_MPI
/**
 * Refuse, naming the option, what a replay across processes does not run and the replay
 * itself does not refuse (ReplaySession::Build, ReplayEngine::SetProcessRanks).
 */
void
RefuseSingleProcessOptions(const ExampleCli& cli)
{
    const std::pair<const char*, const char*> refused[] = {
        {"qp-per-message",
         "a receiver finds its queue pair by the sender's numbering, which only queue pairs "
         "per peer opened before the run keep alike on every process"},
        {"timeseries", "the samples read the whole network, and each process holds its part"},
        {"timeline", "it follows every rank's nodes, and each process holds its own ranks"},
        {"critical-path", "it follows every rank's nodes, and each process holds its own ranks"},
    };
    for (const auto& [option, why] : refused)
    {
        if (cli.IsSet(option))
        {
            throw InputError("--" + std::string(option) + ": not under mpirun: " + why);
        }
    }
}
#endif

/**
 * Print the tables and write the CSV and summary files of a replay.
 * \param cli the options
 * \param config the run
 * \param result its figures
 * \param perProcess across processes: each one's events and wall time; else nullptr
 * \param maxCollectives collective rows printed
 */
void
Report(const ExampleCli& cli,
       const ReplayRunConfig& config,
       ReplayResult& result,
       const ProcessFigures* perProcess,
       uint64_t maxCollectives)
{
    const bool multi = !config.jobs.empty();
    if (multi && cli.GetBool("alone") && result.completed)
    {
        MeasureAlone(config, result);
    }
    if (result.networkStats)
    {
        std::cout << FormatEffectiveSettings(result.networkStats->effective) << "\n";
    }
    if (multi)
    {
        PrintReplayJobTables(std::cout, config, result, maxCollectives);
    }
    else
    {
        PrintReplayTables(std::cout, config, result, maxCollectives);
    }
    for (size_t j = 0; j < result.criticalPaths.size(); ++j)
    {
        std::cout << (multi ? "job " + result.jobs[j].name + ": " : std::string("\n"))
                  << DescribeCriticalPath(result.criticalPaths[j]) << "\n";
    }
    PrintInvariantReport(std::cout, result.invariants);
    PrintFailureReport(std::cout, result.failures);
    if (cli.GetBool("astra-log"))
    {
        std::cout << "\n";
        PrintAstraSimLines(std::cout, result);
    }
    if (multi)
    {
        WriteReplayJobsCsv(cli.Get("csv"), result);
    }
    else
    {
        WriteReplayCsv(cli.Get("csv"), result);
    }
    if (!cli.Get("summary").empty())
    {
        nlohmann::json summary =
            multi ? ReplayJobsToJson(config, result) : ReplayToJson(config, result);
        if (result.invariants.checked)
        {
            summary["invariants"] = ToJson(result.invariants);
        }
        if (!result.failures.empty())
        {
            summary["failures"] = FailuresToJson(result.failures);
        }
        if (!multi && !result.criticalPaths.empty())
        {
            summary["critical_path"] = CriticalPathToJson(result.criticalPaths.front());
        }
        else if (!result.criticalPaths.empty())
        {
            nlohmann::json paths = nlohmann::json::array();
            for (size_t j = 0; j < result.criticalPaths.size(); ++j)
            {
                paths.push_back(CriticalPathToJson(result.criticalPaths[j]));
                paths.back()["job"] = result.jobs[j].name;
            }
            summary["critical_paths"] = paths;
        }
        if (result.networkStats)
        {
            summary["effective_settings"] = EffectiveSettingsToJson(result.networkStats->effective);
        }
        if (perProcess)
        {
            AddProcessesToSummary(
                summary, result.partition, perProcess->events, perProcess->seconds);
        }
        WriteSummary(cli.Get("summary"), summary);
    }
}

int
Main(int argc, char** argv)
{
    ExampleCli cli("Replay a Chakra execution trace (one ns-3 application per NPU) over a fabric");
    cli.AddInput("workload",
                 "trace prefix: rank r reads <workload>.<r>.et (or --job)",
                 ExampleCli::InputKind::TracePrefix);
    cli.AddRepeated("job",
                    "a job sharing the fabric, instead of --workload: "
                    "PREFIX[,npus=LIST][,comm_group=JSON][,name=NAME], LIST like 0-3,8");
    cli.Add(
        "alone", "with --job: also run each job alone on its NPUs and report its slowdown", "0");
    cli.AddInput("fabric",
                 "fabric file: mlfabric YAML, ASTRA-sim network YAML or HPCC topology (required)");
    cli.AddInput("system", "ASTRA-sim system JSON (default: ring on every dimension)");
    cli.AddInput("comm-group",
                 "ASTRA-sim communicator-group JSON (default: <workload>.comm-groups.json if it "
                 "exists, as et-gen writes it; 'empty' for none)",
                 ExampleCli::InputKind::File,
                 "empty");
    cli.AddInput("remote-memory", "ASTRA-sim remote-memory JSON, for MEM_LOAD/STORE nodes");
    cli.Add("backend",
            "network model: packet, analytical, analytical-aware, flow or hybrid (flow level "
            "inside scale-up domains, packet level elsewhere)",
            "packet");
    cli.Add("qp-per-message",
            "packet and flow level: a new queue pair for every message (ASTRA-sim's ns-3 "
            "backend)",
            "0");
    cli.Add("qp-upfront",
            "packet level: open every rank pair's queue pair before the run, in rank order, "
            "as a run across processes does, instead of at each pair's first message",
            "0");
    cli.Add("mtu",
            "packet and flow level: data payload per packet (e.g. 4096B; range of "
            "ns3::RdmaNic::Mtu); analytical: the MTU of --analytical-goodput=roce",
            "4096B");
    cli.Add("analytical-goodput",
            "analytical: share of the line rate carrying payload, in (0, 1], or 'roce' for "
            "MTU / (MTU + 82)",
            "1");
    cli.Add("ctrl-deps", "treat ctrl_deps as dependencies too (dangling ones are counted)", "0");
    cli.Add("cpu-slots", "host-side operations running at once per NPU; 0 = unlimited", "1");
    cli.Add("compute-slots", "device compute nodes running at once per NPU; 0 = unlimited", "1");
    cli.Add(
        "comm-slots", "device collectives and sends running at once per NPU; 0 = unlimited", "1");
    cli.Add("stop", "simulated time limit (e.g. 10s); 0 = none", "0");
    cli.Add("stall-timeout",
            "packet level: end the run when bytes are outstanding and none moves this long",
            "20ms");
    cli.Add("pfc-deadlock",
            "packet level: end the run when ports paused this long wait on each other",
            "2ms");
    cli.Add("progress", "seconds of wall time between progress lines; 0 = none", "2");
    cli.Add("collectives", "collective rows printed in the table", "40");
    cli.Add("astra-log",
            "also print ASTRA-sim's per-rank lines: sys[i] finished, T cycles, exposed "
            "communication E cycles",
            "0");
    cli.Add("csv", "write the rank table here and the collectives next to it", "");
    cli.Add(
        "timeseries", "packet level: write switch queues and PFC pauses over time to this CSV", "");
    cli.Add("sample-period", "packet level: time between --timeseries samples", "10us");
    cli.Add("link-period", "packet level: window of the link utilization (mean, peak)", "100us");
    cli.Add("busiest-links",
            "packet level: links in the busiest-links table, by mean utilization",
            "5");
    cli.Add("link-utilization",
            "packet level: write every link direction's utilization per --link-period window "
            "to this JSON file",
            "");
    cli.Add("timeline-links",
            "packet level: the busiest links shown as utilization counters in --timeline",
            "8");
    cli.Add("summary", "write the figures as JSON to this file", "");
    cli.Add("critical-path",
            "print the chain of nodes that sets the finish and its share per parallelism kind",
            "0");
    cli.Add("timeline",
            "write every rank's nodes and the critical path as a Chrome trace (Perfetto) JSON",
            "");
    AddInvariantOptions(cli);
    AddCcOptions(cli);
    AddFailureOptions(cli);
    AddPathOptions(cli);
    AddDistributedOptions(cli);
    const auto ccParameters = CcParametersFromArguments(argc, argv);
    cli.Parse(argc, argv);
    CheckDistributedOptions(cli);

    ReplayRunConfig config;
    config.workload = cli.Get("workload");
    config.network.fabricPath = cli.Get("fabric");
    const auto jobTexts = cli.GetAll("job");
    const bool multi = !jobTexts.empty();
    if (multi && cli.IsSet("workload"))
    {
        throw InputError("--workload: give --workload for one job or --job for each job, "
                         "not both");
    }
    if (multi && cli.IsSet("comm-group"))
    {
        throw InputError("--comm-group: with --job, give each job its comm_group=");
    }
    if (!multi && cli.IsSet("alone"))
    {
        throw InputError("--alone: applies to --job runs only");
    }
    if (!multi && config.workload.empty())
    {
        throw InputError("--workload: required (a trace prefix; rank r reads <prefix>.<r>.et), "
                         "or --job for each of several jobs");
    }
    if (config.network.fabricPath.empty())
    {
        throw InputError("--fabric: required (a fabric file)");
    }
    config.systemPath = cli.Get("system");
    config.commGroupPath = cli.Get("comm-group");
    if (!multi && !cli.IsSet("comm-group"))
    {
        config.commGroupPath = GroupsBeside(config.workload);
    }
    for (size_t i = 0; i < jobTexts.size(); ++i)
    {
        ReplayJobSpec job = ParseReplayJobSpec(jobTexts[i], i);
        if (job.commGroupPath.empty())
        {
            job.commGroupPath = GroupsBeside(job.workload);
        }
        config.jobs.push_back(job);
    }
    config.remoteMemoryPath = cli.Get("remote-memory");
    config.network.backend = ParseReplayBackendKind(cli.Get("backend"));
    // The hybrid backend's packet level takes every packet-level option.
    const bool packet = config.network.backend == ReplayBackendKind::Packet ||
                        config.network.backend == ReplayBackendKind::Hybrid;
    const bool flow = config.network.backend == ReplayBackendKind::Flow;
    for (const char* option : {"cc",
                               "cc-preset",
                               "ecn",
                               "timeseries",
                               "sample-period",
                               "link-period",
                               "busiest-links",
                               "link-utilization",
                               "timeline-links",
                               "fail",
                               "lb",
                               "spray-order",
                               "flowlet-gap",
                               "entropies",
                               "transport"})
    {
        if (!packet && cli.IsSet(option))
        {
            throw InputError(std::string("--") + option +
                             ": applies to --backend=packet only (and hybrid)");
        }
    }
    for (const char* option : {"qp-per-message"})
    {
        if (!packet && !flow && cli.IsSet(option))
        {
            throw InputError(std::string("--") + option +
                             ": applies to --backend=packet and --backend=flow only (and hybrid)");
        }
    }
    if ((packet || flow) && cli.IsSet("analytical-goodput"))
    {
        throw InputError("--analytical-goodput: applies to the analytical backends only");
    }
    config.network.qpPerMessage = cli.GetBool("qp-per-message");
    config.network.connectEveryPair = cli.GetBool("qp-upfront");
    if (!packet && cli.IsSet("qp-upfront"))
    {
        throw InputError("--qp-upfront: applies to --backend=packet only (and hybrid)");
    }
    config.network.mtu = static_cast<uint32_t>(cli.GetBytesFor("mtu", "ns3::RdmaNic", "Mtu"));
    config.network.analyticalGoodput =
        cli.Get("analytical-goodput") == "roce"
            ? static_cast<double>(config.network.mtu) / (config.network.mtu + 82)
            : cli.GetDouble("analytical-goodput", 1e-6, 1.0);
    const auto cc = GetCcOptions(cli, ccParameters);
    ApplyPathOptions(cli);
    if (cc.size() != 1)
    {
        throw InputError("--cc: chakra-replay runs one congestion control per run (got '" +
                         cli.Get("cc") + "')");
    }
    config.network.cc = cc.front();
    config.network.failures = cli.GetAll("fail");
    config.ctrlDeps = cli.GetBool("ctrl-deps");
    config.cpuSlots = static_cast<uint32_t>(cli.GetUint("cpu-slots", 0, 1U << 20));
    config.computeSlots = static_cast<uint32_t>(cli.GetUint("compute-slots", 0, 1U << 20));
    config.commSlots = static_cast<uint32_t>(cli.GetUint("comm-slots", 0, 1U << 20));
    config.stopTime = cli.Get("stop") == "0" ? Time(0) : cli.GetTime("stop");
    config.stallTimeout = cli.GetTime("stall-timeout");
    config.pfcDeadlockThreshold = cli.GetTime("pfc-deadlock");
    for (const char* option : {"stall-timeout", "pfc-deadlock"})
    {
        if (!cli.GetTime(option).IsStrictlyPositive())
        {
            throw InputError(std::string("--") + option + ": must be positive (got '" +
                             cli.Get(option) + "')");
        }
    }
    config.invariantPeriod = GetInvariantPeriod(cli);
    config.timeseriesPath = cli.Get("timeseries");
    config.samplePeriod = cli.GetTime("sample-period");
    if (!config.samplePeriod.IsStrictlyPositive())
    {
        throw InputError("--sample-period: must be positive (got '" + cli.Get("sample-period") +
                         "')");
    }
    config.links.period = cli.GetTime("link-period");
    if (!config.links.period.IsStrictlyPositive())
    {
        throw InputError("--link-period: must be positive (got '" + cli.Get("link-period") + "')");
    }
    config.links.busiest = static_cast<uint32_t>(cli.GetUint("busiest-links", 0, 1U << 20));
    config.links.path = cli.Get("link-utilization");
    if (!config.links.path.empty() && !std::ofstream(config.links.path))
    {
        throw InputError("--link-utilization: " + config.links.path + ": cannot write the file");
    }
    const auto timelineLinks = cli.GetUint("timeline-links", 0, 1U << 20);
    const double progress = cli.GetDouble("progress", 0, 3600);
    config.progress = progress > 0 ? &std::cerr : nullptr;
    config.progressPeriod = progress > 0 ? progress : 1.0;
    config.stopFlag = &g_stop;
    const auto maxCollectives = cli.GetUint("collectives", 0, 1ULL << 32);
    config.criticalPath = cli.GetBool("critical-path");
    config.timelinePath = cli.Get("timeline");
    if (!config.timelinePath.empty() && !std::ofstream(config.timelinePath))
    {
        throw InputError("--timeline: " + config.timelinePath + ": cannot write the file");
    }
    if (config.timelinePath.empty() && cli.IsSet("timeline-links"))
    {
        throw InputError("--timeline-links: applies with --timeline only");
    }
    config.links.timelineLinks =
        config.timelinePath.empty() ? 0 : static_cast<uint32_t>(timelineLinks);

    std::shared_ptr<ProcessGroup> processes;
#ifdef MLFABRIC_MPI
    // Without the mpi module RunMain refuses a start under mpirun.
    if (GetLaunchedProcessCount() > 1)
    {
        RefuseSingleProcessOptions(cli);
        processes = std::make_shared<MpiProcessGroup>(cli.Get("mpi-engine"));
        RefuseWholeNetworkOptions(config.network.failures, config.invariantPeriod, *processes);
        if (cli.Get("mpi-engine") == "null-message" && !config.stopTime.IsStrictlyPositive())
        {
            throw InputError("--mpi-engine=null-message: give --stop too: that engine ends a "
                             "run only at a stop time, not when the events run out");
        }
        if (cli.Get("mpi-engine") == "null-message" && cli.IsSet("link-utilization"))
        {
            throw InputError("--link-utilization: not under --mpi-engine=null-message: its "
                             "processes cannot agree when the ranks have finished, where the "
                             "windows end");
        }
        config.network.processes = processes.get();
        config.network.partitionPath = cli.Get("partition");
        if (processes->GetProcess() != 0)
        {
            config.progress = nullptr;
        }
    }
#endif

    std::signal(SIGINT, OnInterrupt);
    ReplayResult result = RunReplay(config);
    ProcessFigures perProcess;
    if (processes)
    {
        perProcess = GatherProcessFigures(*processes, result.events, result.wallSeconds);
        result.events = 0;
        result.wallSeconds = 0;
        for (size_t q = 0; q < perProcess.events.size(); ++q)
        {
            result.events += perProcess.events[q];
            result.wallSeconds = std::max(result.wallSeconds, perProcess.seconds[q]);
        }
    }
    std::signal(SIGINT, SIG_DFL);
    // Every process holds the whole run's figures; the first alone reports them. Each
    // ends with the same status and error line: mpirun may stop the others as soon as one
    // has ended, before they could write it.
    if (!processes || processes->GetProcess() == 0)
    {
        Report(cli, config, result, processes ? &perProcess : nullptr, maxCollectives);
    }
    if (!result.invariants.violations.empty())
    {
        std::cerr << "error: the replay broke invariants" << std::endl;
        return 1;
    }
    if (result.completed)
    {
        return 0;
    }
    if (!result.stuck.empty())
    {
        throw InputError("the workload cannot finish: " + result.stuck.front() +
                         (result.stuck.size() > 1 ? " (more above)" : ""));
    }
    if (!result.networkFailure.empty())
    {
        std::cerr << "error: the network stopped the replay: " << result.networkFailure
                  << std::endl;
        return 1;
    }
    std::cerr << "error: the replay stopped before every rank finished ("
              << (result.interrupted ? "interrupted" : "time limit") << ")" << std::endl;
    return 1;
}

} // namespace

int
main(int argc, char** argv)
{
#ifdef MLFABRIC_MPI
    return RunMain([&] { return Main(argc, argv); }, true);
#else
    return RunMain([&] { return Main(argc, argv); });
#endif
}
