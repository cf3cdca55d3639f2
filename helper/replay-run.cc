/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-run.h"

#include "ns3/input-error.h"
#include "ns3/replay-session.h"

namespace ns3
{

namespace
{

/** \return the jobs of \p config: its workload alone, or its jobs */
std::vector<ReplayJob>
JobsOf(const ReplayRunConfig& config)
{
    if (!config.jobs.empty() && !config.workload.empty())
    {
        throw InputError("give a workload or jobs, not both");
    }
    std::vector<ReplayJob> jobs;
    if (config.jobs.empty())
    {
        jobs.push_back(MakeWholeFabricJob(config.workload, config.commGroupPath));
    }
    for (const ReplayJobSpec& spec : config.jobs)
    {
        jobs.push_back(MakeSharedFabricJob(spec));
    }
    return jobs;
}

} // namespace

ReplayResult
RunReplay(const ReplayRunConfig& config)
{
    ReplaySession session(JobsOf(config));
    session.Build(config.network);

    ReplaySessionInputs inputs;
    inputs.systemPath = config.systemPath;
    inputs.remoteMemoryPath = config.remoteMemoryPath;
    inputs.ctrlDeps = config.ctrlDeps;
    inputs.cpuSlots = config.cpuSlots;
    inputs.computeSlots = config.computeSlots;
    inputs.commSlots = config.commSlots;
    session.Install(inputs);

    ReplaySessionLimits limits;
    limits.stopTime = config.stopTime;
    limits.watch.stallTimeout = config.stallTimeout;
    limits.watch.pfcDeadlockThreshold = config.pfcDeadlockThreshold;
    limits.watch.invariantPeriod = config.invariantPeriod;
    limits.watch.timeseriesPath = config.timeseriesPath;
    limits.watch.samplePeriod = config.samplePeriod;
    limits.progress = config.progress;
    limits.progressPeriod = config.progressPeriod;
    limits.stopFlag = config.stopFlag;
    session.Run(limits);

    return session.Collect();
}

} // namespace ns3
