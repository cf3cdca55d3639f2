/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-routing.h"

#include "ns3/dimension-order-routing.h"
#include "ns3/log.h"
#include "ns3/shortest-path-routing.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricRouting");

RoutingTable
ComputeRouting(const Fabric& fabric, RoutingAlgorithm algorithm)
{
    NS_LOG_FUNCTION(fabric.GetName() << GetRoutingAlgorithmName(algorithm));
    return algorithm == RoutingAlgorithm::ShortestPath ? ComputeShortestPathRouting(fabric)
                                                       : ComputeDimensionOrderRouting(fabric);
}

} // namespace ns3
