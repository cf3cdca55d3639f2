/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-gather.h"

#include "ns3/distributed-run.h"
#include "ns3/replay-collective-matcher.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

namespace
{

/** \return every process's \p mine, by process */
std::vector<nlohmann::json>
GatherJson(ProcessGroup& processes, const nlohmann::json& mine)
{
    std::vector<nlohmann::json> all;
    for (const std::string& part : processes.Gather(mine.dump()))
    {
        all.push_back(nlohmann::json::parse(part));
    }
    return all;
}

/** \return \p s as a JSON array, times in time steps */
nlohmann::json
RankToArray(const ReplayRankStats& s)
{
    return {s.rank,
            s.nodes,
            s.nodesDone,
            s.finished,
            s.finish.GetTimeStep(),
            s.compute.GetTimeStep(),
            s.comm.GetTimeStep(),
            s.exposedComm.GetTimeStep(),
            s.cpu.GetTimeStep(),
            s.memory.GetTimeStep(),
            s.computeNodes,
            s.collectives,
            s.sends,
            s.receives,
            s.memoryAccesses,
            s.bytesSent,
            s.bytesReceived,
            s.danglingCtrlDeps};
}

/** \return the stats RankToArray wrote */
ReplayRankStats
RankFromArray(const nlohmann::json& j)
{
    ReplayRankStats s;
    s.rank = j[0];
    s.nodes = j[1];
    s.nodesDone = j[2];
    s.finished = j[3];
    s.finish = TimeStep(j[4]);
    s.compute = TimeStep(j[5]);
    s.comm = TimeStep(j[6]);
    s.exposedComm = TimeStep(j[7]);
    s.cpu = TimeStep(j[8]);
    s.memory = TimeStep(j[9]);
    s.computeNodes = j[10];
    s.collectives = j[11];
    s.sends = j[12];
    s.receives = j[13];
    s.memoryAccesses = j[14];
    s.bytesSent = j[15];
    s.bytesReceived = j[16];
    s.danglingCtrlDeps = j[17];
    return s;
}

/** Each rank's figures, from the process that ran it. */
void
GatherRanks(ReplayResult& r, const ReplayEngine& engine, ProcessGroup& processes)
{
    nlohmann::json mine = nlohmann::json::array();
    for (uint32_t rank = 0; rank < r.ranks.size(); ++rank)
    {
        if (engine.IsLocal(rank))
        {
            mine.push_back(RankToArray(r.ranks[rank]));
        }
    }
    for (const nlohmann::json& part : GatherJson(processes, mine))
    {
        for (const nlohmann::json& j : part)
        {
            const ReplayRankStats s = RankFromArray(j);
            r.ranks.at(s.rank) = s;
        }
    }
}

/** Collectives some ranks never issued, described at most. */
constexpr size_t kIncompleteLines = 20;

/** A collective as one or more processes measured it. */
struct MergedCollective
{
    ReplayCollectiveRecord record;  //!< figures; rankMean is filled last
    int64_t rankTimeTotal{0};       //!< sum of the ranks' issue-to-finish times, time steps
    uint32_t issued{0};             //!< ranks that issued it
    std::vector<uint32_t> issuedBy; //!< while some have not: those that have
};

/**
 * Each collective's figures, over the processes that ran its members.
 * \return a line for each collective some but not all of its ranks issued
 */
std::vector<std::string>
GatherCollectives(ReplayResult& r, const ReplayEngine& engine, ProcessGroup& processes)
{
    const std::vector<ReplayCollective>& own = engine.GetCollectives();
    nlohmann::json mine = nlohmann::json::array();
    for (size_t i = 0; i < own.size(); ++i)
    {
        const ReplayCollective& c = own[i];
        const ReplayCollectiveRecord& rec = r.collectives.at(i);
        mine.push_back({static_cast<int>(rec.type),
                        rec.bytes,
                        rec.group,
                        rec.sequence,
                        rec.ranks,
                        c.finished,
                        rec.algorithm,
                        rec.chunks,
                        c.firstIssue.GetTimeStep(),
                        c.lastIssue.GetTimeStep(),
                        c.lastFinish.GetTimeStep(),
                        c.rankTimeTotal.GetTimeStep(),
                        c.rankTimeMax.GetTimeStep(),
                        rec.kind,
                        c.issued,
                        c.issuedBy});
    }
    std::map<std::pair<std::string, uint64_t>, size_t> place;
    std::vector<MergedCollective> merged;
    for (const nlohmann::json& part : GatherJson(processes, mine))
    {
        for (const nlohmann::json& j : part)
        {
            MergedCollective m;
            ReplayCollectiveRecord& rec = m.record;
            rec.type = static_cast<CollectiveType>(j[0].get<int>());
            rec.bytes = j[1];
            rec.group = j[2];
            rec.sequence = j[3];
            rec.ranks = j[4];
            rec.finishedRanks = j[5];
            rec.algorithm = j[6];
            rec.chunks = j[7];
            rec.start = TimeStep(j[8]);
            rec.lastIssue = TimeStep(j[9]);
            rec.end = TimeStep(j[10]);
            m.rankTimeTotal = j[11];
            rec.rankMax = TimeStep(j[12]);
            rec.kind = j[13];
            m.issued = j[14];
            m.issuedBy = j[15].get<std::vector<uint32_t>>();
            const auto [at, fresh] =
                place.emplace(std::make_pair(rec.group, rec.sequence), merged.size());
            if (fresh)
            {
                merged.push_back(m);
                continue;
            }
            ReplayCollectiveRecord& into = merged[at->second].record;
            into.finishedRanks += rec.finishedRanks;
            into.start = Min(into.start, rec.start);
            into.lastIssue = Max(into.lastIssue, rec.lastIssue);
            into.end = Max(into.end, rec.end);
            into.rankMax = Max(into.rankMax, rec.rankMax);
            merged[at->second].rankTimeTotal += m.rankTimeTotal;
            merged[at->second].issued += m.issued;
            merged[at->second].issuedBy.insert(
                merged[at->second].issuedBy.end(), m.issuedBy.begin(), m.issuedBy.end());
        }
    }
    // One process numbers collectives in the order their first rank issued them.
    std::stable_sort(merged.begin(),
                     merged.end(),
                     [](const MergedCollective& a, const MergedCollective& b)
                     { return a.record.start < b.record.start; });
    r.collectives.clear();
    std::vector<std::string> incomplete;
    for (MergedCollective& m : merged)
    {
        // As many as one process describes.
        if (m.issued < m.record.ranks && incomplete.size() < kIncompleteLines)
        {
            ReplayCollective c;
            c.type = m.record.type;
            c.sequence = m.record.sequence;
            c.group = m.record.group;
            c.members = m.record.ranks;
            incomplete.push_back(ReplayCollectiveMatcher::DescribeIssued(c, m.issuedBy));
        }
        ReplayCollectiveRecord& rec = m.record;
        rec.id = static_cast<uint32_t>(r.collectives.size());
        rec.rankMean = rec.finishedRanks > 0
                           ? TimeStep(m.rankTimeTotal / static_cast<int64_t>(rec.finishedRanks))
                           : Time();
        r.collectives.push_back(rec);
    }
    return incomplete;
}

/** The sends of every process in issue order, each with its receiver's arrival. */
void
GatherSends(ReplayResult& r, const ReplayEngine& engine, ProcessGroup& processes)
{
    nlohmann::json mine = {{"sends", nlohmann::json::array()},
                           {"arrivals", nlohmann::json::array()}};
    for (const ReplaySendRecord& s : r.sends)
    {
        mine["sends"].push_back({s.src,
                                 s.dst,
                                 s.tag,
                                 s.bytes,
                                 s.issue.GetTimeStep(),
                                 s.arrived,
                                 s.arrival.GetTimeStep()});
    }
    for (const ReplayEngine::Arrival& a : engine.GetArrivals())
    {
        mine["arrivals"].push_back({a.src, a.dst, a.tag, a.time.GetTimeStep()});
    }
    std::vector<ReplaySendRecord> sends;
    std::map<std::tuple<uint32_t, uint32_t, int64_t>, std::deque<Time>> arrivals;
    for (const nlohmann::json& part : GatherJson(processes, mine))
    {
        for (const nlohmann::json& j : part["sends"])
        {
            ReplaySendRecord s;
            s.src = j[0];
            s.dst = j[1];
            s.tag = j[2];
            s.bytes = j[3];
            s.issue = TimeStep(j[4]);
            s.arrived = j[5];
            s.arrival = TimeStep(j[6]);
            sends.push_back(s);
        }
        for (const nlohmann::json& j : part["arrivals"])
        {
            arrivals[{j[0], j[1], j[2]}].push_back(TimeStep(j[3]));
        }
    }
    std::stable_sort(sends.begin(),
                     sends.end(),
                     [](const ReplaySendRecord& a, const ReplaySendRecord& b)
                     { return a.issue < b.issue; });
    for (ReplaySendRecord& s : sends)
    {
        auto it = arrivals.find({s.src, s.dst, ReplayEngine::WireTag(s.tag)});
        if (s.arrived || it == arrivals.end() || it->second.empty())
        {
            continue;
        }
        s.arrival = it->second.front();
        s.arrived = true;
        it->second.pop_front();
    }
    r.sends = std::move(sends);
}

/** Sum \p notes over the processes. */
ReplayNotes
SumNotes(const ReplayNotes& notes, ProcessGroup& processes)
{
    ReplayNotes all;
    for (const nlohmann::json& part : GatherJson(processes, nlohmann::json(notes)))
    {
        for (const auto& [what, count] : part.items())
        {
            all[what] += count.get<uint64_t>();
        }
    }
    return all;
}

/** The network's counters and peaks over the processes, and the busiest queue's mean. */
void
GatherNetwork(ReplayResult& r, ProcessGroup& processes, const QueueMonitor* queues)
{
    std::vector<uint64_t> sums{r.networkDeliveredBytes};
    std::vector<int64_t> peaks;
    NetworkStats* s = r.networkStats ? &*r.networkStats : nullptr;
    if (s)
    {
        sums.insert(sums.end(),
                    {s->pfcPauseFrames,
                     static_cast<uint64_t>(s->pfcPausedTime.GetTimeStep()),
                     s->ecnMarks,
                     s->cnps,
                     s->drops,
                     s->lostFrames,
                     s->timeouts,
                     s->retransmittedBytes,
                     s->watchdogTriggers,
                     s->relayStaged,
                     s->relayHeldCredits});
        peaks = {static_cast<int64_t>(s->peakQueueBytes), static_cast<int64_t>(s->peakBufferBytes)};
    }
    for (const auto& entry : r.networkCounters)
    {
        sums.push_back(entry.second);
    }
    processes.SumOver(sums);
    processes.MaxOver(peaks);
    r.networkDeliveredBytes = sums[0];
    size_t next = 1;
    if (s)
    {
        s->pfcPauseFrames = sums[next++];
        s->pfcPausedTime = TimeStep(static_cast<int64_t>(sums[next++]));
        s->ecnMarks = sums[next++];
        s->cnps = sums[next++];
        s->drops = sums[next++];
        s->lostFrames = sums[next++];
        s->timeouts = sums[next++];
        s->retransmittedBytes = sums[next++];
        s->watchdogTriggers = sums[next++];
        s->relayStaged = sums[next++];
        s->relayHeldCredits = sums[next++];
        s->peakQueueBytes = static_cast<uint64_t>(peaks[0]);
        s->peakBufferBytes = static_cast<uint64_t>(peaks[1]);
    }
    for (auto& entry : r.networkCounters)
    {
        entry.second = sums[next++];
    }
    if (!s || !queues)
    {
        return;
    }
    const BusiestQueue busiest = GatherBusiestQueue(processes, *queues, r.simulated);
    if (busiest.until > r.simulated)
    {
        r.warnings.push_back("the busiest queue's mean runs to " +
                             std::to_string(busiest.until.GetMicroSeconds()) +
                             " us, the network's last queue change, not to the last rank's "
                             "finish: one process stops there");
    }
    s->meanQueueBytes = busiest.queue.meanBytes;
}

} // namespace

void
GatherLinkUtilization(std::vector<LinkUtilization>& links, ProcessGroup& processes)
{
    nlohmann::json mine = nlohmann::json::array();
    for (const LinkUtilization& l : links)
    {
        mine.push_back({l.wireBytes, l.mean, l.peak, l.windows});
    }
    std::vector<uint64_t> busiest(links.size(), 0);
    for (const nlohmann::json& part : GatherJson(processes, mine))
    {
        for (size_t i = 0; i < links.size(); ++i)
        {
            const nlohmann::json& j = part.at(i);
            if (j[0].get<uint64_t>() <= busiest[i])
            {
                continue;
            }
            busiest[i] = j[0];
            links[i].wireBytes = j[0];
            links[i].mean = j[1];
            links[i].peak = j[2];
            links[i].windows = j[3].get<std::vector<float>>();
        }
    }
}

std::vector<std::string>
GatherLines(ProcessGroup& processes, const std::vector<std::string>& lines)
{
    std::vector<std::string> all;
    for (const nlohmann::json& part : GatherJson(processes, nlohmann::json(lines)))
    {
        for (const nlohmann::json& line : part)
        {
            all.push_back(line);
        }
    }
    return all;
}

std::vector<std::string>
GatherReplayResult(ReplayResult& result,
                   const ReplayEngine& engine,
                   ProcessGroup& processes,
                   const QueueMonitor* queues)
{
    GatherRanks(result, engine, processes);
    std::vector<std::string> incomplete = GatherCollectives(result, engine, processes);
    GatherSends(result, engine, processes);
    result.notes = SumNotes(result.notes, processes);
    result.completed = true;
    result.simulated = Time();
    for (const ReplayRankStats& s : result.ranks)
    {
        result.completed = result.completed && s.finished;
        result.simulated = Max(result.simulated, s.finish);
    }
    GatherNetwork(result, processes, queues);
    // The processes stop together; the longest report names what it found.
    for (const std::string& failure : processes.Gather(result.networkFailure))
    {
        if (failure.size() > result.networkFailure.size())
        {
            result.networkFailure = failure;
        }
    }
    return incomplete;
}

} // namespace ns3
