/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-job-collect.h"

#include "ns3/et-replay-app.h"
#include "ns3/replay-plan-text.h"

namespace ns3
{

ReplayJobResult
CollectReplayJob(const ReplayJob& job)
{
    const std::string& commGroupPath = job.spec.commGroupPath;
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
        record.lastIssue = c.lastIssue;
        record.rankMax = c.rankTimeMax;
        record.rankMean =
            c.finished > 0 ? c.rankTimeTotal / static_cast<int64_t>(c.finished) : Time();
        record.kind = c.kind;
        out.collectives.push_back(record);
    }
    out.sends = engine->GetSends();
    out.notes = engine->GetNotes();
    out.groupPlans = engine->DescribeGroups();
    out.groups =
        (job.fileGroups > 0 ? commGroupPath + " (" + std::to_string(job.fileGroups) + " groups)"
                            : std::string("none from a file")) +
        (job.metadataGroups > 0 ? ", " + std::to_string(job.metadataGroups) + " from METADATA nodes"
                                : std::string());
    return out;
}

} // namespace ns3
