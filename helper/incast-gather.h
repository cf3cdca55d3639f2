/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_INCAST_GATHER_H
#define MLFABRIC_INCAST_GATHER_H

#include "ns3/incast-scenario.h"
#include "ns3/process-group.h"
#include "ns3/queue-monitor.h"
#include "ns3/roce-network.h"

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Bring together what the processes of a distributed incast measured, after the run.
 *
 * Each process has filled \p result from its own nodes only. Afterwards every process
 * holds the figures of the whole run, reduced as one process would have found them:
 * counters added up, completions and peaks the latest or largest, the busiest switch or
 * relay chosen in node order with the same ties, the ports with PFC activity in node
 * order, and the bottleneck queue read over [0, last completion]. That last is exact when
 * no queue changed after the last completion; otherwise queueCaveat says so.
 * \param result this process's figures; on return, the run's
 * \param processes the processes
 * \param queues the switch queues of this process
 * \param net the network
 */
void GatherIncastResult(IncastResult& result,
                        ProcessGroup& processes,
                        const QueueMonitor& queues,
                        const RoceNetwork& net);

} // namespace ns3

#endif /* MLFABRIC_INCAST_GATHER_H */
