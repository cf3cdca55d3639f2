/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_DISTRIBUTED_RUN_H
#define MLFABRIC_DISTRIBUTED_RUN_H

#include "ns3/fabric.h"
#include "ns3/nstime.h"
#include "ns3/process-group.h"
#include "ns3/queue-monitor.h"
#include "ns3/roce-network.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Refuse what a run across processes cannot do: link failures and invariant checks
 * (both read or change the whole network at once).
 * \param failures the --fail values
 * \param invariantPeriod the --check-invariants period; 0: off
 * \param processes the run's processes
 * \throws InputError naming the option
 */
void RefuseWholeNetworkOptions(const std::vector<std::string>& failures,
                               Time invariantPeriod,
                               const ProcessGroup& processes);

/**
 * \ingroup mlfabric-helper
 * Give each process its part of \p fabric, automatic or from a partition file, and tell
 * \p net before it is built.
 * \param fabric the fabric
 * \param partitionPath the --partition file; empty: automatic (PartitionFabric)
 * \param processes the run's processes
 * \param net the network, not yet installed
 * \return the split and the engine, for the run header
 * \throws InputError for a bad partition file, naming --partition
 */
std::string SplitAcrossProcesses(const Fabric& fabric,
                                 const std::string& partitionPath,
                                 ProcessGroup& processes,
                                 RoceNetwork& net);

/**
 * \ingroup mlfabric-helper
 * What each process of a run measured of itself.
 */
struct ProcessFigures
{
    std::vector<uint64_t> events; //!< events, by process
    std::vector<double> seconds;  //!< wall time of the simulation, s, by process
};

/**
 * \ingroup mlfabric-helper
 * The busiest switch queue over every process's switches, as one process finds it.
 */
struct BusiestQueue
{
    QueueMonitor::PortQueue queue; //!< its figures
    Time until;                    //!< the end of their span
};

/**
 * \ingroup mlfabric-helper
 * Read every process's queues over [0, \p until], or to the last queue change on any
 * process if that is later (a queue's mean runs at least to its last change), and pick
 * the busiest (QueueMonitor::FindBottleneck).
 * \param processes the processes of the run
 * \param queues this process's queue monitor
 * \param until the end of the span wanted
 * \return the busiest queue and the span's end
 */
BusiestQueue GatherBusiestQueue(ProcessGroup& processes, const QueueMonitor& queues, Time until);

/**
 * \ingroup mlfabric-helper
 * \param processes the run's processes
 * \param events this process's events
 * \param seconds this process's wall time, s (kept to the ns below)
 * \return every process's, on every process
 */
ProcessFigures GatherProcessFigures(ProcessGroup& processes, uint64_t events, double seconds);

} // namespace ns3

#endif /* MLFABRIC_DISTRIBUTED_RUN_H */
