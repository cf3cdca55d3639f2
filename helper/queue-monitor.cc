/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "queue-monitor.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/roce-network.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QueueMonitor");

QueueMonitor::QueueMonitor(const RoceNetwork& net)
{
    for (uint32_t node : net.GetSwitches())
    {
        Ptr<RoceSwitch> sw = net.GetSwitch(node);
        const auto index = static_cast<uint32_t>(m_nodes.size());
        m_nodes.push_back(node);
        m_tracks.emplace_back(sw->GetNPorts());
        sw->TraceConnectWithoutContext(
            "QueueLength",
            Callback<void, uint32_t, uint64_t>([this, index](uint32_t port, uint64_t bytes)
                                               { Update(index, port, bytes); }));
    }
}

void
QueueMonitor::Update(uint32_t sw, uint32_t port, uint64_t bytes)
{
    Track& t = m_tracks[sw].at(port);
    const Time now = Simulator::Now();
    t.byteSeconds += static_cast<long double>(t.bytes) * (now - t.since).GetSeconds();
    t.since = now;
    t.bytes = bytes;
    t.peakBytes = std::max(t.peakBytes, bytes);
}

std::vector<QueueMonitor::PortQueue>
QueueMonitor::GetPorts() const
{
    return GetPorts(Simulator::Now());
}

std::vector<QueueMonitor::PortQueue>
QueueMonitor::GetPorts(Time now) const
{
    NS_ABORT_MSG_IF(now < LastChange(), "queue figures asked for before the last change");
    std::vector<PortQueue> ports;
    const double span = now.GetSeconds();
    for (size_t sw = 0; sw < m_tracks.size(); ++sw)
    {
        for (size_t port = 0; port < m_tracks[sw].size(); ++port)
        {
            const Track& t = m_tracks[sw][port];
            if (t.peakBytes == 0)
            {
                continue;
            }
            const long double integral =
                t.byteSeconds + static_cast<long double>(t.bytes) * (now - t.since).GetSeconds();
            PortQueue q;
            q.node = m_nodes[sw];
            q.port = static_cast<uint32_t>(port);
            q.peakBytes = t.peakBytes;
            q.meanBytes = span > 0 ? static_cast<double>(integral / span) : 0.0;
            ports.push_back(q);
        }
    }
    return ports;
}

QueueMonitor::PortQueue
QueueMonitor::GetBottleneck() const
{
    return FindBottleneck(GetPorts());
}

Time
QueueMonitor::LastChange() const
{
    Time last;
    for (const auto& tracks : m_tracks)
    {
        for (const Track& t : tracks)
        {
            last = std::max(last, t.since);
        }
    }
    return last;
}

QueueMonitor::PortQueue
QueueMonitor::FindBottleneck(const std::vector<PortQueue>& ports)
{
    PortQueue worst;
    for (const auto& q : ports)
    {
        if (q.meanBytes > worst.meanBytes ||
            (q.meanBytes == worst.meanBytes && q.peakBytes > worst.peakBytes))
        {
            worst = q;
        }
    }
    return worst;
}

} // namespace ns3
