/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_GROUP_TEXT_H
#define MLFABRIC_REPLAY_GROUP_TEXT_H

#include "ns3/collective-planner.h"
#include "ns3/comm-group-table.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * How the collectives of each communicator group run, for the run header.
 *
 * One line per group shape (groups whose lines would read the same are listed together):
 * the fabric dimensions the group spans, the algorithm each configured native collective
 * runs (as DescribeCollectiveAlgorithm gives it), and every note of the planner saying
 * where and why an algorithm other than the configured one runs. A last line, "world: ...",
 * gives the nccl choice of the world's collectives per size class.
 * \param planner the run's planner
 * \param groups the run's communicator groups
 * \return the lines, in group order
 */
std::vector<std::string> DescribeGroupCollectives(const CollectivePlanner& planner,
                                                  const CommGroupTable& groups);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_GROUP_TEXT_H */
