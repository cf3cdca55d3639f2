/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-run.h"

#include "replay-progress.h"
#include "network-sampler.h"
#include "queue-monitor.h"
#include "run-guard.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include "model/analytical/analytical-backend.h"
#include "model/util/input-error.h"
#include "model/workload/comm-group-table.h"
#include "model/workload/et-rank-files.h"
#include "model/workload/et-replay-app.h"
#include "model/workload/et-trace.h"
#include "model/workload/replay/remote-memory-model.h"
#include "model/workload/replay/replay-engine.h"
#include "model/workload/replay/replay-plan-text.h"

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

} // namespace

uint64_t
ReplayResult::GetBytesSent() const
{
    uint64_t bytes = 0;
    for (const auto& r : ranks)
    {
        bytes += r.bytesSent;
    }
    return bytes;
}

uint64_t
ReplayResult::GetBytesReceived() const
{
    uint64_t bytes = 0;
    for (const auto& r : ranks)
    {
        bytes += r.bytesReceived;
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
    const uint32_t rankCount = DiscoverEtRankCount(config.workload);
    ReplayNetwork net = BuildReplayNetwork(config.network);
    if (net.backend->GetRankCount() != rankCount)
    {
        throw InputError(config.network.fabricPath + ": the fabric has " +
                         std::to_string(net.backend->GetRankCount()) + " NPUs but workload " +
                         config.workload + " has " + std::to_string(rankCount) + " ranks");
    }
    const SystemConfig system = config.systemPath.empty()
                                    ? DefaultReplaySystemConfig(net.physicalDimensions.size())
                                    : LoadSystemConfig(config.systemPath);
    auto groups = std::make_shared<CommGroupTable>(rankCount);
    if (!config.commGroupPath.empty() && !CommGroupTable::IsNoFile(config.commGroupPath))
    {
        groups->LoadFile(config.commGroupPath);
    }
    std::optional<RemoteMemoryConfig> memory;
    if (!config.remoteMemoryPath.empty())
    {
        memory = LoadRemoteMemoryConfig(config.remoteMemoryPath);
    }
    EtLoadOptions options;
    options.useCtrlDeps = config.ctrlDeps;
    std::vector<std::shared_ptr<const EtTrace>> traces;
    for (uint32_t r = 0; r < rankCount; ++r)
    {
        traces.push_back(std::make_shared<const EtTrace>(
            EtTrace::Load(EtRankFilePath(config.workload, r), options)));
    }
    const size_t fileGroups = groups->GetGroupCount();
    AddTraceProcessGroups(traces, *groups);
    const size_t metadataGroups = groups->GetGroupCount() - fileGroups;

    ReplaySetup setup;
    setup.backend = net.backend;
    setup.system = system;
    setup.physicalDimensions = net.physicalDimensions;
    setup.groups = groups;
    setup.remoteMemory = memory;
    Ptr<ReplayEngine> engine = CreateObject<ReplayEngine>();
    engine->Setup(setup);
    for (uint32_t r = 0; r < rankCount; ++r)
    {
        Ptr<EtReplayApp> app = CreateObject<EtReplayApp>();
        app->SetAttribute("Rank", UintegerValue(r));
        app->SetAttribute("CpuSlots", UintegerValue(config.cpuSlots));
        app->SetAttribute("ComputeSlots", UintegerValue(config.computeSlots));
        app->SetAttribute("CommSlots", UintegerValue(config.commSlots));
        app->SetTrace(traces[r]);
        app->SetEngine(engine);
        app->SetStartTime(Seconds(0));
        net.rankNodes[r]->AddApplication(app);
        engine->AddRank(app);
    }

    ReplayProgress progress(config.progress,
                            config.progressPeriod,
                            [engine, rankCount]()
                            {
                                return std::to_string(engine->GetFinishedRankCount()) + "/" +
                                       std::to_string(rankCount) + " ranks finished";
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

    result.completed = engine->GetFinishedRankCount() == rankCount;
    if (guard && guard->GetVerdict() != RunGuard::Verdict::NONE)
    {
        result.networkFailure = guard->GetReport();
    }
    if (net.roce)
    {
        result.networkStats = CollectNetworkStats(*net.roce, queues.get());
    }
    if (sampler)
    {
        sampler->WriteCsv(config.timeseriesPath);
    }
    result.interrupted = !result.completed && progress.WasInterrupted();
    result.timedOut = !result.completed && !result.interrupted && result.networkFailure.empty() &&
                      config.stopTime.IsStrictlyPositive() && Simulator::Now() >= config.stopTime;
    for (uint32_t r = 0; r < rankCount; ++r)
    {
        ReplayRankStats stats = engine->GetApp(r)->GetStats();
        stats.bytesSent = engine->GetBytesSent(r);
        stats.bytesReceived = engine->GetBytesReceived(r);
        result.nodes += stats.nodes;
        result.simulated = Max(result.simulated, stats.finish);
        result.ranks.push_back(stats);
    }
    if (!result.completed)
    {
        result.simulated = Simulator::Now();
        if (!result.interrupted && !result.timedOut && result.networkFailure.empty())
        {
            result.stuck = engine->DescribeStuck(20);
        }
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
        result.collectives.push_back(record);
    }
    result.notes = engine->GetNotes();
    result.warnings = system.warnings;
    result.networkDeliveredBytes = NetworkDeliveredBytes(net);
    result.network = net.description;
    result.system = DescribeSystem(system);
    result.groups =
        (fileGroups > 0 ? config.commGroupPath + " (" + std::to_string(fileGroups) + " groups)"
                        : std::string("none from a file")) +
        (metadataGroups > 0 ? ", " + std::to_string(metadataGroups) + " from METADATA nodes"
                            : std::string());
    result.fabricName = net.fabric.fabric.GetName();

    engine->Dispose();
    return result;
}

} // namespace ns3
