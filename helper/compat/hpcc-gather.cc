/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-gather.h"

#include <sstream>

namespace ns3
{

std::vector<HpccFlowDriver::Outcome>
GatherHpccOutcomes(const std::vector<HpccFlowDriver::Outcome>& mine, ProcessGroup& processes)
{
    // Five fields a flow, each set by one process and left at -1 (or 0) by the others,
    // so that the largest is the one measured.
    constexpr size_t kFields = 5;
    std::vector<int64_t> values(mine.size() * kFields, -1);
    for (size_t i = 0; i < mine.size(); ++i)
    {
        const HpccFlowDriver::Outcome& o = mine[i];
        int64_t* v = &values[i * kFields];
        if (o.started)
        {
            v[0] = o.sport;
            v[1] = 1;
        }
        if (o.completed)
        {
            v[2] = 1;
            v[3] = o.fct.GetTimeStep();
        }
        if (o.received.IsStrictlyPositive())
        {
            v[4] = o.received.GetTimeStep();
        }
    }
    processes.MaxOver(values);
    std::vector<HpccFlowDriver::Outcome> all(mine.size());
    for (size_t i = 0; i < all.size(); ++i)
    {
        const int64_t* v = &values[i * kFields];
        HpccFlowDriver::Outcome& o = all[i];
        o.sport = v[0] < 0 ? 0 : static_cast<uint16_t>(v[0]);
        o.started = v[1] > 0;
        o.completed = v[2] > 0;
        o.fct = o.completed ? TimeStep(v[3]) : Time(0);
        o.received = v[4] < 0 ? Time(0) : TimeStep(v[4]);
    }
    return all;
}

std::vector<HpccPfcRecorder::Event>
GatherHpccPfc(const std::vector<HpccPfcRecorder::Event>& mine, ProcessGroup& processes)
{
    std::ostringstream text;
    for (const auto& e : mine)
    {
        text << e.time.GetTimeStep() << ' ' << e.node << ' ' << e.isSwitch << ' ' << e.ifIndex
             << ' ' << e.pause << '\n';
    }
    std::vector<HpccPfcRecorder::Event> all;
    for (const std::string& part : processes.Gather(text.str()))
    {
        std::istringstream in(part);
        int64_t time = 0;
        HpccPfcRecorder::Event e;
        while (in >> time >> e.node >> e.isSwitch >> e.ifIndex >> e.pause)
        {
            e.time = TimeStep(time);
            all.push_back(e);
        }
    }
    HpccPfcRecorder::Sort(all);
    return all;
}

std::vector<HpccQlenMonitor::Dump>
GatherHpccQlen(const std::vector<HpccQlenMonitor::Dump>& mine, ProcessGroup& processes)
{
    // A block as "<time> <lines>", then "<node> <port> <line>" per line.
    std::ostringstream text;
    for (const auto& dump : mine)
    {
        text << dump.timeNs << ' ' << dump.lines.size() << '\n';
        for (const auto& line : dump.lines)
        {
            text << line.node << ' ' << line.ifIndex << ' ' << line.text << '\n';
        }
    }
    std::vector<std::vector<HpccQlenMonitor::Dump>> parts;
    for (const std::string& part : processes.Gather(text.str()))
    {
        std::istringstream in(part);
        std::vector<HpccQlenMonitor::Dump> dumps;
        HpccQlenMonitor::Dump dump;
        size_t lines = 0;
        while (in >> dump.timeNs >> lines)
        {
            dump.lines.assign(lines, {});
            for (auto& line : dump.lines)
            {
                in >> line.node >> line.ifIndex;
                in.get();
                std::getline(in, line.text);
            }
            dumps.push_back(dump);
        }
        parts.push_back(std::move(dumps));
    }
    return HpccQlenMonitor::Merge(parts);
}

} // namespace ns3
