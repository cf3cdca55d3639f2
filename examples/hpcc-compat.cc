/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Run the HPCC ns-3 simulator's own inputs: its config.txt, topology and flow files.
//
//   ./mlfabric run hpcc-compat --config=mix/config.txt [--topology=FILE] [--flows=FILE]
//       [--out-dir=DIR] [--fidelity=faithful|peer] [--summary=FILE]
//       [--ns3::Type::Attribute=value ...]
//   mpirun -np N build/examples/hpcc-compat --config=... [--partition=FILE]
//       [--mpi-engine=granted-time-window|null-message]
//
// Writes fct.txt, pfc.txt and qlen.txt with the simulator's columns where the config's
// FCT_OUTPUT_FILE, PFC_OUTPUT_FILE and QLEN_MON_FILE say (relative to the working
// directory, as the simulator opens them; with --out-dir, by file name there), prints progress
// while it runs, then a table of the FCT slowdown (overall and by flow size, as the simulator's
// fct_analysis.py computes it), PFC, drops and the simulator's speed; --summary=FILE writes the
// same as JSON. ns-3 attributes given on the command line override what the configuration sets.
// Under mpirun one simulation runs across the processes (doc/scaling.md); the first writes
// the files and prints the figures.
// Exit status: 0 when every flow completed, 1 when some did not by
// SIMULATOR_STOP_TIME (or the run was interrupted), 2 on bad input.

#include "ns3/core-module.h"
#include "ns3/distributed-options.h"
#include "ns3/example-cli.h"
#include "ns3/failure-options.h"
#include "ns3/hpcc-run.h"
#include "ns3/input-error.h"
#include "ns3/path-settings.h"
#include "ns3/summary.h"

#ifdef MLFABRIC_MPI
#    include "ns3/mpi-process-group.h"
#endif

#include <sys/resource.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>

using namespace ns3;

namespace
{

std::atomic<bool> g_stop{false}; //!< raised by SIGINT

void
OnSigint(int)
{
    // Stop cleanly the first time; a second Ctrl-C ends the process at once.
    g_stop = true;
    std::signal(SIGINT, SIG_DFL);
}

/** \return the peak resident set size of this process, MiB */
double
PeakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

/** \return a bucket's label, e.g. "<= 75906 B" */
std::string
BucketLabel(const HpccSlowdownBucket& b)
{
    return "<= " + std::to_string(b.maxBytes) + " B";
}

/** Print one slowdown row. */
void
PrintSlowdownRow(const std::string& label, const HpccSlowdownStats& s)
{
    std::printf("  %-22s %7llu %8.3f %8.3f %8.3f %8.3f\n",
                label.c_str(),
                static_cast<unsigned long long>(s.flows),
                s.mean,
                s.p50,
                s.p95,
                s.p99);
}

/** Print the run as tables. */
void
PrintTables(const HpccRunOptions& options,
            const HpccRunResult& r,
            double rssMiB,
            bool pathOptionsGiven)
{
    std::printf("hpcc-compat: %s (fidelity %s)\n\n",
                options.configPath.c_str(),
                HpccFidelityName(r.fidelity).c_str());
    std::printf("  %-22s %s: hosts %u, switches %u, links %u\n",
                "topology",
                r.topologyPath.c_str(),
                r.hosts,
                r.switches,
                r.links);
    std::printf("  %-22s %s: %zu flows of %llu bytes in all\n",
                "flows",
                r.flowPath.c_str(),
                r.flows.size(),
                static_cast<unsigned long long>(r.bytes));
    std::printf("  %-22s CC_MODE %u -> %s%s%s\n",
                "congestion control",
                r.cc.ccMode,
                r.cc.scheme.c_str(),
                r.cc.peerName.empty() ? "" : (" (the simulator's " + r.cc.peerName + ")").c_str(),
                r.cc.exact ? "" : "   !! NOT the simulator's scheme, see the warning");
    std::printf("  %-22s %.3f us, BDP %llu B\n",
                "largest base RTT",
                r.maxRtt.GetSeconds() * 1e6,
                static_cast<unsigned long long>(r.maxBdp));
    std::printf("  %-22s %s, %s, %s\n",
                "outputs",
                r.fctPath.c_str(),
                r.pfcPath.c_str(),
                r.qlenPath.c_str());
    if (!r.warnings.empty())
    {
        std::printf("  %-22s %zu (printed above)\n", "warnings", r.warnings.size());
    }
    if (pathOptionsGiven)
    {
        std::printf("  %-22s %s\n", "paths", FormatPathSettings(r.paths).c_str());
    }
    if (!r.failureHeader.empty())
    {
        std::printf("  %s\n", r.failureHeader.c_str());
    }
    if (!r.partition.empty())
    {
        std::printf("  %s\n", r.partition.c_str());
    }

    std::printf("\nFCT slowdown (fct / standalone fct), %u of %zu flows completed\n",
                r.completed,
                r.flows.size());
    std::printf("  %-22s %7s %8s %8s %8s %8s\n", "flow size", "flows", "mean", "p50", "p95", "p99");
    PrintSlowdownRow("all", r.slowdown);
    for (const auto& b : r.buckets)
    {
        PrintSlowdownRow(BucketLabel(b), b.stats);
    }

    std::printf("\n");
    std::printf("  %-28s %llu\n", "PFC pauses", static_cast<unsigned long long>(r.pfcPauses));
    std::printf("  %-28s %llu\n", "switch drops", static_cast<unsigned long long>(r.drops));
    std::printf("  %-28s %llu\n", "ECN marks", static_cast<unsigned long long>(r.ecnMarks));
    std::printf("  %-28s %llu / %llu B\n",
                "timeouts / retransmitted",
                static_cast<unsigned long long>(r.timeouts),
                static_cast<unsigned long long>(r.retransmittedBytes));
    std::printf("  %-28s %.9f\n", "last completion (s)", r.lastCompletion.GetSeconds());
    std::printf("  %-28s %.9f%s\n",
                "simulated until (s)",
                r.simulatedTime.GetSeconds(),
                r.interrupted ? " (interrupted)" : "");
    std::printf("  %-28s %llu\n", "events", static_cast<unsigned long long>(r.events));
    std::printf("  %-28s %.3f\n", "setup wall time (s)", r.setupSeconds);
    std::printf("  %-28s %.3f\n", "run wall time (s)", r.wallSeconds);
    std::printf("  %-28s %.3f M/s\n",
                "events per second",
                r.wallSeconds > 0 ? static_cast<double>(r.events) / r.wallSeconds / 1e6 : 0.0);
    std::printf("  %-28s %.1f\n", "peak RSS (MiB)", rssMiB);
    PrintFailureReport(std::cout, r.failures);
}

/** The slowdown figures as JSON. */
nlohmann::json
StatsJson(const HpccSlowdownStats& s)
{
    return {{"flows", s.flows}, {"mean", s.mean}, {"p50", s.p50}, {"p95", s.p95}, {"p99", s.p99}};
}

/** The run as JSON. */
nlohmann::json
ToJson(const HpccRunOptions& options, const HpccRunResult& r, double rssMiB, bool pathOptionsGiven)
{
    nlohmann::json buckets = nlohmann::json::array();
    for (const auto& b : r.buckets)
    {
        nlohmann::json j = StatsJson(b.stats);
        j["from_percentile"] = b.fromPercentile;
        j["max_bytes"] = b.maxBytes;
        buckets.push_back(j);
    }
    nlohmann::json summary = {
        {"config", options.configPath},
        {"topology", r.topologyPath},
        {"flow_file", r.flowPath},
        {"fidelity", HpccFidelityName(r.fidelity)},
        {"cc_mode", r.cc.ccMode},
        {"cc_scheme", r.cc.scheme},
        {"cc_exact", r.cc.exact},
        {"cc_warning", r.cc.warning},
        {"warnings", r.warnings},
        {"hosts", r.hosts},
        {"switches", r.switches},
        {"links", r.links},
        {"max_rtt_ns", r.maxRtt.GetNanoSeconds()},
        {"max_bdp_bytes", r.maxBdp},
        {"flows", r.flows.size()},
        {"flows_completed", r.completed},
        {"bytes", r.bytes},
        {"slowdown", StatsJson(r.slowdown)},
        {"slowdown_by_size", buckets},
        {"pfc_pauses", r.pfcPauses},
        {"drops", r.drops},
        {"ecn_marks", r.ecnMarks},
        {"timeouts", r.timeouts},
        {"retransmitted_bytes", r.retransmittedBytes},
        {"last_completion_ns", r.lastCompletion.GetNanoSeconds()},
        {"simulated_ns", r.simulatedTime.GetNanoSeconds()},
        {"interrupted", r.interrupted},
        {"qlen_samples", r.qlenSamples},
        {"events", r.events},
        {"setup_wall_seconds", r.setupSeconds},
        {"wall_seconds", r.wallSeconds},
        {"events_per_second",
         r.wallSeconds > 0 ? static_cast<double>(r.events) / r.wallSeconds : 0.0},
        {"peak_rss_mib", rssMiB},
        {"fct_file", r.fctPath},
        {"pfc_file", r.pfcPath},
        {"qlen_file", r.qlenPath}};
    if (r.invariants.checked)
    {
        summary["invariants"] = ToJson(r.invariants);
    }
    if (pathOptionsGiven)
    {
        summary["paths"] = PathSettingsToJson(r.paths);
    }
    if (!r.failures.empty())
    {
        summary["failures"] = FailuresToJson(r.failures);
    }
    if (!r.partition.empty())
    {
        AddProcessesToSummary(summary, r.partition, r.processEvents, r.processSeconds);
    }
    return summary;
}

int
Main(int argc, char** argv)
{
    ExampleCli cli("Run the HPCC ns-3 simulator's config.txt, topology and flow files");
    cli.AddInput("config", "the simulator's configuration file (required)");
    cli.AddInput("topology", "topology file, instead of the config's TOPOLOGY_FILE");
    cli.AddInput("flows", "flow file, instead of the config's FLOW_FILE");
    cli.Add("out-dir",
            "folder for the FCT, PFC and queue-length files under the config's file names "
            "(default: the config's paths, relative to the working directory)",
            "");
    cli.Add("fidelity",
            "faithful (mlfabric's model) or peer (the simulator's simplifications)",
            "faithful");
    cli.Add("buckets", "width of the slowdown size buckets, percent of the flows (1..100)", "5");
    cli.Add("progress", "wall seconds between progress lines; 0 for none", "2");
    cli.Add("summary", "write the figures as JSON to this file", "");
    AddInvariantOptions(cli);
    AddPathOptions(cli);
    AddFailureOptions(cli);
    AddDistributedOptions(cli);
    cli.Parse(argc, argv);
    // Without path options the run is the simulator's (per-flow ECMP, go-back-N) and
    // prints what it always did; with any, the header says what was installed.
    bool pathOptionsGiven = false;
    for (const char* name : {"lb", "spray-order", "flowlet-gap", "entropies", "transport"})
    {
        pathOptionsGiven = pathOptionsGiven || cli.IsSet(name);
    }
    ApplyPathOptions(cli);

    HpccRunOptions options;
    options.configPath = cli.Get("config");
    if (options.configPath.empty())
    {
        throw InputError("--config: required (the simulator's config.txt)");
    }
    options.topologyPath = cli.Get("topology");
    options.flowPath = cli.Get("flows");
    options.outDir = cli.Get("out-dir");
    options.fidelity = ParseHpccFidelity(cli.Get("fidelity"), "--fidelity");
    options.bucketPercent = static_cast<uint32_t>(cli.GetUint("buckets", 1, 100));
    options.progressSeconds = cli.GetDouble("progress", 0, 3600);
    options.invariantPeriod = GetInvariantPeriod(cli);
    options.failures = cli.GetAll("fail");
    options.log = &std::cerr;
    options.stopFlag = &g_stop;
    // --ns3::Type::Attribute=value overrides what the configuration sets.
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const auto eq = arg.find('=');
        if (arg.rfind("--ns3::", 0) == 0 && eq != std::string::npos)
        {
            options.attributes.emplace_back(arg.substr(2, eq - 2), arg.substr(eq + 1));
        }
    }
    options.partitionPath = cli.Get("partition");
    if (GetLaunchedProcessCount() > 1)
    {
#ifdef MLFABRIC_MPI
        options.processes = std::make_shared<MpiProcessGroup>(cli.Get("mpi-engine"));
        // The first process's warnings stand for all: the others read the same inputs.
        if (options.processes->GetProcess() != 0)
        {
            options.log = nullptr;
        }
#endif
    }
    CheckDistributedOptions(cli);
    // One process of several cannot stop alone: Ctrl-C ends them all at once.
    if (!options.processes)
    {
        std::signal(SIGINT, OnSigint);
    }

    const HpccRunResult r = RunHpcc(options);
    // Every process holds the whole run's figures; the first alone reports them.
    if (options.processes && options.processes->GetProcess() != 0)
    {
        return r.completed == r.flows.size() ? 0 : 1;
    }
    const double rss = PeakRssMiB();
    PrintTables(options, r, rss, pathOptionsGiven);
    PrintInvariantReport(std::cout, r.invariants);
    WriteSummary(cli.Get("summary"), ToJson(options, r, rss, pathOptionsGiven));
    if (!r.cc.exact)
    {
        std::cerr << "warning: " << r.cc.warning << std::endl;
    }
    if (r.completed != r.flows.size())
    {
        std::cerr << "error: " << r.flows.size() - r.completed << " of " << r.flows.size()
                  << " flows did not complete "
                  << (r.interrupted ? "(interrupted)" : "by SIMULATOR_STOP_TIME") << std::endl;
        return 1;
    }
    if (!r.invariants.violations.empty())
    {
        std::cerr << "error: the run broke invariants" << std::endl;
        return 1;
    }
    return 0;
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
