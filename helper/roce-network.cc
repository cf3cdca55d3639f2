/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-network.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/roce-channel.h"
#include "ns3/roce-header.h"
#include "ns3/roce-wire.h"
#include "ns3/uinteger.h"

#include <deque>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceNetwork");

namespace
{
constexpr uint32_t kUnreachable = std::numeric_limits<uint32_t>::max();
} // namespace

uint32_t
RoceNetwork::AddNode(bool host)
{
    Ptr<Node> node = CreateObject<Node>();
    m_nodes.Add(node);
    const uint32_t id = node->GetId();
    NS_ABORT_MSG_UNLESS(id == m_isHost.size(), "RoceNetwork must create every node");
    m_isHost.push_back(host);
    m_adjacency.emplace_back();
    m_portSlot.emplace_back();
    m_nics.emplace_back();
    m_switchObjects.emplace_back();
    if (host)
    {
        auto nic = CreateObject<RdmaNic>();
        nic->SetNodeId(id);
        node->AggregateObject(nic);
        m_nics[id] = nic;
        m_hosts.push_back(id);
    }
    else
    {
        auto sw = CreateObject<RoceSwitch>();
        sw->SetNodeId(id);
        node->AggregateObject(sw);
        m_switchObjects[id] = sw;
        m_switches.push_back(id);
    }
    return id;
}

uint32_t
RoceNetwork::AddHost()
{
    return AddNode(true);
}

uint32_t
RoceNetwork::AddSwitch()
{
    return AddNode(false);
}

std::pair<uint32_t, uint32_t>
RoceNetwork::AddLink(uint32_t a, uint32_t b, uint64_t rateBps, Time delay, double lossProbability)
{
    uint32_t portOf[2] = {0, 0};
    auto channel = CreateObject<RoceChannel>();
    channel->SetAttribute("Delay", TimeValue(delay));
    Ptr<RocePort> ends[2];
    const uint32_t nodes[2] = {a, b};
    for (int i = 0; i < 2; ++i)
    {
        ends[i] = CreateObject<RocePort>();
        ends[i]->SetAttribute("DataRate", DataRateValue(DataRate(rateBps)));
        ends[i]->SetAttribute("LossProbability", DoubleValue(lossProbability));
        m_nodes.Get(nodes[i])->AddDevice(ends[i]);
    }
    channel->Connect(ends[0], ends[1]);
    for (int i = 0; i < 2; ++i)
    {
        const uint32_t self = nodes[i];
        const uint32_t port = m_isHost[self] ? m_nics[self]->AddPort(ends[i])
                                             : m_switchObjects[self]->AddPort(ends[i]);
        if (m_portSlot[self].size() <= port)
        {
            m_portSlot[self].resize(port + 1);
        }
        m_portSlot[self][port] = static_cast<uint32_t>(m_adjacency[self].size());
        m_adjacency[self].push_back(Adjacency{nodes[1 - i], port, rateBps, delay});
        portOf[i] = port;
    }
    return {portOf[0], portOf[1]};
}

void
RoceNetwork::SetRoute(uint32_t node, uint32_t dst, const std::vector<uint32_t>& ports)
{
    m_routesSet = true;
    if (m_isHost.at(node))
    {
        m_nics[node]->SetRoute(dst, ports);
    }
    else
    {
        m_switchObjects[node]->SetRoute(dst, ports);
    }
}

std::vector<uint32_t>
RoceNetwork::DistancesTo(uint32_t dst) const
{
    std::vector<uint32_t> dist(m_isHost.size(), kUnreachable);
    std::deque<uint32_t> frontier{dst};
    dist[dst] = 0;
    while (!frontier.empty())
    {
        const uint32_t n = frontier.front();
        frontier.pop_front();
        if (m_isHost[n] && n != dst)
        {
            continue; // hosts are endpoints, not transit
        }
        for (const auto& adj : m_adjacency[n])
        {
            if (dist[adj.peer] == kUnreachable)
            {
                dist[adj.peer] = dist[n] + 1;
                frontier.push_back(adj.peer);
            }
        }
    }
    return dist;
}

void
RoceNetwork::RouteTo(uint32_t dst)
{
    const auto dist = DistancesTo(dst);
    for (uint32_t n = 0; n < m_isHost.size(); ++n)
    {
        if (n == dst || dist[n] == kUnreachable)
        {
            continue;
        }
        std::vector<uint32_t> ports;
        for (const auto& adj : m_adjacency[n])
        {
            if (dist[adj.peer] + 1 == dist[n] && (!m_isHost[adj.peer] || adj.peer == dst))
            {
                ports.push_back(adj.port);
            }
        }
        if (m_isHost[n])
        {
            m_nics[n]->SetRoute(dst, ports);
        }
        else
        {
            m_switchObjects[n]->SetRoute(dst, ports);
        }
    }
}

void
RoceNetwork::Finalize(uint32_t maxPayload)
{
    m_mtu = maxPayload;
    if (!m_routesSet)
    {
        for (uint32_t host : m_hosts)
        {
            RouteTo(host);
        }
    }
    RoceHeader full;
    full.payload = maxPayload;
    full.Set(RoceHeader::WANT_INT);
    full.nHops = kMaxIntHops;
    const uint32_t maxFrame = full.GetWireBytes() - wire::PhyOverheadBytes();
    int64_t stream = 0;
    for (uint32_t s : m_switches)
    {
        m_switchObjects[s]->ConfigureBuffer(maxFrame);
        stream += m_switchObjects[s]->AssignStreams(stream);
    }
    for (uint32_t n = 0; n < m_isHost.size(); ++n)
    {
        for (const auto& port : GetPorts(n))
        {
            stream += port->AssignStreams(stream);
        }
    }
}

Ptr<RdmaQueuePair>
RoceNetwork::Connect(uint32_t src, uint32_t dst, uint8_t priority)
{
    // The NIC may reach dst through several ports of different rates (an NPU with a
    // scale-up and a scale-out NIC): congestion control needs the RTT of the one used.
    const uint32_t port = m_nics.at(src)->GetNextPortTo(m_nics.at(dst));
    const auto path = PathOf(src, dst, port);
    return m_nics.at(src)->Connect(
        m_nics.at(dst), priority, RttOf(path), static_cast<uint32_t>(path.size()) - 1);
}

bool
RoceNetwork::IsHost(uint32_t node) const
{
    return m_isHost.at(node);
}

Ptr<RdmaNic>
RoceNetwork::GetNic(uint32_t node) const
{
    return m_nics.at(node);
}

Ptr<RoceSwitch>
RoceNetwork::GetSwitch(uint32_t node) const
{
    return m_switchObjects.at(node);
}

const std::vector<uint32_t>&
RoceNetwork::GetHosts() const
{
    return m_hosts;
}

const std::vector<uint32_t>&
RoceNetwork::GetSwitches() const
{
    return m_switches;
}

std::vector<Ptr<RocePort>>
RoceNetwork::GetPorts(uint32_t node) const
{
    std::vector<Ptr<RocePort>> ports;
    for (const auto& adj : m_adjacency.at(node))
    {
        ports.push_back(m_isHost[node] ? m_nics[node]->GetPort(adj.port)
                                       : m_switchObjects[node]->GetPort(adj.port));
    }
    return ports;
}

const std::vector<uint32_t>&
RoceNetwork::RouteAt(uint32_t node, uint32_t dst) const
{
    return m_isHost[node] ? m_nics[node]->GetRoute(dst) : m_switchObjects[node]->GetRoute(dst);
}

std::vector<const RoceNetwork::Adjacency*>
RoceNetwork::PathOf(uint32_t src, uint32_t dst, int64_t firstPort) const
{
    // Follow the first port of each installed ECMP set: every member has the same length.
    std::vector<const Adjacency*> path;
    uint32_t node = src;
    while (node != dst)
    {
        const auto& ports = RouteAt(node, dst);
        NS_ABORT_MSG_IF(ports.empty() || path.size() > m_isHost.size(),
                        "no route from node " << src << " to node " << dst);
        const uint32_t port =
            node == src && firstPort >= 0 ? static_cast<uint32_t>(firstPort) : ports[0];
        const Adjacency& adj = m_adjacency[node][m_portSlot[node].at(port)];
        path.push_back(&adj);
        node = adj.peer;
    }
    return path;
}

uint32_t
RoceNetwork::GetHopCount(uint32_t src, uint32_t dst) const
{
    return static_cast<uint32_t>(PathOf(src, dst).size()) - 1;
}

Time
RoceNetwork::GetBaseRtt(uint32_t src, uint32_t dst) const
{
    return RttOf(PathOf(src, dst));
}

Time
RoceNetwork::GetBaseRtt(uint32_t src, uint32_t dst, uint32_t port) const
{
    return RttOf(PathOf(src, dst, port));
}

Time
RoceNetwork::RttOf(const std::vector<const Adjacency*>& path) const
{
    // Charge each cable a full data packet, an ACK and the propagation delay both ways.
    RoceHeader data;
    data.payload = m_mtu;
    RoceHeader ack;
    ack.type = RoceHeader::ACK;
    const uint64_t bits = 8ULL * (data.GetWireBytes() + ack.GetWireBytes());
    Time rtt;
    for (const Adjacency* adj : path)
    {
        rtt += adj->delay * 2 +
               PicoSeconds(static_cast<int64_t>(bits * 1'000'000'000'000ULL / adj->rateBps));
    }
    return rtt;
}

} // namespace ns3
