/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-timeline.h"

#include "ns3/replay-job.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace ns3
{

namespace
{

/** \return \p t in microseconds, the unit of Chrome trace timestamps */
double
Micros(Time t)
{
    return static_cast<double>(t.GetPicoSeconds()) / 1e6;
}

/** A metadata event naming a process or thread, with its sort order. */
void
AddName(nlohmann::json& events,
        const char* what,
        uint32_t pid,
        int64_t tid,
        const std::string& name,
        int64_t order)
{
    nlohmann::json named = {{"name", what}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", name}}}};
    nlohmann::json sorted = {
        {"name", std::string(what) == "process_name" ? "process_sort_index" : "thread_sort_index"},
        {"ph", "M"},
        {"pid", pid},
        {"args", {{"sort_index", order}}}};
    if (tid >= 0)
    {
        named["tid"] = tid;
        sorted["tid"] = tid;
    }
    events.push_back(std::move(named));
    events.push_back(std::move(sorted));
}

/** What a node's event carries besides its times. */
nlohmann::json
Arguments(const EtNode& node, uint32_t rank)
{
    nlohmann::json args = {{"node", node.id}, {"kind", ParallelismKindOf(node)}};
    switch (LaneOf(node))
    {
    case ReplaySpanLane::Collective:
        args["collective"] = ToString(node.commType);
        args["bytes"] = node.commSize;
        args["group"] = node.pgName.empty() ? std::string("0") : std::string(node.pgName);
        break;
    case ReplaySpanLane::Send:
        args["bytes"] = node.commSize;
        args["from"] = rank;
        args["to"] = node.commDst;
        args["tag"] = node.commTag;
        break;
    case ReplaySpanLane::Receive:
        args["bytes"] = node.commSize;
        args["from"] = node.commSrc;
        args["to"] = rank;
        args["tag"] = node.commTag;
        break;
    default:
        break;
    }
    return args;
}

/**
 * One counter track per link of \p links under process \p pid: its utilization in
 * percent per window, a value where it changes (a counter holds until the next one),
 * and zero at \p end, the run's last finish.
 */
void
AddLinkCounters(nlohmann::json& events,
                uint32_t pid,
                const std::vector<LinkUtilization>& links,
                Time window,
                Time end)
{
    if (links.empty())
    {
        return;
    }
    AddName(events, "process_name", pid, -1, "link utilization (busiest links)", pid);
    for (const LinkUtilization& link : links)
    {
        const std::string name = link.name.GetName() + " (" + link.name.GetRoles() + ")";
        double last = -1;
        for (size_t w = 0; w <= link.windows.size(); ++w)
        {
            // A last zero at the end of the run, so that the track ends at rest.
            const double percent =
                w < link.windows.size() ? std::round(link.windows[w] * 1000.0) / 10.0 : 0.0;
            if (percent == last)
            {
                continue;
            }
            last = percent;
            const Time at = w < link.windows.size()
                                ? PicoSeconds(window.GetPicoSeconds() * static_cast<int64_t>(w))
                                : end;
            events.push_back({{"name", name},
                              {"ph", "C"},
                              {"pid", pid},
                              {"ts", Micros(at)},
                              {"args", {{"utilization %", percent}}}});
        }
    }
}

} // namespace

void
WriteReplayTimeline(std::ostream& out,
                    const std::vector<ReplayJob>& jobs,
                    const std::vector<ReplaySpan>& spans,
                    const std::vector<CriticalPath>& paths,
                    const std::vector<LinkUtilization>& links,
                    Time window)
{
    nlohmann::json events = nlohmann::json::array();
    // Tracks: (job, rank, lane, overlap level) -> tid, levels filled greedily in
    // start order so that events on one track never overlap.
    std::vector<uint32_t> order(spans.size());
    for (uint32_t i = 0; i < order.size(); ++i)
    {
        order[i] = i;
    }
    std::stable_sort(order.begin(),
                     order.end(),
                     [&](uint32_t a, uint32_t b) { return spans[a].start < spans[b].start; });
    std::map<std::tuple<uint32_t, uint32_t, uint8_t>, std::vector<Time>> levelEnds;
    std::map<std::tuple<uint32_t, uint32_t, uint8_t, uint32_t>, int64_t> tids;
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        const std::string name =
            jobs[j].spec.name.empty() ? "job " + std::to_string(j) : "job " + jobs[j].spec.name;
        AddName(events, "process_name", j, -1, jobs.size() == 1 ? "ranks" : name, j);
    }
    for (uint32_t i : order)
    {
        const ReplaySpan& span = spans[i];
        const ReplayJob& job = jobs[span.job];
        const EtNode& node = job.traces[span.rank]->GetNode(span.position);
        const ReplaySpanLane lane = LaneOf(node);
        if (lane == ReplaySpanLane::Other && span.end == span.start)
        {
            continue; // metadata: nothing to see
        }
        auto& ends = levelEnds[{span.job, span.rank, static_cast<uint8_t>(lane)}];
        uint32_t level = 0;
        while (level < ends.size() && ends[level] > span.start)
        {
            ++level;
        }
        if (level == ends.size())
        {
            ends.push_back(span.end);
        }
        ends[level] = span.end;
        const auto key = std::make_tuple(span.job, span.rank, static_cast<uint8_t>(lane), level);
        auto tid = tids.find(key);
        if (tid == tids.end())
        {
            const int64_t id = (static_cast<int64_t>(span.rank) << 8) |
                               (static_cast<int64_t>(lane) << 4) | std::min<uint32_t>(level, 15);
            tid = tids.emplace(key, id).first;
            std::string track = "rank " + std::to_string(span.rank);
            if (span.rank < job.npus.size() && job.npus[span.rank] != span.rank)
            {
                track += " (NPU " + std::to_string(job.npus[span.rank]) + ")";
            }
            track += " " + ToString(lane) + (level > 0 ? " " + std::to_string(level + 1) : "");
            AddName(events, "thread_name", span.job, id, track, id);
        }
        events.push_back(
            {{"name", node.name.empty() ? ToString(node.type) : std::string(node.name)},
             {"cat", ToString(lane)},
             {"ph", "X"},
             {"pid", span.job},
             {"tid", tid->second},
             {"ts", Micros(span.start)},
             {"dur", Micros(span.end - span.start)},
             {"args", Arguments(node, span.rank)}});
    }
    const uint32_t pathPid = static_cast<uint32_t>(jobs.size());
    if (!paths.empty())
    {
        AddName(events, "process_name", pathPid, -1, "critical path", pathPid);
    }
    for (uint32_t j = 0; j < paths.size(); ++j)
    {
        AddName(events,
                "thread_name",
                pathPid,
                j,
                jobs.size() == 1 ? "critical path" : "job " + std::to_string(j),
                j);
        for (const auto& step : paths[j].steps)
        {
            events.push_back(
                {{"name", step.kind},
                 {"cat", "critical path"},
                 {"ph", "X"},
                 {"pid", pathPid},
                 {"tid", j},
                 {"ts", Micros(step.from)},
                 {"dur", Micros(step.to - step.from)},
                 {"args", {{"rank", step.rank}, {"node", step.node}, {"name", step.name}}}});
        }
    }
    Time end;
    for (const ReplaySpan& span : spans)
    {
        end = Max(end, span.end);
    }
    AddLinkCounters(events, pathPid + 1, links, window, end);
    nlohmann::json doc = {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}};
    out << doc.dump() << "\n";
}

} // namespace ns3
