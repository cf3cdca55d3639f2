/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_TIMELINE_H
#define MLFABRIC_REPLAY_TIMELINE_H

#include "ns3/link-utilization.h"
#include "ns3/replay-critical-path.h"
#include "ns3/replay-spans.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

struct ReplayJob;

/**
 * \ingroup mlfabric-helper
 * Write a run as a Chrome trace (the JSON object format with `traceEvents`, which
 * Perfetto's UI and chrome://tracing open): one process per job, and per rank one
 * track for each lane it used (compute, collective, send, receive, host, memory),
 * with a complete event ("ph": "X") per node, its name, lane as category and its
 * collective type, bytes, group, peer and parallelism kind as arguments. Nodes that
 * overlap on one lane (receives, unlimited slots) get further tracks of that lane.
 * A last process, "critical path", shows each job's path (FindCriticalPath) as events
 * named by kind. With \p links, a last process holds one counter track per link: its
 * utilization in percent per window of \p window from time 0 (LinkUtilizationSampler),
 * named by role ("nic3>leaf0 (nic>leaf)"). Times are microseconds with picosecond
 * decimals.
 * \param out where the JSON goes
 * \param jobs the run's jobs (names, NPUs, traces)
 * \param spans what ran
 * \param paths each job's critical path, or none
 * \param links links with their windows, for counter tracks, or none
 * \param window the links' window
 */
void WriteReplayTimeline(std::ostream& out,
                         const std::vector<ReplayJob>& jobs,
                         const std::vector<ReplaySpan>& spans,
                         const std::vector<CriticalPath>& paths,
                         const std::vector<LinkUtilization>& links = {},
                         Time window = Time(0));

} // namespace ns3

#endif /* MLFABRIC_REPLAY_TIMELINE_H */
