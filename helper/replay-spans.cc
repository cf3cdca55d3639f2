/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-spans.h"

#include "ns3/callback.h"
#include "ns3/et-replay-app.h"
#include "ns3/log.h"
#include "ns3/replay-job.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplaySpans");

ReplaySpanLane
LaneOf(const EtNode& node)
{
    switch (node.type)
    {
    case EtNodeType::COMP_NODE:
        return node.isCpuOp ? ReplaySpanLane::Host : ReplaySpanLane::Compute;
    case EtNodeType::COMM_COLL_NODE:
        return node.isCpuOp || !node.Has(ET_COMM_TYPE) ? ReplaySpanLane::Host
                                                       : ReplaySpanLane::Collective;
    case EtNodeType::COMM_SEND_NODE:
        return ReplaySpanLane::Send;
    case EtNodeType::COMM_RECV_NODE:
        return ReplaySpanLane::Receive;
    case EtNodeType::MEM_LOAD_NODE:
    case EtNodeType::MEM_STORE_NODE:
        return ReplaySpanLane::Memory;
    default:
        return ReplaySpanLane::Other;
    }
}

std::string
ToString(ReplaySpanLane lane)
{
    switch (lane)
    {
    case ReplaySpanLane::Compute:
        return "compute";
    case ReplaySpanLane::Collective:
        return "collective";
    case ReplaySpanLane::Send:
        return "send";
    case ReplaySpanLane::Receive:
        return "receive";
    case ReplaySpanLane::Host:
        return "host";
    case ReplaySpanLane::Memory:
        return "memory";
    case ReplaySpanLane::Other:
        return "other";
    }
    return "other";
}

std::string
ParallelismKindOf(const EtNode& node)
{
    const ReplaySpanLane lane = LaneOf(node);
    const bool collective = lane == ReplaySpanLane::Collective;
    if (!collective && lane != ReplaySpanLane::Send && lane != ReplaySpanLane::Receive)
    {
        return ToString(lane);
    }
    static const char* const kinds[] = {"tp", "pp", "dp", "ep", "sp", "cp"};
    const std::string_view name = node.name;
    size_t begin = 0;
    while (begin <= name.size())
    {
        const size_t dot = std::min(name.find('.', begin), name.size());
        const std::string_view part = name.substr(begin, dot - begin);
        for (const char* kind : kinds)
        {
            if (part == kind)
            {
                return kind;
            }
        }
        begin = dot + 1;
    }
    if (!collective)
    {
        return "p2p";
    }
    const bool whole = node.pgName.empty() || node.pgName == "0";
    return "group " + (whole ? std::string("all") : std::string(node.pgName));
}

ReplaySpanRecorder::ReplaySpanRecorder(const std::vector<ReplayJob>& jobs)
    : m_jobs(jobs)
{
    m_open.resize(jobs.size());
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        const ReplayJob& job = jobs[j];
        m_open[j].resize(job.rankCount);
        for (uint32_t r = 0; r < job.rankCount; ++r)
        {
            m_open[j][r].assign(job.traces[r]->GetNodeCount(), 0);
            m_sources.push_back(Source{this, j, r});
            Ptr<EtReplayApp> app = job.engine->GetApp(r);
            app->TraceConnectWithoutContext("NodeIssued",
                                            MakeBoundCallback(&Issued, &m_sources.back()));
            app->TraceConnectWithoutContext("NodeFinished",
                                            MakeBoundCallback(&Finished, &m_sources.back()));
        }
    }
}

void
ReplaySpanRecorder::Issued(Source* source, uint64_t id)
{
    ReplaySpanRecorder& self = *source->recorder;
    const auto position = self.m_jobs[source->job].traces[source->rank]->FindNode(id);
    if (!position)
    {
        return;
    }
    ReplaySpan span;
    span.job = source->job;
    span.rank = source->rank;
    span.position = *position;
    span.start = Simulator::Now();
    span.end = span.start;
    self.m_spans.push_back(span);
    self.m_open[source->job][source->rank][*position] = static_cast<uint32_t>(self.m_spans.size());
}

void
ReplaySpanRecorder::Finished(Source* source, uint64_t id)
{
    ReplaySpanRecorder& self = *source->recorder;
    const auto position = self.m_jobs[source->job].traces[source->rank]->FindNode(id);
    if (!position)
    {
        return;
    }
    uint32_t& open = self.m_open[source->job][source->rank][*position];
    if (open == 0)
    {
        NS_LOG_WARN("rank " << source->rank << ": node " << id << " finished, never issued");
        return;
    }
    ReplaySpan& span = self.m_spans[open - 1];
    span.end = Simulator::Now();
    span.finished = true;
    open = 0;
}

const std::vector<ReplaySpan>&
ReplaySpanRecorder::GetSpans()
{
    for (ReplaySpan& span : m_spans)
    {
        if (!span.finished)
        {
            span.end = Max(span.end, Simulator::Now());
        }
    }
    return m_spans;
}

} // namespace ns3
