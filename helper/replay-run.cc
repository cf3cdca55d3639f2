/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-run.h"

#include "ns3/analytical-backend.h"
#include "ns3/boolean.h"
#include "ns3/comm-group-table.h"
#include "ns3/et-rank-files.h"
#include "ns3/et-replay-app.h"
#include "ns3/et-trace.h"
#include "ns3/input-error.h"
#include "ns3/invariant-checker.h"
#include "ns3/log.h"
#include "ns3/network-sampler.h"
#include "ns3/queue-monitor.h"
#include "ns3/rank-map-backend.h"
#include "ns3/remote-memory-model.h"
#include "ns3/replay-engine.h"
#include "ns3/replay-job-placement.h"
#include "ns3/replay-plan-text.h"
#include "ns3/replay-progress.h"
#include "ns3/replay-stuck-watch.h"
#include "ns3/run-guard.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <chrono>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayRun");

namespace
{

/** \return "[ring, direct]" */
std::string
DescribeImplementation(const std::vector<AlgorithmSpec>& specs)
{
    std::string text = "[";
    for (size_t i = 0; i < specs.size(); ++i)
    {
        text += (i ? ", " : "") + ToString(specs[i]);
    }
    return text + "]";
}

/** One line about a system configuration. */
std::string
DescribeSystem(const SystemConfig& c)
{
    std::ostringstream text;
    const char* policy = c.schedulingPolicy == SchedulingPolicy::Lifo   ? "LIFO"
                         : c.schedulingPolicy == SchedulingPolicy::Fifo ? "FIFO"
                                                                        : "EXPLICIT";
    text << c.source << ": " << policy << ", "
         << (c.collectiveOptimization == CollectiveOptimization::LocalBwAware ? "localBWAware"
                                                                              : "baseline")
         << ", " << c.preferredDatasetSplits << " split(s), " << c.activeChunksPerDimension
         << " active chunk(s) per dimension, endpoint delay " << c.GetEndpointDelayNs()
         << " ns, all-reduce " << DescribeImplementation(c.allReduceImplementation)
         << ", reduce-scatter " << DescribeImplementation(c.reduceScatterImplementation)
         << ", all-gather " << DescribeImplementation(c.allGatherImplementation) << ", all-to-all "
         << DescribeImplementation(c.allToAllImplementation);
    if (c.localMemBwGBps > 0)
    {
        text << ", local-mem-bw " << c.localMemBwGBps << " GB/s";
    }
    if (c.rooflineEnabled)
    {
        text << ", roofline " << c.peakPerfTflops << " TFLOPS";
    }
    return text.str();
}

/** Register the process groups of the METADATA nodes of every trace. */
void
AddTraceProcessGroups(const std::vector<std::shared_ptr<const EtTrace>>& traces,
                      CommGroupTable& groups)
{
    for (const auto& trace : traces)
    {
        for (const EtNode& node : trace->GetNodes())
        {
            if (node.type == EtNodeType::METADATA_NODE &&
                node.inputsValues.find("pg_name") != std::string_view::npos)
            {
                groups.AddProcessGroups(std::string(node.inputsValues),
                                        DescribeNodePlace(*trace, node));
            }
        }
    }
}

/** Payload the network itself delivered, counted by the network. */
uint64_t
NetworkDeliveredBytes(const ReplayNetwork& net)
{
    if (net.roce)
    {
        uint64_t bytes = 0;
        for (const auto& node : net.rankNodes)
        {
            bytes += net.roce->GetNic(node->GetId())->GetCounters().deliveredBytes;
        }
        return bytes;
    }
    return DynamicCast<AnalyticalBackend>(net.backend)->GetDeliveredBytes();
}

/** A job while its run is built and carried out. */
struct JobRun
{
    ReplayJobSpec spec;                                 //!< as configured
    std::string where;                                  //!< "job 'NAME': ", or "" alone
    uint32_t rankCount{0};                              //!< ranks of its workload
    std::vector<uint32_t> npus;                         //!< fabric NPU of each rank
    std::vector<uint32_t> dimensions;                   //!< of its collectives
    std::shared_ptr<CommGroupTable> groups;             //!< its communicator groups
    size_t fileGroups{0};                               //!< groups from the JSON file
    size_t metadataGroups{0};                           //!< groups from METADATA nodes
    std::vector<std::shared_ptr<const EtTrace>> traces; //!< by rank
    Ptr<ReplayEngine> engine;                           //!< its replay
};

/** Run \p fn; an InputError it throws gets \p where in front of its message. */
template <typename F>
auto
NamingJob(const std::string& where, F fn)
{
    try
    {
        return fn();
    }
    catch (const InputError& e)
    {
        if (where.empty())
        {
            throw;
        }
        throw InputError(where + e.what());
    }
}

/** Read a job's groups and traces. */
void
LoadJobInputs(JobRun& job, bool ctrlDeps)
{
    job.groups = std::make_shared<CommGroupTable>(job.rankCount);
    const std::string& path = job.spec.commGroupPath;
    if (!path.empty() && !CommGroupTable::IsNoFile(path))
    {
        job.groups->LoadFile(path);
    }
    EtLoadOptions options;
    options.useCtrlDeps = ctrlDeps;
    for (uint32_t r = 0; r < job.rankCount; ++r)
    {
        job.traces.push_back(std::make_shared<const EtTrace>(
            EtTrace::Load(EtRankFilePath(job.spec.workload, r), options)));
    }
    job.fileGroups = job.groups->GetGroupCount();
    AddTraceProcessGroups(job.traces, *job.groups);
    job.metadataGroups = job.groups->GetGroupCount() - job.fileGroups;
}

/**
 * \return \p system for a job over \p dimensions dimensions: implementation lists
 *         longer than that keep their first entries
 */
SystemConfig
SystemForJob(SystemConfig system, size_t dimensions)
{
    for (auto* list : {&system.allReduceImplementation,
                       &system.reduceScatterImplementation,
                       &system.allGatherImplementation,
                       &system.allToAllImplementation})
    {
        if (list->size() > dimensions)
        {
            list->resize(dimensions);
        }
    }
    return system;
}

/** Stop the simulation once no engine of the run has a node running. */
void
StopWhenAllIdle(const std::vector<Ptr<ReplayEngine>>* engines)
{
    for (const auto& engine : *engines)
    {
        if (!engine->IsIdle())
        {
            return;
        }
    }
    Simulator::Stop();
}

/** \return what a job's engine measured */
ReplayJobResult
CollectJob(const JobRun& job, const std::string& commGroupPath)
{
    ReplayJobResult out;
    out.name = job.spec.name;
    out.workload = job.spec.workload;
    out.npus = job.npus;
    out.dimensions = job.dimensions;
    const Ptr<ReplayEngine>& engine = job.engine;
    out.completed = engine->GetFinishedRankCount() == job.rankCount;
    for (uint32_t r = 0; r < job.rankCount; ++r)
    {
        ReplayRankStats stats = engine->GetApp(r)->GetStats();
        stats.bytesSent = engine->GetBytesSent(r);
        stats.bytesReceived = engine->GetBytesReceived(r);
        out.nodes += stats.nodes;
        out.ranks.push_back(stats);
    }
    for (const ReplayCollective& c : engine->GetCollectives())
    {
        ReplayCollectiveRecord record;
        record.id = c.id;
        record.type = c.type;
        record.bytes = c.bytes;
        record.group = c.group;
        record.sequence = c.sequence;
        record.ranks = c.members;
        record.finishedRanks = c.finished;
        record.algorithm = DescribeCollectiveAlgorithm(*c.plan);
        record.chunks = c.plan->chunkCount;
        record.start = c.firstIssue;
        record.end = c.lastFinish;
        out.collectives.push_back(record);
    }
    out.notes = engine->GetNotes();
    out.groups =
        (job.fileGroups > 0 ? commGroupPath + " (" + std::to_string(job.fileGroups) + " groups)"
                            : std::string("none from a file")) +
        (job.metadataGroups > 0 ? ", " + std::to_string(job.metadataGroups) + " from METADATA nodes"
                                : std::string());
    return out;
}

} // namespace

std::vector<const ReplayRankStats*>
ReplayResult::GetAllRanks() const
{
    std::vector<const ReplayRankStats*> all;
    for (const auto& r : ranks)
    {
        all.push_back(&r);
    }
    for (const auto& job : jobs)
    {
        for (const auto& r : job.ranks)
        {
            all.push_back(&r);
        }
    }
    return all;
}

uint64_t
ReplayResult::GetBytesSent() const
{
    uint64_t bytes = 0;
    for (const auto* r : GetAllRanks())
    {
        bytes += r->bytesSent;
    }
    return bytes;
}

uint64_t
ReplayResult::GetBytesReceived() const
{
    uint64_t bytes = 0;
    for (const auto* r : GetAllRanks())
    {
        bytes += r->bytesReceived;
    }
    return bytes;
}

SystemConfig
DefaultReplaySystemConfig(size_t dimensions)
{
    SystemConfig c;
    c.source = "default system";
    const std::vector<AlgorithmSpec> ring(std::max<size_t>(dimensions, 1), AlgorithmSpec{});
    c.allReduceImplementation = ring;
    c.reduceScatterImplementation = ring;
    c.allGatherImplementation = ring;
    c.allToAllImplementation = ring;
    return c;
}

ReplayResult
RunReplay(const ReplayRunConfig& config)
{
    // Whatever happens (an input error while building or a divergence while running),
    // the simulator is left empty for the next run of the process.
    struct SimulatorCleanup
    {
        ~SimulatorCleanup()
        {
            Simulator::Destroy();
        }
    } cleanup;

    // Inputs first, so that every input error comes before anything runs.
    const bool multi = !config.jobs.empty();
    if (multi && !config.workload.empty())
    {
        throw InputError("give a workload or jobs, not both");
    }
    std::vector<JobRun> jobs;
    if (multi)
    {
        for (const ReplayJobSpec& spec : config.jobs)
        {
            JobRun& job = jobs.emplace_back();
            job.spec = spec;
            job.where = "job '" + spec.name + "': ";
        }
    }
    else
    {
        JobRun& job = jobs.emplace_back();
        job.spec.workload = config.workload;
        job.spec.commGroupPath = config.commGroupPath;
    }
    std::vector<uint32_t> rankCounts;
    for (JobRun& job : jobs)
    {
        job.rankCount =
            NamingJob(job.where, [&]() { return DiscoverEtRankCount(job.spec.workload); });
        rankCounts.push_back(job.rankCount);
    }
    ReplayNetwork net = BuildReplayNetwork(config.network);
    const uint32_t npuCount = net.backend->GetRankCount();
    if (!multi)
    {
        if (npuCount != jobs[0].rankCount)
        {
            throw InputError(config.network.fabricPath + ": the fabric has " +
                             std::to_string(npuCount) + " NPUs but workload " + config.workload +
                             " has " + std::to_string(jobs[0].rankCount) + " ranks");
        }
        for (uint32_t r = 0; r < npuCount; ++r)
        {
            jobs[0].npus.push_back(r);
        }
        jobs[0].dimensions = net.physicalDimensions;
    }
    else
    {
        const auto placed = PlaceReplayJobs(config.jobs, rankCounts, npuCount);
        for (size_t j = 0; j < jobs.size(); ++j)
        {
            jobs[j].npus = placed[j];
            jobs[j].dimensions = ReplayJobDimensions(net.physicalDimensions, placed[j]);
        }
    }
    const SystemConfig system = config.systemPath.empty()
                                    ? DefaultReplaySystemConfig(net.physicalDimensions.size())
                                    : LoadSystemConfig(config.systemPath);
    std::optional<RemoteMemoryConfig> memory;
    if (!config.remoteMemoryPath.empty())
    {
        memory = LoadRemoteMemoryConfig(config.remoteMemoryPath);
    }
    for (JobRun& job : jobs)
    {
        NamingJob(job.where, [&]() { LoadJobInputs(job, config.ctrlDeps); });
    }

    // One engine per job; the simulation stops when none of them can go on.
    std::vector<Ptr<ReplayEngine>> engines;
    for (JobRun& job : jobs)
    {
        ReplaySetup setup;
        setup.backend = net.backend;
        setup.system = system;
        if (multi)
        {
            Ptr<RankMapBackend> view = CreateObject<RankMapBackend>();
            view->Attach(net.backend, job.npus);
            setup.backend = view;
            setup.system = SystemForJob(system, job.dimensions.size());
        }
        setup.physicalDimensions = job.dimensions;
        setup.groups = job.groups;
        setup.remoteMemory = memory;
        job.engine = CreateObject<ReplayEngine>();
        BooleanValue stopWhenIdle;
        job.engine->GetAttribute("StopWhenIdle", stopWhenIdle);
        if (stopWhenIdle.Get())
        {
            job.engine->SetAttribute("StopWhenIdle", BooleanValue(false));
            job.engine->TraceConnectWithoutContext(
                "Idle",
                MakeBoundCallback(&StopWhenAllIdle,
                                  static_cast<const std::vector<Ptr<ReplayEngine>>*>(&engines)));
        }
        engines.push_back(job.engine);
        NamingJob(job.where, [&]() { job.engine->Setup(setup); });
        for (uint32_t r = 0; r < job.rankCount; ++r)
        {
            Ptr<EtReplayApp> app = CreateObject<EtReplayApp>();
            app->SetAttribute("Rank", UintegerValue(r));
            app->SetAttribute("CpuSlots", UintegerValue(config.cpuSlots));
            app->SetAttribute("ComputeSlots", UintegerValue(config.computeSlots));
            app->SetAttribute("CommSlots", UintegerValue(config.commSlots));
            app->SetTrace(job.traces[r]);
            app->SetEngine(job.engine);
            app->SetStartTime(Seconds(0));
            net.rankNodes[job.npus[r]]->AddApplication(app);
            NamingJob(job.where, [&]() { job.engine->AddRank(app); });
        }
    }

    uint32_t rankCount = 0;
    for (const JobRun& job : jobs)
    {
        rankCount += job.rankCount;
    }
    ReplayProgress progress(config.progress,
                            config.progressPeriod,
                            [&jobs, rankCount]()
                            {
                                uint32_t finished = 0;
                                for (const JobRun& job : jobs)
                                {
                                    finished += job.engine->GetFinishedRankCount();
                                }
                                return std::to_string(finished) + "/" + std::to_string(rankCount) +
                                       " ranks finished";
                            });
    progress.SetStopFlag(config.stopFlag);
    progress.Start();
    std::unique_ptr<RunGuard> guard;
    std::unique_ptr<QueueMonitor> queues;
    std::unique_ptr<NetworkSampler> sampler;
    if (net.roce)
    {
        queues = std::make_unique<QueueMonitor>(*net.roce);
        if (!config.timeseriesPath.empty())
        {
            sampler = std::make_unique<NetworkSampler>(*net.roce, config.samplePeriod);
            sampler->Start();
        }
        guard =
            std::make_unique<RunGuard>(*net.roce, config.stallTimeout, config.pfcDeadlockThreshold);
        guard->Start();
    }
    auto allFinished = [&jobs]()
    {
        for (const JobRun& job : jobs)
        {
            if (job.engine->GetFinishedRankCount() != job.rankCount)
            {
                return false;
            }
        }
        return true;
    };
    // The network's periodic events would keep ranks that only wait running for ever.
    std::unique_ptr<ReplayStuckWatch> stuckWatch;
    if (Ptr<RdmaNetworkBackend> rdma = DynamicCast<RdmaNetworkBackend>(net.backend))
    {
        stuckWatch = std::make_unique<ReplayStuckWatch>(rdma, allFinished, config.stallTimeout);
        stuckWatch->Start();
    }
    std::unique_ptr<InvariantChecker> checker;
    if (net.roce && config.invariantPeriod.IsStrictlyPositive())
    {
        checker = std::make_unique<InvariantChecker>(*net.roce);
        checker->StartPeriodic(config.invariantPeriod, allFinished);
    }
    if (config.stopTime.IsStrictlyPositive())
    {
        Simulator::Stop(config.stopTime);
    }
    const uint64_t eventsBefore = Simulator::GetEventCount();
    const auto wallStart = std::chrono::steady_clock::now();
    Simulator::Run();
    ReplayResult result;
    result.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    result.events = Simulator::GetEventCount() - eventsBefore - progress.GetCheckCount();

    if (guard && guard->GetVerdict() != RunGuard::Verdict::NONE)
    {
        result.networkFailure = guard->GetReport();
    }
    if (net.roce)
    {
        result.networkStats = CollectNetworkStats(*net.roce, queues.get());
    }
    if (checker)
    {
        result.invariants = FinishInvariantChecks(*checker, allFinished());
    }
    if (sampler)
    {
        sampler->WriteCsv(config.timeseriesPath);
    }
    result.completed = true;
    for (const JobRun& job : jobs)
    {
        ReplayJobResult collected = CollectJob(job, job.spec.commGroupPath);
        result.completed = result.completed && collected.completed;
        result.nodes += collected.nodes;
        for (const auto& stats : collected.ranks)
        {
            result.simulated = Max(result.simulated, stats.finish);
        }
        if (multi)
        {
            result.jobs.push_back(std::move(collected));
            continue;
        }
        result.ranks = std::move(collected.ranks);
        result.collectives = std::move(collected.collectives);
        result.notes = std::move(collected.notes);
        result.groups = std::move(collected.groups);
    }
    result.interrupted = !result.completed && progress.WasInterrupted();
    result.timedOut = !result.completed && !result.interrupted && result.networkFailure.empty() &&
                      config.stopTime.IsStrictlyPositive() && Simulator::Now() >= config.stopTime;
    if (!result.completed)
    {
        result.simulated = Simulator::Now();
        if (!result.interrupted && !result.timedOut && result.networkFailure.empty())
        {
            for (const JobRun& job : jobs)
            {
                for (const std::string& line : job.engine->DescribeStuck(20))
                {
                    result.stuck.push_back(job.where + line);
                }
            }
        }
    }
    result.warnings = system.warnings;
    result.networkDeliveredBytes = NetworkDeliveredBytes(net);
    result.network = net.description;
    result.system = DescribeSystem(system);
    result.fabricName = net.fabric.fabric.GetName();

    for (const JobRun& job : jobs)
    {
        job.engine->Dispose();
    }
    return result;
}

} // namespace ns3
