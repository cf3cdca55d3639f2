/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_JOB_PLACEMENT_H
#define MLFABRIC_REPLAY_JOB_PLACEMENT_H

#include "ns3/replay-job-spec.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Put every job's ranks on fabric NPUs.
 *
 * Jobs that list their NPUs get them, in the order listed (rank r on the r-th); the
 * others, in the order given, take the lowest NPUs still free, which is a consecutive
 * block when no listed job is in the way. Throws InputError "job 'NAME': ..." for a
 * name used twice, an NPU out of the fabric, listed twice or held by another job, a
 * list whose length differs from the job's rank count, or too few free NPUs.
 * \param jobs the jobs
 * \param rankCounts ranks of each job's workload
 * \param npuCount NPUs of the fabric
 * \return the NPU of each rank of each job
 */
std::vector<std::vector<uint32_t>> PlaceReplayJobs(const std::vector<ReplayJobSpec>& jobs,
                                                   const std::vector<uint32_t>& rankCounts,
                                                   uint32_t npuCount);

/**
 * \ingroup mlfabric-helper
 * The dimensions a job's collectives are decomposed over.
 *
 * A job on a consecutive block of NPUs aligned with the fabric's dimensions keeps them
 * as far as it spans them: on a 4 x 4 fabric, NPUs 8-15 are 4 x 2 and NPUs 4-7 are 4.
 * A job on every NPU in order has the fabric's dimensions, as they are.
 * Any other placement is one dimension of all the job's ranks; the network still
 * carries each message over the fabric's real route.
 * \param fabricDimensions NPUs per fabric dimension, lowest first
 * \param npus the NPU of each rank of the job
 * \return NPUs per dimension, lowest first, multiplying to the job's rank count
 */
std::vector<uint32_t> ReplayJobDimensions(const std::vector<uint32_t>& fabricDimensions,
                                          const std::vector<uint32_t>& npus);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_JOB_PLACEMENT_H */
