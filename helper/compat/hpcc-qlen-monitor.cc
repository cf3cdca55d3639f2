/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-qlen-monitor.h"

#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccQlenMonitor");

HpccQlenMonitor::HpccQlenMonitor(const RoceNetwork& net,
                                 uint64_t startNs,
                                 uint64_t endNs,
                                 const std::string& path,
                                 std::function<void()> done)
    : m_endNs(endNs)
    , m_path(path)
    , m_out(path)
    , m_done(std::move(done))
{
    if (!m_out)
    {
        throw InputError(path + ": cannot write the queue-length output");
    }
    for (uint32_t node : net.GetSwitches())
    {
        const Ptr<RoceSwitch> sw = net.GetSwitch(node);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            m_ports.push_back(Port{node, p, sw, {}});
        }
    }
    const Time start = NanoSeconds(static_cast<int64_t>(startNs));
    Simulator::Schedule(start - Simulator::Now(), &HpccQlenMonitor::Sample, this);
}

bool
HpccQlenMonitor::IsDone() const
{
    return m_isDone;
}

uint64_t
HpccQlenMonitor::GetSamples() const
{
    return m_samples;
}

void
HpccQlenMonitor::Sample()
{
    for (Port& p : m_ports)
    {
        p.counts.Add(p.sw->GetQueueBytes(p.index));
    }
    ++m_samples;
    const auto nowNs = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
    const bool last = nowNs >= m_endNs;
    if (nowNs % kDumpNs == 0 || last)
    {
        Dump(nowNs);
    }
    if (!last)
    {
        Simulator::Schedule(NanoSeconds(kSampleNs), &HpccQlenMonitor::Sample, this);
        return;
    }
    m_out.close();
    m_isDone = true;
    NS_LOG_INFO(m_samples << " samples");
    if (m_done)
    {
        m_done();
    }
}

void
HpccQlenMonitor::Dump(uint64_t nowNs)
{
    m_out << "time: " << nowNs << '\n';
    for (const Port& p : m_ports)
    {
        m_out << p.counts.Format(p.node, p.index + 1) << '\n';
    }
    m_out.flush();
    if (!m_out)
    {
        throw InputError(m_path + ": cannot write the queue-length output");
    }
}

} // namespace ns3
