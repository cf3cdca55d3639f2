/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REDUCTION_SWITCH_H
#define MLFABRIC_REDUCTION_SWITCH_H

#include "ns3/fabric.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * The switch an in-switch reduction over \p members runs on: the one switch linked to
 * every member or, where several are (a server's scale-up switch and its leaf), the one
 * their traffic crosses: the first hop from the first member to the second.
 * \param fabric the fabric
 * \param members the ranks of the reduction, two or more for the tie-break
 * \param firstDirectedLink the first directed link of the route from one rank to another
 *        (a RouteWalker id: link × 2, + 1 from its node B to its node A)
 * \return the switch's node id
 * Throws InputError naming the fabric and the ranks when no switch is linked to all.
 */
uint32_t ReductionSwitchOf(const Fabric& fabric,
                           const std::vector<uint32_t>& members,
                           const std::function<uint32_t(uint32_t, uint32_t)>& firstDirectedLink);

} // namespace ns3

#endif // MLFABRIC_REDUCTION_SWITCH_H
