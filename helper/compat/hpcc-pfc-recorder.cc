/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-pfc-recorder.h"

#include "ns3/callback.h"
#include "ns3/hpcc-output-format.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <fstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccPfcRecorder");

HpccPfcRecorder::HpccPfcRecorder(const RoceNetwork& net)
{
    const uint32_t nodes = static_cast<uint32_t>(net.GetHosts().size() + net.GetSwitches().size());
    for (uint32_t n = 0; n < nodes; ++n)
    {
        uint32_t index = 0;
        for (const Ptr<RocePort>& port : net.GetPorts(n))
        {
            const auto id = static_cast<uint32_t>(m_ports.size());
            m_ports.push_back(Port{port, n, !net.IsHost(n), index++, {}});
            port->TraceConnectWithoutContext("PfcPause",
                                             MakeCallback(&HpccPfcRecorder::PauseEnded, this, id));
        }
    }
}

void
HpccPfcRecorder::PauseEnded(uint32_t id, uint8_t priority, Time duration)
{
    Port& p = m_ports[id];
    p.closed[priority] += duration;
    const Time now = Simulator::Now();
    m_events.push_back(Event{now - duration, p.node, p.isSwitch, p.index + 1, true});
    m_events.push_back(Event{now, p.node, p.isSwitch, p.index + 1, false});
}

std::vector<HpccPfcRecorder::Event>
HpccPfcRecorder::GetEvents() const
{
    std::vector<Event> events = m_events;
    const Time now = Simulator::Now();
    for (const Port& p : m_ports)
    {
        const auto counters = p.port->GetCounters();
        for (uint8_t prio = 0; prio < kNumPriorities; ++prio)
        {
            if (p.port->IsPaused(prio))
            {
                // The counter includes the pause in progress; what it adds is its age.
                const Time age = counters.pausedTime[prio] - p.closed[prio];
                events.push_back(Event{now - age, p.node, p.isSwitch, p.index + 1, true});
            }
        }
    }
    std::stable_sort(events.begin(),
                     events.end(),
                     [](const Event& a, const Event& b) { return a.time < b.time; });
    return events;
}

uint64_t
HpccPfcRecorder::GetPauses() const
{
    uint64_t pauses = 0;
    for (const Event& e : GetEvents())
    {
        pauses += e.pause ? 1 : 0;
    }
    return pauses;
}

void
HpccPfcRecorder::Write(const std::string& path) const
{
    std::ofstream out(path);
    for (const Event& e : GetEvents())
    {
        out << FormatPfcLine(static_cast<uint64_t>(e.time.GetNanoSeconds()),
                             e.node,
                             e.isSwitch,
                             e.ifIndex,
                             e.pause)
            << '\n';
    }
    if (!out)
    {
        throw InputError(path + ": cannot write the PFC output");
    }
}

} // namespace ns3
