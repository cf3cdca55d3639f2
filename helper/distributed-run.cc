/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "distributed-run.h"

#include "ns3/fabric-partition.h"
#include "ns3/input-error.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

namespace ns3
{

void
RefuseWholeNetworkOptions(const std::vector<std::string>& failures,
                          Time invariantPeriod,
                          const ProcessGroup& processes)
{
    if (!failures.empty())
    {
        throw InputError("--fail: link failures run in one process, not across " +
                         std::to_string(processes.GetSize()));
    }
    if (invariantPeriod.IsStrictlyPositive())
    {
        throw InputError("--check-invariants: the checks read the whole network, and each of " +
                         std::to_string(processes.GetSize()) + " processes holds its part");
    }
}

std::string
SplitAcrossProcesses(const Fabric& fabric,
                     const std::string& partitionPath,
                     ProcessGroup& processes,
                     RoceNetwork& net)
{
    FabricPartition split;
    try
    {
        split = partitionPath.empty()
                    ? PartitionFabric(fabric, processes.GetSize())
                    : ReadFabricPartition(partitionPath, fabric, processes.GetSize());
    }
    catch (const InputError& e)
    {
        throw InputError("--partition: " + std::string(e.what()));
    }
    net.SetPartition(split, processes.GetProcess(), processes.GetRemoteChannelType());
    return DescribeFabricPartition(fabric, split) + ", engine " + processes.GetEngine();
}

BusiestQueue
GatherBusiestQueue(ProcessGroup& processes, const QueueMonitor& queues, Time until)
{
    std::vector<int64_t> lastChange{queues.LastChange().GetTimeStep()};
    processes.MaxOver(lastChange);
    BusiestQueue busiest;
    busiest.until = Max(until, TimeStep(lastChange[0]));
    std::ostringstream text;
    for (const QueueMonitor::PortQueue& q : queues.GetPorts(busiest.until))
    {
        // Hexadecimal keeps the mean exact.
        char mean[64];
        std::snprintf(mean, sizeof(mean), "%a", q.meanBytes);
        text << q.node << ' ' << q.port << ' ' << q.peakBytes << ' ' << mean << '\n';
    }
    std::map<std::pair<uint32_t, uint32_t>, QueueMonitor::PortQueue> all;
    for (const std::string& part : processes.Gather(text.str()))
    {
        std::istringstream in(part);
        QueueMonitor::PortQueue q;
        std::string mean;
        while (in >> q.node >> q.port >> q.peakBytes >> mean)
        {
            q.meanBytes = std::strtod(mean.c_str(), nullptr);
            all[{q.node, q.port}] = q;
        }
    }
    std::vector<QueueMonitor::PortQueue> ports;
    for (const auto& entry : all)
    {
        ports.push_back(entry.second);
    }
    busiest.queue = QueueMonitor::FindBottleneck(ports);
    return busiest;
}

ProcessFigures
GatherProcessFigures(ProcessGroup& processes, uint64_t events, double seconds)
{
    // Each process fills its own slot; the others leave zeros to the sum.
    const uint32_t size = processes.GetSize();
    std::vector<uint64_t> values(2 * size, 0);
    values[processes.GetProcess()] = events;
    values[size + processes.GetProcess()] = static_cast<uint64_t>(seconds * 1e9);
    processes.SumOver(values);
    ProcessFigures figures;
    figures.events.assign(values.begin(), values.begin() + size);
    for (uint32_t q = 0; q < size; ++q)
    {
        figures.seconds.push_back(static_cast<double>(values[size + q]) / 1e9);
    }
    return figures;
}

} // namespace ns3
