/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_JOB_COLLECT_H
#define MLFABRIC_REPLAY_JOB_COLLECT_H

#include "ns3/replay-job.h"
#include "ns3/replay-result.h"

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * What a job's engine measured: per rank, per collective, its notes and groups.
 * \param job the job, after the simulation
 * \return its figures
 */
ReplayJobResult CollectReplayJob(const ReplayJob& job);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_JOB_COLLECT_H */
