/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_TIMELINE_H
#define MLFABRIC_REPLAY_TIMELINE_H

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
 * named by kind. Times are microseconds with picosecond decimals.
 * \param out where the JSON goes
 * \param jobs the run's jobs (names, NPUs, traces)
 * \param spans what ran
 * \param paths each job's critical path, or none
 */
void WriteReplayTimeline(std::ostream& out,
                         const std::vector<ReplayJob>& jobs,
                         const std::vector<ReplaySpan>& spans,
                         const std::vector<CriticalPath>& paths);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_TIMELINE_H */
