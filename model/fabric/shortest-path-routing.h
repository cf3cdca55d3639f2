/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_SHORTEST_PATH_ROUTING_H
#define MLFABRIC_SHORTEST_PATH_ROUTING_H

#include "ns3/fabric.h"
#include "ns3/routing-table.h"

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * Every shortest path, as complete ECMP sets.
 *
 * A node's set toward an NPU holds each port whose peer is one hop nearer along paths
 * whose inner nodes forward (switches, and NPUs whose forwarding flag is set). One
 * breadth-first search per destination. Throws InputError naming a pair of NPUs that
 * cannot reach each other, unless \p allowUnreachable: then such pairs get no route, as
 * in the HPCC simulator, whose runs fail only when a flow needs one.
 *
 * \param fabric the fabric
 * \param allowUnreachable leave pairs that cannot reach each other without a route
 * \return the tables
 */
RoutingTable ComputeShortestPathRouting(const Fabric& fabric, bool allowUnreachable = false);

} // namespace ns3

#endif /* MLFABRIC_SHORTEST_PATH_ROUTING_H */
