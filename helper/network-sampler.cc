/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "network-sampler.h"

#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NetworkSampler");

NetworkSampler::NetworkSampler(const RoceNetwork& net, Time period)
    : m_net(net)
    , m_period(period)
{
}

void
NetworkSampler::Start()
{
    Tick();
}

const std::vector<NetworkSampler::Sample>&
NetworkSampler::GetSamples() const
{
    return m_samples;
}

void
NetworkSampler::Tick()
{
    for (uint32_t node : m_net.GetSwitches())
    {
        Ptr<RoceSwitch> sw = m_net.GetSwitch(node);
        Sample s;
        s.time = Simulator::Now();
        s.node = node;
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            const uint64_t queued = sw->GetQueueBytes(p);
            s.queuedBytes += queued;
            s.longestQueue = std::max(s.longestQueue, queued);
            s.pauseFrames += sw->GetPort(p)->GetCounters().pfcPauseTx;
        }
        m_samples.push_back(s);
    }
    if (!Simulator::IsFinished())
    {
        Simulator::Schedule(m_period, &NetworkSampler::Tick, this);
    }
}

void
NetworkSampler::WriteCsv(const std::string& path) const
{
    std::ofstream out(path);
    if (!out)
    {
        throw InputError(path + ": cannot write: " + std::strerror(errno));
    }
    // The switch's fabric name and role, so that plots need not know node ids.
    out << "time_ns,switch,queued_bytes,longest_queue_bytes,pause_frames,name,role\n";
    const Fabric& fabric = m_net.GetFabric();
    for (const Sample& s : m_samples)
    {
        const FabricNode& node = fabric.GetNode(s.node);
        out << s.time.GetNanoSeconds() << ',' << s.node << ',' << s.queuedBytes << ','
            << s.longestQueue << ',' << s.pauseFrames << ',' << node.name << ',' << node.role
            << '\n';
    }
}

} // namespace ns3
