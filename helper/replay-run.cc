/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-run.h"

#include "ns3/input-error.h"
#include "ns3/replay-critical-path.h"
#include "ns3/replay-session.h"
#include "ns3/replay-spans.h"
#include "ns3/replay-timeline.h"

#include <fstream>
#include <memory>

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
    limits.watch.links = config.links;
    limits.progress = config.progress;
    limits.progressPeriod = config.progressPeriod;
    limits.stopFlag = config.stopFlag;
    // Spans cost about 50 bytes per node: recorded only when asked for.
    std::unique_ptr<ReplaySpanRecorder> spans;
    if (config.criticalPath || !config.timelinePath.empty())
    {
        spans = std::make_unique<ReplaySpanRecorder>(session.GetJobs());
    }
    session.Run(limits);

    std::vector<CriticalPath> paths;
    if (spans)
    {
        for (uint32_t j = 0; j < session.GetJobs().size(); ++j)
        {
            paths.push_back(FindCriticalPath(session.GetJobs(), spans->GetSpans(), j));
        }
    }
    ReplayResult result = session.Collect();
    if (!config.timelinePath.empty())
    {
        std::ofstream out(config.timelinePath);
        WriteReplayTimeline(out,
                            session.GetJobs(),
                            spans->GetSpans(),
                            paths,
                            result.timelineLinks,
                            config.links.period);
        if (!out)
        {
            throw InputError("--timeline: " + config.timelinePath + ": cannot write the file");
        }
    }
    if (config.criticalPath)
    {
        result.criticalPaths = std::move(paths);
    }
    return result;
}

} // namespace ns3
