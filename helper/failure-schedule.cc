/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "failure-schedule.h"

#include "ns3/failure-routing.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/roce-header.h"
#include "ns3/roce-network.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FailureSchedule");
NS_OBJECT_ENSURE_REGISTERED(FailureSchedule);

TypeId
FailureSchedule::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FailureSchedule")
            .SetParent<Object>()
            .SetGroupName("Mlfabric")
            .AddConstructor<FailureSchedule>()
            .AddAttribute("DetectionDelay",
                          "Time from a link or switch failing (or coming back) to every "
                          "node's routes leaving (or using) it. Default 10 us: a switch "
                          "that sees loss of signal and moves its ECMP groups in hardware; "
                          "a control plane with BFD takes milliseconds (e.g. 3 x 50 ms)",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&FailureSchedule::m_detectionDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RecoveryCheckInterval",
                          "How often queue pairs that lost frames to a failure are checked "
                          "for having repaired them; the recovery time is exact to this",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&FailureSchedule::m_recoveryCheckInterval),
                          MakeTimeChecker(PicoSeconds(1)));
    return tid;
}

void
FailureSchedule::DoDispose()
{
    m_net = nullptr;
    m_events.clear();
    Object::DoDispose();
}

Time
FailureSchedule::GetDetectionDelay() const
{
    return m_detectionDelay;
}

void
FailureSchedule::Install(RoceNetwork& net, const std::vector<FailureSpec>& failures)
{
    m_net = &net;
    const uint32_t links = net.GetFabric().GetLinkCount();
    m_downBy.assign(links, 0);
    m_lastEvent.assign(links, -1);
    for (uint32_t l = 0; l < links; ++l)
    {
        const auto ends = net.GetLinkPorts(l);
        const Callback<void, Ptr<const Packet>> onLoss([this, l](Ptr<const Packet> p)
                                                       { OnLoss(l, p); });
        ends.first->TraceConnectWithoutContext("FailureLoss", onLoss);
        ends.second->TraceConnectWithoutContext("FailureLoss", onLoss);
    }
    for (const auto& spec : failures)
    {
        const size_t i = m_events.size();
        Event e;
        e.spec = spec;
        e.outcome.text = spec.text;
        e.outcome.down = spec.down;
        e.outcome.up = spec.up;
        e.outcome.links = spec.links.size();
        m_events.push_back(std::move(e));
        Simulator::Schedule(spec.down, &FailureSchedule::Fail, this, i);
        if (spec.up != Time::Max())
        {
            Simulator::Schedule(spec.up, &FailureSchedule::Restore, this, i);
        }
    }
}

void
FailureSchedule::Fail(size_t i)
{
    Event& e = m_events[i];
    NS_LOG_INFO("failure " << e.spec.text << ": " << e.spec.links.size() << " links down");
    e.active = true;
    for (uint32_t l : e.spec.links)
    {
        m_lastEvent[l] = static_cast<int64_t>(i);
        if (m_downBy[l]++ == 0)
        {
            const auto ends = m_net->GetLinkPorts(l);
            ends.first->SetLinkFailed(true);
            ends.second->SetLinkFailed(true);
        }
    }
    Simulator::Schedule(m_detectionDelay, &FailureSchedule::MoveRoutes, this, i);
}

void
FailureSchedule::Restore(size_t i)
{
    Event& e = m_events[i];
    NS_LOG_INFO("failure " << e.spec.text << ": links back up");
    e.active = false;
    for (uint32_t l : e.spec.links)
    {
        if (--m_downBy[l] == 0)
        {
            const auto ends = m_net->GetLinkPorts(l);
            ends.first->SetLinkFailed(false);
            ends.second->SetLinkFailed(false);
        }
    }
    Simulator::Schedule(m_detectionDelay, &FailureSchedule::MoveRoutes, this, i);
}

void
FailureSchedule::MoveRoutes(size_t i)
{
    const auto before = QpRouteLinks();
    Reroute();
    const auto after = QpRouteLinks();
    uint64_t changed = 0;
    for (size_t q = 0; q < before.size(); ++q)
    {
        changed += before[q] != after[q] ? 1 : 0;
    }
    m_events[i].outcome.reroutedQps += changed;
    NS_LOG_INFO("failure " << m_events[i].spec.text << ": routes moved, " << changed
                           << " queue pairs rerouted");
}

void
FailureSchedule::Reroute()
{
    const Fabric& fabric = m_net->GetFabric();
    std::vector<bool> down(fabric.GetLinkCount());
    for (uint32_t l = 0; l < down.size(); ++l)
    {
        down[l] = m_net->GetLinkPorts(l).first->IsLinkFailed();
    }
    const RoutingTable table = ComputeRoutingAvoiding(fabric, down);
    std::vector<uint32_t> ports;
    for (uint32_t n = 0; n < fabric.GetNodeCount(); ++n)
    {
        for (uint32_t r = 0; r < fabric.GetNpuCount(); ++r)
        {
            const uint32_t dst = fabric.GetNpuNode(r);
            const PortSet set = table.GetEgressPorts(n, r);
            if (dst == n || set.empty())
            {
                continue; // cut off: the old route stays, and its frames are lost
            }
            ports.assign(set.begin(), set.end());
            if (m_net->IsHost(n))
            {
                m_net->GetNic(n)->SetRoute(dst, ports);
            }
            else
            {
                m_net->GetSwitch(n)->SetRoute(dst, ports);
            }
        }
    }
}

std::vector<std::vector<uint32_t>>
FailureSchedule::QpRouteLinks() const
{
    const Fabric& fabric = m_net->GetFabric();
    std::vector<std::vector<uint32_t>> result;
    for (uint32_t host : m_net->GetHosts())
    {
        for (const auto& qp : m_net->GetNic(host)->GetQueuePairs())
        {
            const uint32_t dst = qp->GetPeerNode();
            std::set<uint32_t> links;
            std::vector<uint32_t> frontier;
            std::set<uint32_t> seen;
            const FabricPort& first = fabric.GetPort(host, qp->GetPort());
            links.insert(first.link);
            frontier.push_back(first.peer);
            seen.insert(first.peer);
            while (!frontier.empty())
            {
                const uint32_t node = frontier.back();
                frontier.pop_back();
                if (node == dst)
                {
                    continue;
                }
                const auto& route = m_net->IsHost(node) ? m_net->GetNic(node)->GetRoute(dst)
                                                        : m_net->GetSwitch(node)->GetRoute(dst);
                for (uint32_t p : route)
                {
                    const FabricPort& port = fabric.GetPort(node, p);
                    links.insert(port.link);
                    if (seen.insert(port.peer).second)
                    {
                        frontier.push_back(port.peer);
                    }
                }
            }
            result.emplace_back(links.begin(), links.end());
        }
    }
    return result;
}

void
FailureSchedule::OnLoss(uint32_t link, Ptr<const Packet> packet)
{
    if (m_lastEvent[link] < 0)
    {
        return;
    }
    Event& e = m_events[m_lastEvent[link]];
    RoceHeader h;
    packet->PeekHeader(h);
    ++e.outcome.lostFrames;
    e.outcome.lostPayload += h.payload;
    QpKey key;
    uint64_t target = 0;
    switch (h.type)
    {
    case RoceHeader::DATA:
        key = {h.src, h.srcQp};
        target = h.seq + h.payload;
        break;
    case RoceHeader::ACK:
    case RoceHeader::NACK:
        key = {h.dst, h.dstQp};
        target = h.seq;
        break;
    default:
        return; // a lost CNP needs no repair
    }
    auto [it, fresh] = e.unrepaired.emplace(key, target);
    it->second = std::max(it->second, target);
    if (fresh)
    {
        ++e.outcome.damagedQps;
    }
    if (!m_checkScheduled)
    {
        m_checkScheduled = true;
        Simulator::Schedule(m_recoveryCheckInterval, &FailureSchedule::CheckRecovery, this);
    }
}

void
FailureSchedule::CheckRecovery()
{
    m_checkScheduled = false;
    bool waiting = false;
    for (auto& e : m_events)
    {
        for (auto it = e.unrepaired.begin(); it != e.unrepaired.end();)
        {
            const auto& qp = m_net->GetNic(it->first.first)->GetQueuePairs().at(it->first.second);
            if (qp->GetSndUna() >= it->second)
            {
                e.outcome.recoveryTime =
                    std::max(e.outcome.recoveryTime, Simulator::Now() - e.spec.down);
                it = e.unrepaired.erase(it);
                continue;
            }
            // A queue pair in error repairs nothing more: stop watching it.
            waiting = waiting || !qp->IsInError();
            ++it;
        }
    }
    if (waiting)
    {
        m_checkScheduled = true;
        Simulator::Schedule(m_recoveryCheckInterval, &FailureSchedule::CheckRecovery, this);
    }
}

std::vector<FailureSchedule::Outcome>
FailureSchedule::GetOutcomes() const
{
    std::vector<Outcome> outcomes;
    for (const auto& e : m_events)
    {
        Outcome o = e.outcome;
        o.unrecoveredQps = e.unrepaired.size();
        outcomes.push_back(o);
    }
    return outcomes;
}

} // namespace ns3
