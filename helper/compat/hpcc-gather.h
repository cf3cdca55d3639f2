/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_GATHER_H
#define MLFABRIC_HPCC_GATHER_H

#include "ns3/hpcc-flow-driver.h"
#include "ns3/hpcc-pfc-recorder.h"
#include "ns3/hpcc-qlen-monitor.h"
#include "ns3/process-group.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Join the flows' outcomes of a run across processes: every process starts every flow
 * (its port), a flow's source process knows its completion and FCT, its destination's
 * process when its last byte arrived.
 * \param mine this process's HpccFlowDriver::GetOutcomes()
 * \param processes the processes
 * \return every flow's outcome, on every process
 */
std::vector<HpccFlowDriver::Outcome> GatherHpccOutcomes(
    const std::vector<HpccFlowDriver::Outcome>& mine, ProcessGroup& processes);

/**
 * \ingroup mlfabric-helper
 * Join the pfc.txt lines that processes recorded of their own ports.
 * \param mine this process's lines
 * \param processes the processes
 * \return every line, in HpccPfcRecorder's order, on every process
 */
std::vector<HpccPfcRecorder::Event> GatherHpccPfc(const std::vector<HpccPfcRecorder::Event>& mine,
                                                  ProcessGroup& processes);

/**
 * \ingroup mlfabric-helper
 * Join the qlen.txt blocks that processes kept of their own switches.
 * \param mine this process's HpccQlenMonitor::GetDumps()
 * \param processes the processes
 * \return the blocks of every switch, on every process
 */
std::vector<HpccQlenMonitor::Dump> GatherHpccQlen(const std::vector<HpccQlenMonitor::Dump>& mine,
                                                  ProcessGroup& processes);

} // namespace ns3

#endif /* MLFABRIC_HPCC_GATHER_H */
