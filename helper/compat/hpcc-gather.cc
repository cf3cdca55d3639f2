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
    // Every process starts every flow, so each knows its port. The source's process sets
    // the FCT and the destination's the receive time; the others leave -1 to the largest.
    constexpr size_t kFields = 2;
    std::vector<int64_t> values(mine.size() * kFields, -1);
    for (size_t i = 0; i < mine.size(); ++i)
    {
        if (mine[i].completed)
        {
            values[i * kFields] = mine[i].fct.GetTimeStep();
        }
        if (mine[i].received.IsStrictlyPositive())
        {
            values[i * kFields + 1] = mine[i].received.GetTimeStep();
        }
    }
    processes.MaxOver(values);
    std::vector<HpccFlowDriver::Outcome> all = mine;
    for (size_t i = 0; i < all.size(); ++i)
    {
        const int64_t fct = values[i * kFields];
        const int64_t received = values[i * kFields + 1];
        all[i].completed = fct >= 0;
        all[i].fct = fct >= 0 ? TimeStep(fct) : Time(0);
        all[i].received = received >= 0 ? TimeStep(received) : Time(0);
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
