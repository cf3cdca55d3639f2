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
#include <tuple>

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
HpccPfcRecorder::GetEvents(Time until) const
{
    std::vector<Event> events;
    // m_events holds each ended pause as its start followed by its end.
    for (size_t i = 0; i + 1 < m_events.size(); i += 2)
    {
        if (m_events[i].time < until)
        {
            events.push_back(m_events[i]);
            if (m_events[i + 1].time <= until)
            {
                events.push_back(m_events[i + 1]);
            }
        }
    }
    const Time now = Simulator::Now();
    for (const Port& p : m_ports)
    {
        const auto counters = p.port->GetCounters();
        for (uint8_t prio = 0; prio < kNumPriorities; ++prio)
        {
            if (p.port->IsPaused(prio))
            {
                // The counter includes the pause in progress; what it adds is its age.
                const Time start = now - (counters.pausedTime[prio] - p.closed[prio]);
                if (start < until)
                {
                    events.push_back(Event{start, p.node, p.isSwitch, p.index + 1, true});
                }
            }
        }
    }
    Sort(events);
    return events;
}

void
HpccPfcRecorder::Sort(std::vector<Event>& events)
{
    auto key = [](const Event& e)
    {
        return std::make_tuple(e.time, e.node, e.ifIndex, e.pause);
    };
    std::stable_sort(events.begin(),
                     events.end(),
                     [&key](const Event& a, const Event& b) { return key(a) < key(b); });
}

uint64_t
HpccPfcRecorder::CountPauses(const std::vector<Event>& events)
{
    return std::count_if(events.begin(), events.end(), [](const Event& e) { return e.pause; });
}

void
HpccPfcRecorder::Write(const std::string& path, const std::vector<Event>& events)
{
    std::ofstream out(path);
    for (const Event& e : events)
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
