/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FAILURE_ROUTING_H
#define MLFABRIC_FAILURE_ROUTING_H

#include "ns3/fabric.h"
#include "ns3/routing-table.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * Every shortest path that avoids the failed links, as complete ECMP sets.
 *
 * The rule of ComputeShortestPathRouting (inner nodes are switches and forwarding NPUs)
 * over the fabric without the links marked down. Pairs that the failures disconnect get
 * no route; nothing is thrown, since a failure may cut a part of the fabric off.
 *
 * \param fabric the fabric
 * \param linkDown one flag per fabric link: true leaves it out
 * \return the tables
 */
RoutingTable ComputeRoutingAvoiding(const Fabric& fabric, const std::vector<bool>& linkDown);

} // namespace ns3

#endif /* MLFABRIC_FAILURE_ROUTING_H */
