/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_PLAN_TEXT_H
#define MLFABRIC_REPLAY_PLAN_TEXT_H

#include "ns3/collective-plan.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * The algorithm of a planned collective, for reports.
 *
 * One phase gives its algorithm ("ring", "direct", "halvingDoubling",
 * "doubleBinaryTree", "oneRing", ...; "chain" for broadcast and reduce, "direct" for
 * gather and scatter, "dissemination" for a barrier). Several phases give each as
 * op:algorithm\@dimension, in order, e.g. "RS:ring@0 AR:direct@1 AG:ring@0"; a
 * communicator group on a sub-grid of the fabric names the dimension of its one phase
 * too ("ring@0"). A plan with nothing to exchange gives "none".
 * \param plan the plan
 * \return the text
 */
std::string DescribeCollectiveAlgorithm(const CollectivePlan& plan);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_PLAN_TEXT_H */
