/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-critical-path.h"

#include "ns3/replay-job.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <tuple>

namespace ns3
{

namespace
{

constexpr uint32_t kNone = UINT32_MAX;

/** The spans of one job, indexed for the walk. */
class JobSpans
{
  public:
    JobSpans(const ReplayJob& job, const std::vector<ReplaySpan>& spans, uint32_t index)
        : m_job(job)
        , m_spans(spans)
    {
        m_byPosition.resize(job.rankCount);
        m_byEnd.resize(job.rankCount);
        m_parents.resize(job.rankCount);
        for (uint32_t r = 0; r < job.rankCount; ++r)
        {
            const EtTrace& trace = *job.traces[r];
            m_byPosition[r].assign(trace.GetNodeCount(), kNone);
            m_parents[r].resize(trace.GetNodeCount());
            for (uint32_t p = 0; p < trace.GetNodeCount(); ++p)
            {
                for (uint32_t child : trace.GetGraph().GetChildren(p))
                {
                    m_parents[r][child].push_back(p);
                }
            }
        }
        // Collectives by (group, sequence) and messages by (source, destination, tag,
        // order), numbered in issue order as the replay matches them.
        std::map<std::pair<uint32_t, std::string>, uint32_t> collectiveCount;
        std::map<std::tuple<uint32_t, uint32_t, int64_t>, uint32_t> sendCount;
        std::map<std::tuple<uint32_t, uint32_t, int64_t>, uint32_t> recvCount;
        for (uint32_t s = 0; s < spans.size(); ++s)
        {
            const ReplaySpan& span = spans[s];
            if (span.job != index)
            {
                continue;
            }
            m_byPosition[span.rank][span.position] = s;
            m_byEnd[span.rank].push_back(s);
            const EtNode& node = Node(s);
            switch (LaneOf(node))
            {
            case ReplaySpanLane::Collective:
            {
                const std::string group = node.pgName == "0" ? "" : std::string(node.pgName);
                const uint32_t seq = collectiveCount[{span.rank, group}]++;
                m_collectives[{group, seq}].push_back(s);
                m_collectiveKey[s] = {group, seq};
                break;
            }
            case ReplaySpanLane::Send:
                if (node.Has(ET_COMM_DST))
                {
                    const auto key = std::make_tuple(
                        span.rank, static_cast<uint32_t>(node.commDst), node.commTag);
                    m_sends[std::make_tuple(span.rank,
                                            static_cast<uint32_t>(node.commDst),
                                            node.commTag,
                                            sendCount[key]++)] = s;
                }
                break;
            case ReplaySpanLane::Receive:
                if (node.Has(ET_COMM_SRC))
                {
                    const auto key = std::make_tuple(
                        static_cast<uint32_t>(node.commSrc), span.rank, node.commTag);
                    m_recvKey[s] = std::make_tuple(static_cast<uint32_t>(node.commSrc),
                                                   span.rank,
                                                   node.commTag,
                                                   recvCount[key]++);
                }
                break;
            default:
                break;
            }
        }
        for (auto& ends : m_byEnd)
        {
            std::stable_sort(ends.begin(),
                             ends.end(),
                             [&](uint32_t a, uint32_t b) { return spans[a].end < spans[b].end; });
        }
    }

    const EtNode&
    Node(uint32_t s) const
    {
        return m_job.traces[m_spans[s].rank]->GetNode(m_spans[s].position);
    }

    /** \return the span that finished last, or kNone */
    uint32_t
    Last() const
    {
        uint32_t last = kNone;
        for (const auto& ends : m_byEnd)
        {
            if (!ends.empty() && (last == kNone || m_spans[ends.back()].end > m_spans[last].end))
            {
                last = ends.back();
            }
        }
        return last;
    }

    /** \return the span of another rank whose issue \p s waited for, or \p s itself */
    uint32_t
    WaitedOn(uint32_t s) const
    {
        uint32_t latest = s;
        if (auto key = m_collectiveKey.find(s); key != m_collectiveKey.end())
        {
            for (uint32_t member : m_collectives.at(key->second))
            {
                if (m_spans[member].start > m_spans[latest].start)
                {
                    latest = member;
                }
            }
        }
        else if (auto recv = m_recvKey.find(s); recv != m_recvKey.end())
        {
            if (auto send = m_sends.find(recv->second);
                send != m_sends.end() && m_spans[send->second].start > m_spans[s].start)
            {
                latest = send->second;
            }
        }
        return latest;
    }

    /** \return what let \p s start: a parent, or the node that held its slot; kNone */
    uint32_t
    Before(uint32_t s, const std::set<uint32_t>& visited) const
    {
        const ReplaySpan& span = m_spans[s];
        uint32_t parent = kNone;
        for (uint32_t p : m_parents[span.rank][span.position])
        {
            const uint32_t ps = m_byPosition[span.rank][p];
            if (ps != kNone && !visited.count(ps) && m_spans[ps].end <= span.start &&
                (parent == kNone || m_spans[ps].end > m_spans[parent].end))
            {
                parent = ps;
            }
        }
        if (parent != kNone && m_spans[parent].end == span.start)
        {
            return parent;
        }
        // Started after its parents finished: the last node of the rank to finish
        // before it, preferring one of its own lane (the slot it waited for).
        const auto& ends = m_byEnd[span.rank];
        auto it = std::upper_bound(ends.begin(),
                                   ends.end(),
                                   span.start,
                                   [&](Time t, uint32_t x) { return t < m_spans[x].end; });
        uint32_t holder = kNone;
        while (it != ends.begin())
        {
            --it;
            if (*it == s || visited.count(*it))
            {
                continue;
            }
            if (holder != kNone && m_spans[*it].end < m_spans[holder].end)
            {
                break;
            }
            if (holder == kNone || LaneOf(Node(*it)) == LaneOf(Node(s)))
            {
                holder = *it;
            }
        }
        if (parent == kNone)
        {
            return holder;
        }
        return holder != kNone && m_spans[holder].end > m_spans[parent].end ? holder : parent;
    }

  private:
    const ReplayJob& m_job;
    const std::vector<ReplaySpan>& m_spans;
    std::vector<std::vector<uint32_t>> m_byPosition;           //!< [rank][position] -> span
    std::vector<std::vector<uint32_t>> m_byEnd;                //!< [rank] spans by end
    std::vector<std::vector<std::vector<uint32_t>>> m_parents; //!< [rank][position] -> parents
    std::map<std::pair<std::string, uint32_t>, std::vector<uint32_t>> m_collectives;
    std::map<uint32_t, std::pair<std::string, uint32_t>> m_collectiveKey;
    std::map<std::tuple<uint32_t, uint32_t, int64_t, uint32_t>, uint32_t> m_sends;
    std::map<uint32_t, std::tuple<uint32_t, uint32_t, int64_t, uint32_t>> m_recvKey;
};

} // namespace

CriticalPath
FindCriticalPath(const std::vector<ReplayJob>& jobs,
                 const std::vector<ReplaySpan>& spans,
                 uint32_t job)
{
    CriticalPath path;
    const JobSpans index(jobs.at(job), spans, job);
    uint32_t current = index.Last();
    if (current == kNone)
    {
        return path;
    }
    path.length = spans[current].end;
    std::set<uint32_t> visited;
    std::vector<CriticalPathStep> reversed;
    Time to = spans[current].end;
    while (current != kNone)
    {
        visited.insert(current);
        const uint32_t entered = index.WaitedOn(current);
        visited.insert(entered);
        const ReplaySpan& span = spans[current];
        const Time from = spans[entered].start;
        if (to > from)
        {
            const EtNode& node = index.Node(current);
            reversed.push_back({span.rank,
                                span.position,
                                node.id,
                                std::string(node.name),
                                from,
                                to,
                                ParallelismKindOf(node)});
        }
        const uint32_t before = index.Before(entered, visited);
        const Time reached = before == kNone ? Time(0) : spans[before].end;
        if (from > reached)
        {
            const ReplaySpan& waiting = spans[entered];
            const EtNode& node = index.Node(entered);
            reversed.push_back({waiting.rank,
                                waiting.position,
                                node.id,
                                std::string(node.name),
                                reached,
                                from,
                                "waiting"});
        }
        to = Min(reached, from);
        current = before;
    }
    path.steps.assign(reversed.rbegin(), reversed.rend());
    for (const auto& step : path.steps)
    {
        path.byKind[step.kind] += step.to - step.from;
    }
    return path;
}

std::string
DescribeCriticalPath(const CriticalPath& path)
{
    std::vector<std::pair<std::string, Time>> kinds(path.byKind.begin(), path.byKind.end());
    std::stable_sort(kinds.begin(),
                     kinds.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    char head[64];
    std::snprintf(head, sizeof(head), "critical path %.3f us:", path.length.GetSeconds() * 1e6);
    std::string text = head;
    const double length = static_cast<double>(path.length.GetTimeStep());
    for (size_t i = 0; i < kinds.size(); ++i)
    {
        char part[96];
        std::snprintf(
            part,
            sizeof(part),
            "%s %s %.1f %%",
            i == 0 ? "" : ",",
            kinds[i].first.c_str(),
            length > 0 ? 100.0 * static_cast<double>(kinds[i].second.GetTimeStep()) / length : 0.0);
        text += part;
    }
    return text;
}

nlohmann::json
CriticalPathToJson(const CriticalPath& path)
{
    const auto ns = [](Time t)
    {
        return static_cast<double>(t.GetPicoSeconds()) / 1e3;
    };
    nlohmann::json byKind = nlohmann::json::object();
    for (const auto& [kind, time] : path.byKind)
    {
        byKind[kind] = ns(time);
    }
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& step : path.steps)
    {
        steps.push_back({{"rank", step.rank},
                         {"node", step.node},
                         {"name", step.name},
                         {"kind", step.kind},
                         {"from_ns", ns(step.from)},
                         {"to_ns", ns(step.to)}});
    }
    return {{"length_ns", ns(path.length)}, {"by_kind_ns", byKind}, {"steps", steps}};
}

} // namespace ns3
