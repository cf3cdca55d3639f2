/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-qlen-monitor.h"

#include "ns3/abort.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <tuple>

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
    , m_done(std::move(done))
{
    if (!path.empty())
    {
        m_out.open(path);
        if (!m_out)
        {
            throw InputError(path + ": cannot write the queue-length output");
        }
    }
    for (uint32_t node : net.GetSwitches())
    {
        if (!net.IsLocal(node))
        {
            continue;
        }
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
        TakeDump(nowNs);
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

const std::vector<HpccQlenMonitor::Dump>&
HpccQlenMonitor::GetDumps() const
{
    return m_dumps;
}

void
HpccQlenMonitor::TakeDump(uint64_t nowNs)
{
    Dump dump{nowNs, {}};
    for (const Port& p : m_ports)
    {
        dump.lines.push_back(Line{p.node, p.index + 1, p.counts.Format(p.node, p.index + 1)});
    }
    if (m_path.empty())
    {
        m_dumps.push_back(std::move(dump));
        return;
    }
    // Written as it comes, so that a long window does not pile up in memory.
    Write(m_out, dump);
    m_out.flush();
    if (!m_out)
    {
        throw InputError(m_path + ": cannot write the queue-length output");
    }
}

std::vector<HpccQlenMonitor::Dump>
HpccQlenMonitor::Merge(const std::vector<std::vector<Dump>>& parts)
{
    std::vector<Dump> merged;
    for (const auto& part : parts)
    {
        if (merged.empty())
        {
            merged = part;
            continue;
        }
        NS_ABORT_MSG_IF(part.size() != merged.size(), "processes sampled at other times");
        for (size_t d = 0; d < part.size(); ++d)
        {
            NS_ABORT_MSG_IF(part[d].timeNs != merged[d].timeNs, "processes sampled at other times");
            auto& lines = merged[d].lines;
            lines.insert(lines.end(), part[d].lines.begin(), part[d].lines.end());
        }
    }
    for (Dump& dump : merged)
    {
        std::stable_sort(dump.lines.begin(),
                         dump.lines.end(),
                         [](const Line& a, const Line& b)
                         { return std::tie(a.node, a.ifIndex) < std::tie(b.node, b.ifIndex); });
    }
    return merged;
}

void
HpccQlenMonitor::Write(std::ostream& out, const Dump& dump)
{
    out << "time: " << dump.timeNs << '\n';
    for (const Line& line : dump.lines)
    {
        out << line.text << '\n';
    }
}

void
HpccQlenMonitor::Write(const std::string& path, const std::vector<Dump>& dumps)
{
    std::ofstream out(path);
    for (const Dump& dump : dumps)
    {
        Write(out, dump);
    }
    if (!out)
    {
        throw InputError(path + ": cannot write the queue-length output");
    }
}

} // namespace ns3
