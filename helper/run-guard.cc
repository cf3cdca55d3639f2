/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "run-guard.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <sstream>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RunGuard");

namespace
{
/** Queue pairs named in a stall report, at most. */
constexpr size_t kMaxListed = 10;

/**
 * A persistent wait: port \p port of \p node waits on \p peer for \p priority, paused
 * by PFC or out of link credits.
 */
struct PauseEdge
{
    uint32_t node;
    uint32_t port;
    uint32_t peer;
    uint8_t priority;
    Time since;
    bool credits; //!< out of link credits rather than paused
};
} // namespace

RunGuard::RunGuard(const RoceNetwork& net, Time stallTimeout, Time deadlockThreshold)
    : m_net(net)
    , m_stallTimeout(stallTimeout)
    , m_deadlockThreshold(deadlockThreshold)
    , m_period(std::min(stallTimeout, deadlockThreshold) / 4)
{
}

void
RunGuard::Start(std::function<bool()> finished, ProcessGroup* processes)
{
    m_finished = std::move(finished);
    m_processes = processes;
    m_lastProgress = Progress();
    m_lastProgressTime = Simulator::Now();
    Simulator::Schedule(m_period, &RunGuard::Check, this);
}

RunGuard::Verdict
RunGuard::GetVerdict() const
{
    return m_verdict;
}

const std::string&
RunGuard::GetReport() const
{
    return m_report;
}

void
RunGuard::Stop(Verdict verdict, const std::string& report)
{
    m_verdict = verdict;
    m_report = report;
    NS_LOG_WARN(report);
    Simulator::Stop();
}

void
RunGuard::Check()
{
    std::string cycle = FindPauseCycle();
    uint64_t progress = Progress();
    bool finished = m_finished && m_finished();
    // In one process the queue pairs are walked only once the run has stalled; across
    // processes every check adds up every process's.
    std::optional<bool> outstanding;
    if (m_processes)
    {
        std::vector<uint64_t> sums{
            cycle.empty() ? 0u : 1u, progress, AnyOutstanding() ? 1u : 0u, finished ? 0u : 1u};
        m_processes->SumOver(sums);
        if (sums[0] > 0 && cycle.empty())
        {
            cycle = "PFC deadlock: another process found a cycle of persistent pauses";
        }
        progress = sums[1];
        outstanding = sums[2] > 0;
        finished = sums[3] == 0;
    }
    if (!cycle.empty())
    {
        Stop(Verdict::PFC_DEADLOCK, cycle);
        return;
    }
    if (progress != m_lastProgress)
    {
        m_lastProgress = progress;
        m_lastProgressTime = Simulator::Now();
    }
    else if (Simulator::Now() - m_lastProgressTime >= m_stallTimeout &&
             (outstanding ? *outstanding : AnyOutstanding()))
    {
        Stop(Verdict::STALL, DescribeStall());
        return;
    }
    // Across processes one that has run out of events checks on with the others.
    if ((m_processes || !Simulator::IsFinished()) && !finished)
    {
        Simulator::Schedule(m_period, &RunGuard::Check, this);
    }
}

std::string
RunGuard::FindPauseCycle() const
{
    // Waits-for graph: a node waits on the peer that has paused one of its ports.
    const Time now = Simulator::Now();
    std::vector<uint32_t> nodes = m_net.GetHosts();
    nodes.insert(nodes.end(), m_net.GetSwitches().begin(), m_net.GetSwitches().end());
    uint32_t maxNode = 0;
    for (uint32_t n : nodes)
    {
        maxNode = std::max(maxNode, n);
    }
    std::vector<std::vector<PauseEdge>> waits(maxNode + 1);
    for (uint32_t n : nodes)
    {
        const auto ports = m_net.GetPorts(n);
        for (uint32_t i = 0; i < ports.size(); ++i)
        {
            for (uint8_t p = 0; p < kNumPriorities; ++p)
            {
                // A credit link's channel out of credits waits on its peer as a pause does.
                const bool paused = ports[i]->IsPaused(p);
                if (!paused && !ports[i]->IsCreditStalled(p))
                {
                    continue;
                }
                const Time since =
                    paused ? ports[i]->GetPauseStart(p) : ports[i]->GetCreditStallStart(p);
                if (now - since >= m_deadlockThreshold)
                {
                    const uint32_t peer = ports[i]->GetPeer()->GetNode()->GetId();
                    waits[n].push_back(PauseEdge{n, i, peer, p, since, !paused});
                    break;
                }
            }
        }
    }
    // Depth-first search for a cycle; colour 1 = on the current path, 2 = done.
    std::vector<uint8_t> colour(maxNode + 1, 0);
    std::vector<const PauseEdge*> path;
    std::vector<const PauseEdge*> cycle;
    std::function<bool(uint32_t)> visit = [&](uint32_t n)
    {
        colour[n] = 1;
        for (const auto& e : waits[n])
        {
            path.push_back(&e);
            if (colour[e.peer] == 1)
            {
                auto start = std::find_if(path.begin(),
                                          path.end(),
                                          [&](const PauseEdge* x) { return x->node == e.peer; });
                cycle.assign(start, path.end());
                return true;
            }
            if (colour[e.peer] == 0 && visit(e.peer))
            {
                return true;
            }
            path.pop_back();
        }
        colour[n] = 2;
        return false;
    };
    for (uint32_t n : nodes)
    {
        if (colour[n] == 0 && visit(n))
        {
            break;
        }
    }
    if (cycle.empty())
    {
        return "";
    }
    const bool anyCredits =
        std::any_of(cycle.begin(), cycle.end(), [](const PauseEdge* e) { return e->credits; });
    std::ostringstream out;
    out << (anyCredits ? "deadlock (PFC or link credits): " : "PFC deadlock: ") << cycle.size()
        << " ports wait on each other in a cycle:";
    for (const PauseEdge* e : cycle)
    {
        out << "\n  " << (m_net.IsHost(e->node) ? "host " : "switch ") << e->node << " port "
            << e->port << " priority " << unsigned(e->priority)
            << (e->credits ? " out of credits from node " : " paused by node ") << e->peer
            << " since " << e->since.As(Time::US);
    }
    return out.str();
}

uint64_t
RunGuard::Progress() const
{
    uint64_t total = 0;
    for (uint32_t host : m_net.GetHosts())
    {
        Ptr<RdmaNic> nic = m_net.GetNic(host);
        total += nic->GetCounters().deliveredBytes;
        for (const auto& qp : nic->GetQueuePairs())
        {
            total += qp->GetSndUna();
        }
    }
    return total;
}

bool
RunGuard::AnyOutstanding() const
{
    for (uint32_t host : m_net.GetHosts())
    {
        for (const auto& qp : m_net.GetNic(host)->GetQueuePairs())
        {
            if (!qp->IsIdle())
            {
                return true;
            }
        }
    }
    return false;
}

std::string
RunGuard::DescribeStall() const
{
    std::ostringstream out;
    out << "stalled: no byte delivered or acknowledged since " << m_lastProgressTime.As(Time::US)
        << "; stuck queue pairs:";
    size_t listed = 0;
    size_t stuck = 0;
    for (uint32_t host : m_net.GetHosts())
    {
        Ptr<RdmaNic> nic = m_net.GetNic(host);
        for (const auto& qp : nic->GetQueuePairs())
        {
            if (qp->IsIdle() || ++stuck > kMaxListed)
            {
                continue;
            }
            ++listed;
            Ptr<RocePort> port = nic->GetPort(qp->GetPort());
            out << "\n  node " << host << " QP " << qp->GetQpn() << " -> node " << qp->GetPeerNode()
                << ": " << qp->GetSndUna() << " of " << qp->GetPostedBytes()
                << " bytes acknowledged, " << qp->GetSndNxt() - qp->GetSndUna() << " in flight, "
                << qp->GetTimeouts() << " timeouts";
            if (port->IsPaused(qp->GetPriority()))
            {
                out << ", priority " << unsigned(qp->GetPriority()) << " paused by PFC since "
                    << port->GetPauseStart(qp->GetPriority()).As(Time::US);
            }
            if (port->IsCreditStalled(qp->GetPriority()))
            {
                out << ", priority " << unsigned(qp->GetPriority()) << " out of link credits";
            }
        }
    }
    if (stuck > listed)
    {
        out << "\n  and " << stuck - listed << " more";
    }
    return out.str();
}

} // namespace ns3
