/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-replay-app.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/replay-engine.h"
#include "ns3/replay-node-action.h"
#include "ns3/replay-trace-check.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtReplayApp");
NS_OBJECT_ENSURE_REGISTERED(EtReplayApp);

TypeId
EtReplayApp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EtReplayApp")
            .SetParent<Application>()
            .SetGroupName("Mlfabric")
            .AddConstructor<EtReplayApp>()
            .AddAttribute("Rank",
                          "The NPU's rank: its trace is <prefix>.<Rank>.et",
                          UintegerValue(0),
                          MakeUintegerAccessor(&EtReplayApp::m_rank),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CpuSlots",
                          "Host-side operations (is_cpu_op) running at once; 0 = unlimited",
                          UintegerValue(1),
                          MakeUintegerAccessor(&EtReplayApp::m_cpuSlots),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ComputeSlots",
                          "Device compute nodes running at once; 0 = unlimited",
                          UintegerValue(1),
                          MakeUintegerAccessor(&EtReplayApp::m_computeSlots),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CommSlots",
                          "Device collectives and sends running at once; 0 = unlimited",
                          UintegerValue(1),
                          MakeUintegerAccessor(&EtReplayApp::m_commSlots),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("NodeIssued",
                            "A node of the trace started (its Chakra node id)",
                            MakeTraceSourceAccessor(&EtReplayApp::m_nodeIssued),
                            "ns3::EtReplayApp::NodeTracedCallback")
            .AddTraceSource("NodeFinished",
                            "A node of the trace finished (its Chakra node id)",
                            MakeTraceSourceAccessor(&EtReplayApp::m_nodeFinished),
                            "ns3::EtReplayApp::NodeTracedCallback")
            .AddTraceSource("Finished",
                            "Every node of the trace has finished",
                            MakeTraceSourceAccessor(&EtReplayApp::m_rankFinished),
                            "ns3::EtReplayApp::FinishedTracedCallback");
    return tid;
}

EtReplayApp::EtReplayApp() = default;

EtReplayApp::~EtReplayApp() = default;

void
EtReplayApp::SetTrace(std::shared_ptr<const EtTrace> trace)
{
    m_trace = std::move(trace);
}

const EtTrace&
EtReplayApp::GetTrace() const
{
    return *m_trace;
}

void
EtReplayApp::SetEngine(Ptr<ReplayEngine> engine)
{
    m_engine = engine;
}

uint32_t
EtReplayApp::GetRank() const
{
    return m_rank;
}

void
EtReplayApp::DoDispose()
{
    m_engine = nullptr;
    m_queue.reset();
    Application::DoDispose();
}

void
EtReplayApp::StartApplication()
{
    NS_LOG_FUNCTION(this << m_rank);
    NS_ABORT_MSG_IF(!m_trace || !m_engine, "EtReplayApp started without a trace or engine");
    m_started = true;
    m_engine->RankStarted();
    const EtDependencyGraph& graph = m_trace->GetGraph();
    const uint32_t n = m_trace->GetNodeCount();
    m_stats.rank = m_rank;
    m_stats.nodes = n;
    m_stats.danglingCtrlDeps = m_trace->GetDanglingCtrlDepCount();
    ReplayIssueQueue::Limits limits;
    limits.cpu = m_cpuSlots;
    limits.compute = m_computeSlots;
    limits.comm = m_commSlots;
    m_queue = std::make_unique<ReplayIssueQueue>(limits);
    m_waitingParents.resize(n);
    m_state.assign(n, NodeState::Waiting);
    for (uint32_t i = 0; i < n; ++i)
    {
        m_waitingParents[i] = graph.GetParentCount(i);
        if (m_waitingParents[i] == 0)
        {
            const EtNode& node = m_trace->GetNode(i);
            m_queue->Push(node.id, i, ClassifyReplayResource(node));
        }
    }
    Drain();
}

void
EtReplayApp::StopApplication()
{
    NS_LOG_FUNCTION(this << m_rank);
    m_stopped = true;
}

void
EtReplayApp::NodeDone(uint32_t position)
{
    m_finishedNodes.push_back(position);
    if (!m_draining)
    {
        Drain();
    }
}

void
EtReplayApp::Drain()
{
    m_draining = true;
    while (true)
    {
        // Issue may finish nodes at once (metadata, local collectives, early messages);
        // they queue up in m_finishedNodes and are completed here, without recursion.
        // Complete itself finishes nothing, so the list is stable while it is walked.
        for (uint32_t position : m_finishedNodes)
        {
            Complete(position);
        }
        m_finishedNodes.clear();
        if (m_stopped)
        {
            break;
        }
        m_queue->TakeIssuable(m_issueBatch);
        if (m_issueBatch.empty())
        {
            break;
        }
        // Issue never reaches TakeIssuable (Drain does not re-enter), so the batch
        // stays as it is while it is walked.
        for (uint32_t position : m_issueBatch)
        {
            Issue(position);
        }
    }
    m_draining = false;
    if (m_started && !m_stats.finished && m_stats.nodesDone == m_stats.nodes)
    {
        m_stats.finished = true;
        m_stats.finish = m_engine->Now();
        NS_LOG_INFO("rank " << m_rank << " finished at " << m_stats.finish.As(Time::US));
        m_rankFinished(m_rank, m_stats.finish);
        m_engine->RankFinished(m_rank);
    }
    if (m_started)
    {
        m_engine->RankIdle();
    }
}

void
EtReplayApp::After(uint32_t position, uint64_t ns)
{
    m_engine->Schedule(NanoSeconds(ns), [this, position]() { NodeDone(position); });
}

void
EtReplayApp::Issue(uint32_t position)
{
    const EtNode& node = m_trace->GetNode(position);
    const ReplayNodeAction action = GetReplayNodeAction(node);
    NS_LOG_FUNCTION(this << m_rank << node.id << ToString(node.type));
    m_state[position] = NodeState::Running;
    m_engine->NodeStarted();
    const auto activity = GetReplayActivity(node, action);
    if (activity)
    {
        m_activity.Begin(*activity, m_engine->Now());
    }
    m_nodeIssued(node.id);
    switch (action)
    {
    case ReplayNodeAction::Instant:
        NodeDone(position);
        break;
    case ReplayNodeAction::Compute:
        if (!node.isCpuOp)
        {
            ++m_stats.computeNodes;
        }
        After(position, m_engine->GetComputeModel().GetDurationNs(node));
        break;
    case ReplayNodeAction::Memory:
        ++m_stats.memoryAccesses;
        m_engine->AccessRemoteMemory(m_rank, position, node, DescribeNodePlace(*m_trace, node));
        break;
    case ReplayNodeAction::Collective:
        ++m_stats.collectives;
        m_engine->RunCollective(m_rank, position, node, DescribeNodePlace(*m_trace, node));
        break;
    case ReplayNodeAction::Send:
        ++m_stats.sends;
        m_engine->Send(m_rank, position, node);
        break;
    case ReplayNodeAction::Receive:
        ++m_stats.receives;
        m_engine->Receive(m_rank, position, node);
        break;
    case ReplayNodeAction::Duration:
        After(position, node.durationMicros * 1000);
        break;
    }
}

void
EtReplayApp::Complete(uint32_t position)
{
    const EtNode& node = m_trace->GetNode(position);
    NS_ABORT_MSG_IF(m_state[position] != NodeState::Running,
                    "rank " << m_rank << ": node " << node.id << " finished but was not running");
    m_state[position] = NodeState::Done;
    m_engine->NodeEnded();
    const auto activity = GetReplayActivity(node, GetReplayNodeAction(node));
    if (activity)
    {
        m_activity.End(*activity, m_engine->Now());
    }
    m_queue->Release(ClassifyReplayResource(node));
    ++m_stats.nodesDone;
    m_nodeFinished(node.id);
    for (uint32_t child : m_trace->GetGraph().GetChildren(position))
    {
        if (--m_waitingParents[child] == 0)
        {
            const EtNode& c = m_trace->GetNode(child);
            m_queue->Push(c.id, child, ClassifyReplayResource(c));
        }
    }
}

bool
EtReplayApp::IsFinished() const
{
    return m_stats.finished;
}

ReplayRankStats
EtReplayApp::GetStats() const
{
    ReplayRankStats stats = m_stats;
    stats.rank = m_rank;
    stats.nodes = m_trace ? m_trace->GetNodeCount() : 0;
    stats.compute = m_activity.GetBusy(ReplayActivityKind::Compute);
    stats.comm = m_activity.GetBusy(ReplayActivityKind::Comm);
    stats.exposedComm = m_activity.GetExposedComm();
    stats.cpu = m_activity.GetBusy(ReplayActivityKind::Cpu);
    stats.memory = m_activity.GetBusy(ReplayActivityKind::Memory);
    return stats;
}

std::vector<uint32_t>
EtReplayApp::GetRunningNodes() const
{
    std::vector<uint32_t> running;
    for (uint32_t i = 0; i < m_state.size(); ++i)
    {
        if (m_state[i] == NodeState::Running)
        {
            running.push_back(i);
        }
    }
    return running;
}

std::string
EtReplayApp::DescribeBlocked(size_t limit) const
{
    std::string text = "rank " + std::to_string(m_rank) + ": " + std::to_string(m_stats.nodesDone) +
                       " of " + std::to_string(m_trace->GetNodeCount()) + " nodes done";
    const std::vector<uint32_t> running = GetRunningNodes();
    if (!running.empty())
    {
        text += ", waiting on";
        for (size_t i = 0; i < running.size() && i < limit; ++i)
        {
            const EtNode& node = m_trace->GetNode(running[i]);
            text +=
                (i ? ", node " : " node ") + std::to_string(node.id) + " (" + ToString(node.type);
            if (node.type == EtNodeType::COMM_COLL_NODE)
            {
                text += " " + ToString(node.commType);
            }
            else if (node.type == EtNodeType::COMM_RECV_NODE)
            {
                text += " from rank " + std::to_string(node.commSrc) + " tag " +
                        std::to_string(node.commTag);
            }
            else if (node.type == EtNodeType::COMM_SEND_NODE)
            {
                text += " to rank " + std::to_string(node.commDst) + " tag " +
                        std::to_string(node.commTag);
            }
            text += ")";
        }
        if (running.size() > limit)
        {
            text += ", ...";
        }
    }
    if (m_queue && m_queue->GetReadyCount() > 0)
    {
        text += "; " + std::to_string(m_queue->GetReadyCount()) + " ready for a busy slot";
    }
    return text;
}

} // namespace ns3
