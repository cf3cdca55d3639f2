/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-session.h"

#include "ns3/boolean.h"
#include "ns3/et-rank-files.h"
#include "ns3/et-replay-app.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/rdma-network-backend.h"
#include "ns3/replay-gather.h"
#include "ns3/replay-job-collect.h"
#include "ns3/replay-job-placement.h"
#include "ns3/replay-nccl-dimensions.h"
#include "ns3/replay-packet-observer.h"
#include "ns3/replay-system.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplaySession");

ReplayJob
MakeWholeFabricJob(const std::string& workload, const std::string& commGroupPath)
{
    ReplayJob job;
    job.spec.workload = workload;
    job.spec.commGroupPath = commGroupPath;
    job.fillsFabric = true;
    return job;
}

ReplayJob
MakeSharedFabricJob(const ReplayJobSpec& spec)
{
    ReplayJob job;
    job.spec = spec;
    job.where = "job '" + spec.name + "': ";
    return job;
}

ReplaySession::ReplaySession(std::vector<ReplayJob> jobs)
    : m_jobs(std::move(jobs))
{
    for (ReplayJob& job : m_jobs)
    {
        job.rankCount = NamingJob(job, [&]() { return DiscoverEtRankCount(job.spec.workload); });
    }
}

ReplaySession::~ReplaySession()
{
    for (ReplayJob& job : m_jobs)
    {
        if (job.engine)
        {
            job.engine->Dispose();
        }
    }
    m_progress.reset();
    m_net.observer.reset();
    m_net.backend = nullptr;
    m_net.rankNodes.clear();
    m_jobs.clear();
    Simulator::Destroy();
}

const std::vector<ReplayJob>&
ReplaySession::GetJobs() const
{
    return m_jobs;
}

void
ReplaySession::Build(const ReplayNetworkConfig& config)
{
    m_fabricPath = config.fabricPath;
    m_processes = config.processes;
    if (m_processes)
    {
        if (m_jobs.size() != 1 || !m_jobs[0].fillsFabric)
        {
            throw InputError("--job: a run across processes replays one workload on the "
                             "whole fabric");
        }
        if (config.backend != ReplayBackendKind::Packet)
        {
            throw InputError("--backend=" + ToString(config.backend) +
                             ": under mpirun the replay runs at packet level only");
        }
    }
    m_net = BuildReplayNetwork(config);
}

void
ReplaySession::PlaceJobs()
{
    const uint32_t npuCount = m_net.backend->GetRankCount();
    std::vector<ReplayJobSpec> specs;
    std::vector<uint32_t> rankCounts;
    for (const ReplayJob& job : m_jobs)
    {
        ReplayJobSpec spec = job.spec;
        if (job.fillsFabric)
        {
            if (job.rankCount != npuCount)
            {
                throw InputError(m_fabricPath + ": the fabric has " + std::to_string(npuCount) +
                                 " NPUs but workload " + job.spec.workload + " has " +
                                 std::to_string(job.rankCount) + " ranks");
            }
            spec.npus.clear();
            for (uint32_t r = 0; r < npuCount; ++r)
            {
                spec.npus.push_back(r);
            }
        }
        specs.push_back(spec);
        rankCounts.push_back(job.rankCount);
    }
    const auto placed = PlaceReplayJobs(specs, rankCounts, npuCount);
    for (size_t j = 0; j < m_jobs.size(); ++j)
    {
        m_jobs[j].npus = placed[j];
        m_jobs[j].dimensions = ReplayJobDimensions(m_net.physicalDimensions, placed[j]);
    }
}

void
ReplaySession::Install(const ReplaySessionInputs& inputs)
{
    PlaceJobs();
    ReplayInstallSettings settings;
    settings.system = inputs.systemPath.empty()
                          ? DefaultReplaySystemConfig(m_net.physicalDimensions.size())
                          : LoadSystemConfig(inputs.systemPath);
    settings.ncclDimensions = ReplayNcclDimensions(m_net.fabric.fabric, m_net.physicalDimensions);
    if (!inputs.remoteMemoryPath.empty())
    {
        settings.remoteMemory = LoadRemoteMemoryConfig(inputs.remoteMemoryPath);
    }
    settings.cpuSlots = inputs.cpuSlots;
    settings.computeSlots = inputs.computeSlots;
    settings.commSlots = inputs.commSlots;
    settings.localRanks = m_net.localRanks;
    m_system = settings.system;
    for (ReplayJob& job : m_jobs)
    {
        NamingJob(job, [&]() { LoadReplayJobInputs(job, inputs.ctrlDeps); });
    }
    for (ReplayJob& job : m_jobs)
    {
        // Each engine would stop the simulation when it goes idle; with several jobs the
        // run goes on until none of them can.
        job.engine = CreateObject<ReplayEngine>();
        BooleanValue stopWhenIdle;
        job.engine->GetAttribute("StopWhenIdle", stopWhenIdle);
        if (stopWhenIdle.Get())
        {
            job.engine->SetAttribute("StopWhenIdle", BooleanValue(false));
            // Across processes the run ends when every process runs out of events.
            if (!m_processes)
            {
                job.engine->TraceConnectWithoutContext(
                    "Idle", MakeCallback(&ReplaySession::OnEngineIdle, this));
            }
        }
        InstallReplayJob(job, m_net.backend, m_net.physicalDimensions, m_net.rankNodes, settings);
        if (m_processes)
        {
            Ptr<ReplayEngine> engine = job.engine;
            DynamicCast<RdmaNetworkBackend>(m_net.backend)
                ->SetProcessRanks(m_net.localRanks,
                                  [engine](const NetworkBackend::Message& m)
                                  { engine->Arrive(m); });
        }
    }
}

void
ReplaySession::OnEngineIdle()
{
    for (const ReplayJob& job : m_jobs)
    {
        if (!job.engine->IsIdle())
        {
            return;
        }
    }
    StopWhenSettled(Simulator::Now() + m_settleTimeout);
}

void
ReplaySession::StopWhenSettled(Time deadline)
{
    if (m_net.observer->IsSettled() || Simulator::Now() >= deadline)
    {
        Simulator::Stop();
        return;
    }
    // The workload's times are already taken; only the final checks wait for this.
    Simulator::Schedule(MicroSeconds(1), &ReplaySession::StopWhenSettled, this, deadline);
}

bool
ReplaySession::AllFinished() const
{
    for (const ReplayJob& job : m_jobs)
    {
        if (job.engine->GetFinishedRankCount() != job.engine->GetLocalRankCount())
        {
            return false;
        }
    }
    return true;
}

std::string
ReplaySession::DescribeProgress() const
{
    uint32_t finished = 0;
    uint32_t total = 0;
    uint64_t nodesDone = 0;
    uint64_t nodes = 0;
    for (const ReplayJob& job : m_jobs)
    {
        finished += job.engine->GetFinishedRankCount();
        total += job.engine->GetLocalRankCount();
        for (uint32_t r = 0; r < job.rankCount; ++r)
        {
            if (!job.engine->IsLocal(r))
            {
                continue;
            }
            nodesDone += job.engine->GetApp(r)->GetStats().nodesDone;
            nodes += job.traces[r]->GetNodeCount();
        }
    }
    std::string text = std::to_string(finished) + "/" + std::to_string(total) +
                       " ranks finished, " + std::to_string(nodesDone) + "/" +
                       std::to_string(nodes) + " nodes";
    // The estimate assumes the nodes left take as long as those done, on average.
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_runStart).count();
    if (nodesDone > 0 && nodesDone < nodes)
    {
        char estimate[64];
        std::snprintf(estimate,
                      sizeof(estimate),
                      ", about %.0f s left",
                      elapsed * static_cast<double>(nodes - nodesDone) /
                          static_cast<double>(nodesDone));
        text += estimate;
    }
    return text;
}

void
ReplaySession::Run(const ReplaySessionLimits& limits)
{
    m_runStart = std::chrono::steady_clock::now();
    m_progress = std::make_unique<ReplayProgress>(
        limits.progress, limits.progressPeriod, [this]() { return DescribeProgress(); });
    m_progress->SetStopFlag(limits.stopFlag);
    ReplayWatchSettings watch = limits.watch;
    if (m_processes)
    {
        m_progress->SetDoneWhen([this]() { return AllFinished(); });
        watch.drains = true;
        if (m_processes->GetEngine() == "granted-time-window")
        {
            watch.processes = m_processes;
        }
    }
    m_progress->Start();
    m_net.observer->Start(watch, [this]() { return AllFinished(); });
    m_stopTime = limits.stopTime;
    m_settleTimeout = limits.watch.stallTimeout;
    if (m_stopTime.IsStrictlyPositive())
    {
        Simulator::Stop(m_stopTime);
    }
    const uint64_t eventsBefore = Simulator::GetEventCount();
    const auto wallStart = std::chrono::steady_clock::now();
    Simulator::Run();
    m_wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    m_events = Simulator::GetEventCount() - eventsBefore - m_progress->GetCheckCount();
}

Time
ReplaySession::LastFinishOverProcesses() const
{
    std::vector<int64_t> last{0};
    for (const ReplayJob& job : m_jobs)
    {
        for (uint32_t r = 0; r < job.rankCount; ++r)
        {
            if (job.engine->IsLocal(r))
            {
                last[0] = std::max(last[0], job.engine->GetApp(r)->GetStats().finish.GetTimeStep());
            }
        }
    }
    m_processes->MaxOver(last);
    return TimeStep(last[0]);
}

ReplayResult
ReplaySession::Collect()
{
    ReplayResult result;
    result.wallSeconds = m_wallSeconds;
    result.events = m_events;
    auto* packet = dynamic_cast<ReplayPacketObserver*>(m_net.observer.get());
    if (m_processes && packet)
    {
        packet->SetRunEnd(LastFinishOverProcesses());
    }
    const ReplayNetworkFigures network = m_net.observer->Collect(AllFinished());
    result.networkFailure = network.failure;
    result.networkStats = network.stats;
    result.timelineLinks = network.timelineLinks;
    result.invariants = network.invariants;
    result.warnings = m_system.warnings;
    result.warnings.insert(result.warnings.end(), network.warnings.begin(), network.warnings.end());
    result.networkDeliveredBytes = network.deliveredBytes;
    result.networkCounters = network.counters;
    if (m_net.failureSchedule)
    {
        result.failures = m_net.failureSchedule->GetOutcomes();
    }
    const bool alone = m_jobs.size() == 1 && m_jobs[0].fillsFabric;
    result.completed = true;
    for (const ReplayJob& job : m_jobs)
    {
        ReplayJobResult collected = CollectReplayJob(job);
        result.completed = result.completed && collected.completed;
        result.nodes += collected.nodes;
        for (const auto& stats : collected.ranks)
        {
            result.simulated = Max(result.simulated, stats.finish);
        }
        if (!alone)
        {
            result.jobs.push_back(std::move(collected));
            continue;
        }
        result.ranks = std::move(collected.ranks);
        result.collectives = std::move(collected.collectives);
        result.sends = std::move(collected.sends);
        result.notes = std::move(collected.notes);
        result.groups = std::move(collected.groups);
        result.groupPlans = std::move(collected.groupPlans);
    }
    std::vector<std::string> incomplete;
    if (m_processes)
    {
        incomplete = GatherReplayResult(
            result, *m_jobs[0].engine, *m_processes, packet ? packet->GetQueues() : nullptr);
    }
    result.interrupted = !result.completed && m_progress->WasInterrupted();
    result.timedOut = !result.completed && !result.interrupted && result.networkFailure.empty() &&
                      m_stopTime.IsStrictlyPositive() && Simulator::Now() >= m_stopTime;
    if (!result.completed)
    {
        result.simulated = Simulator::Now();
        if (!result.interrupted && !result.timedOut && result.networkFailure.empty())
        {
            for (const ReplayJob& job : m_jobs)
            {
                for (const std::string& line : job.engine->DescribeStuck(20))
                {
                    result.stuck.push_back(job.where + line);
                }
            }
        }
    }
    if (m_processes)
    {
        result.stuck = GatherLines(*m_processes, result.stuck);
        if (!result.stuck.empty())
        {
            // Each process's matcher sees its own members only.
            result.stuck.insert(result.stuck.end(), incomplete.begin(), incomplete.end());
        }
    }
    result.network = m_net.description;
    result.partition = m_net.partition;
    result.system = DescribeReplaySystem(m_system);
    result.fabricName = m_net.fabric.fabric.GetName();
    return result;
}

} // namespace ns3
