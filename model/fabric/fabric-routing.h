/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FABRIC_ROUTING_H
#define MLFABRIC_FABRIC_ROUTING_H

#include "ns3/fabric.h"
#include "ns3/routing-table.h"

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * Compute a fabric's routing tables with the chosen algorithm
 * (ComputeShortestPathRouting or ComputeDimensionOrderRouting).
 * \param fabric the fabric
 * \param algorithm how routes are chosen
 * \return the tables
 */
RoutingTable ComputeRouting(const Fabric& fabric, RoutingAlgorithm algorithm);

} // namespace ns3

#endif /* MLFABRIC_FABRIC_ROUTING_H */
