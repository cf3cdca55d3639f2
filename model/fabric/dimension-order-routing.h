/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_DIMENSION_ORDER_ROUTING_H
#define MLFABRIC_DIMENSION_ORDER_ROUTING_H

#include "ns3/fabric.h"
#include "ns3/routing-table.h"

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * Dimension-order routing on a multi-dimensional fabric.
 *
 * A packet corrects its coordinates one dimension at a time, lowest first: from NPU v
 * toward NPU t it first travels, on links of the lowest dimension d where v and t
 * differ, to the NPU w that equals v except that coordinate d is t's; w does the same
 * for the next dimension. NPUs forward between dimensions whatever their forwarding flag.
 *
 * Inside a dimension: switch-based dimensions (Switch, Clos, rails, fat-tree) and
 * FullyConnected use all shortest paths through switches only; a Ring goes one way
 * round and never passes through the NPU of coordinate 0 (it may start or end there).
 * That ring rule keeps the channel dependency graph acyclic, at the cost of some
 * routes longer than the shortest (from n-1 to 1 the long way). Switches hold entries
 * only for destinations whose routes cross them.
 *
 * Throws InputError when the fabric has no dimensions, their sizes do not multiply to
 * the NPU count, a link has no dimension, or a switch would have to send the same
 * destination toward two different NPUs.
 *
 * \param fabric the fabric
 * \return the tables
 */
RoutingTable ComputeDimensionOrderRouting(const Fabric& fabric);

} // namespace ns3

#endif /* MLFABRIC_DIMENSION_ORDER_ROUTING_H */
