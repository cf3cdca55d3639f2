/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-flow-driver.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/cc-peer-window.h"
#include "ns3/hpcc-output-format.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccFlowDriver");

namespace
{
/** The simulator's first source port of every host. */
constexpr uint16_t kFirstSourcePort = 10000;
} // namespace

HpccFlowDriver::HpccFlowDriver(RoceNetwork& net,
                               std::vector<HpccFlow> flows,
                               std::vector<Setup> setups,
                               const std::string& fctPath,
                               std::function<void()> allDone)
    : m_net(net)
    , m_flows(std::move(flows))
    , m_setups(std::move(setups))
    , m_outcomes(m_flows.size())
    , m_fctPath(fctPath)
    , m_allDone(std::move(allDone))
{
    NS_ABORT_MSG_IF(m_setups.size() != m_flows.size(), "one setup per flow");
    if (!fctPath.empty())
    {
        m_fct.open(fctPath);
        if (!m_fct)
        {
            throw InputError(fctPath + ": cannot write the FCT output");
        }
    }
    for (uint32_t host : m_net.GetHosts())
    {
        const Ptr<RdmaNic> nic = m_net.GetNic(host);
        nic->TraceConnectWithoutContext("MessageSent", MakeCallback(&HpccFlowDriver::Sent, this));
        nic->TraceConnectWithoutContext("MessageReceived",
                                        MakeCallback(&HpccFlowDriver::Received, this));
        if (m_nextPort.size() <= host)
        {
            m_nextPort.resize(host + 1, kFirstSourcePort);
        }
    }
}

void
HpccFlowDriver::Start()
{
    // One start is pending at a time, as in the simulator: a long flow file does not
    // deepen the event queue.
    m_order.resize(m_flows.size());
    for (uint32_t i = 0; i < m_order.size(); ++i)
    {
        m_order[i] = i;
        m_localFlows += m_net.IsLocal(m_flows[i].src) ? 1 : 0;
    }
    std::stable_sort(m_order.begin(),
                     m_order.end(),
                     [this](uint32_t a, uint32_t b)
                     { return m_flows[a].start < m_flows[b].start; });
    ScheduleNextStart();
}

void
HpccFlowDriver::ScheduleNextStart()
{
    if (m_started < m_order.size())
    {
        const uint32_t i = m_order[m_started];
        Simulator::Schedule(
            m_flows[i].start - Simulator::Now(), &HpccFlowDriver::StartFlow, this, i);
    }
}

void
HpccFlowDriver::StartFlow(uint32_t i)
{
    const HpccFlow& f = m_flows[i];
    const Setup& s = m_setups[i];
    const Ptr<RdmaNic> nic = m_net.GetNic(f.src);
    const Ptr<RdmaQueuePair> qp = nic->Connect(m_net.GetNic(f.dst), f.pg, s.baseRtt, s.switchHops);
    if (s.windowBytes > 0)
    {
        const auto window = DynamicCast<CcPeerWindow>(qp->GetCongestionOps());
        NS_ABORT_MSG_UNLESS(window, "a flow window needs the CcPeerWindow congestion control");
        window->SetBaseWindow(s.windowBytes);
    }
    m_outcomes[i].sport = m_nextPort[f.src]++;
    m_outcomes[i].started = true;
    ++m_started;
    // Every process opens every queue pair, in the same order, so that the queue pair
    // numbers in frames across processes are those of the peer; the source's sends.
    if (m_net.IsLocal(f.src))
    {
        nic->PostSend(qp, f.bytes, i);
    }
    ScheduleNextStart();
    NS_LOG_LOGIC("flow " << i << " " << f.src << "->" << f.dst << " " << f.bytes << " B");
}

void
HpccFlowDriver::Sent(Ptr<RdmaQueuePair> qp, uint64_t id, uint64_t tag, uint64_t bytes, Time posted)
{
    const HpccFlow& f = m_flows.at(tag);
    Outcome& o = m_outcomes[tag];
    o.completed = true;
    o.fct = Simulator::Now() - f.start;
    NS_ASSERT(bytes == f.bytes);
    // Stop it after the ACK has been handled: the queue pair carries nothing more.
    Simulator::ScheduleNow(&RdmaCongestionOps::Stop, qp->GetCongestionOps());
    if (++m_completed == m_localFlows && m_allDone)
    {
        m_allDone();
    }
}

void
HpccFlowDriver::Received(uint32_t srcNode, uint32_t srcQpn, uint64_t tag, uint64_t bytes)
{
    Outcome& o = m_outcomes.at(tag);
    o.received = Simulator::Now() - m_flows[tag].start;
}

void
HpccFlowDriver::Finish(const std::vector<Outcome>& outcomes)
{
    if (!m_fct.is_open())
    {
        return;
    }
    NS_ABORT_MSG_IF(outcomes.size() != m_flows.size(), "one outcome per flow");
    std::vector<uint32_t> done;
    for (uint32_t i = 0; i < outcomes.size(); ++i)
    {
        if (outcomes[i].completed)
        {
            done.push_back(i);
        }
    }
    auto end = [&](uint32_t i)
    {
        return m_flows[i].start + outcomes[i].fct;
    };
    std::stable_sort(
        done.begin(), done.end(), [&](uint32_t a, uint32_t b) { return end(a) < end(b); });
    for (uint32_t i : done)
    {
        const HpccFlow& f = m_flows[i];
        HpccFctRecord r;
        r.sip = HpccHostIp(f.src);
        r.dip = HpccHostIp(f.dst);
        r.sport = outcomes[i].sport;
        r.dport = f.dport;
        r.bytes = f.bytes;
        r.startNs = static_cast<uint64_t>(f.start.GetNanoSeconds());
        r.fctNs = static_cast<uint64_t>(outcomes[i].fct.GetNanoSeconds());
        r.standaloneNs = m_setups[i].standaloneNs;
        m_fct << FormatFctLine(r) << '\n';
    }
    m_fct.flush();
    if (!m_fct)
    {
        throw InputError(m_fctPath + ": cannot write the FCT output");
    }
}

const std::vector<HpccFlow>&
HpccFlowDriver::GetFlows() const
{
    return m_flows;
}

const std::vector<HpccFlowDriver::Setup>&
HpccFlowDriver::GetSetups() const
{
    return m_setups;
}

const std::vector<HpccFlowDriver::Outcome>&
HpccFlowDriver::GetOutcomes() const
{
    return m_outcomes;
}

uint32_t
HpccFlowDriver::GetLocalFlows() const
{
    return m_localFlows;
}

uint32_t
HpccFlowDriver::GetStarted() const
{
    return m_started;
}

uint32_t
HpccFlowDriver::GetCompleted() const
{
    return m_completed;
}

} // namespace ns3
