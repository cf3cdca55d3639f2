/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_GATHER_H
#define MLFABRIC_REPLAY_GATHER_H

#include "ns3/link-utilization.h"
#include "ns3/process-group.h"
#include "ns3/queue-monitor.h"
#include "ns3/replay-engine.h"
#include "ns3/replay-result.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Bring together the figures of a replay run across processes: each process measured its
 * own ranks, the messages that arrived at them and its part of the network; afterwards
 * every process holds the whole run's figures, as one process measures them.
 *
 * Ranks come from the process that ran them, and each collective's figures from every
 * process that ran one of its members, matched by (group, sequence); collectives and
 * sends are then in issue order, those issued at the same picosecond on several processes
 * in process order. A send's arrival is the receiver's: on one queue pair messages
 * arrive in the order they were sent. Network counters add up, peaks take the largest;
 * the mean queue of the busiest port runs to the network's last queue change, which is
 * later than one process's run when acknowledgements queue after the last rank
 * finished (the caveat says so in the warnings). Events and wall time stay this
 * process's (GatherProcessFigures).
 *
 * \param result this process's figures, replaced by the whole run's
 * \param engine the run's engine
 * \param processes the processes of the run
 * \param queues this process's queue monitor, or nullptr
 * \return a line for each collective some but not all of its ranks issued, over every
 *         process (what one process's ReplayCollectiveMatcher::DescribeIncomplete says)
 */
std::vector<std::string> GatherReplayResult(ReplayResult& result,
                                            const ReplayEngine& engine,
                                            ProcessGroup& processes,
                                            const QueueMonitor* queues);

/**
 * \ingroup mlfabric-helper
 * Take each link direction's utilization from the process that transmits on it: every
 * process samples every direction at the same times, and only the transmitter's
 * process sees its bytes.
 * \param links this process's figures of every direction, in the sampler's order (the
 *        same on every process); replaced by the run's
 * \param processes the processes of the run
 */
void GatherLinkUtilization(std::vector<LinkUtilization>& links, ProcessGroup& processes);

/**
 * \ingroup mlfabric-helper
 * \param processes the processes of the run
 * \param lines this process's lines
 * \return every process's lines, in process order
 */
std::vector<std::string> GatherLines(ProcessGroup& processes,
                                     const std::vector<std::string>& lines);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_GATHER_H */
