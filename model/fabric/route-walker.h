/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ROUTE_WALKER_H
#define MLFABRIC_ROUTE_WALKER_H

#include "ns3/fabric.h"
#include "ns3/routing-table.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * Follows a fabric's routing tables hop by hop from one NPU to another, as the frames of
 * the packet level do, for the models that need a route without simulating it (the flow
 * and analytical backends). Which of several equal-cost ports a node takes is the
 * caller's choice.
 *
 * A route is a list of directed links: 2 x link id, + 1 when the link is crossed from its
 * nodeB to its nodeA.
 */
class RouteWalker
{
  public:
    /**
     * The port a node takes.
     * \param node the node the frame is at
     * \param ports its equal-cost ports toward the destination (never empty)
     * \return one of \p ports
     */
    using PortChoice = std::function<uint32_t(uint32_t node, const PortSet& ports)>;

    /**
     * \param fabric the fabric; must outlive this object
     * \param routes its tables; must outlive this object.
     * Throws InputError naming the fabric if the tables are for another fabric.
     */
    RouteWalker(const Fabric& fabric, const RoutingTable& routes);

    /**
     * \param fromRank the NPU the route starts at
     * \param toRank the NPU it ends at
     * \param choose the port taken where there are several
     * \return the directed links crossed, in order (empty if the ranks are equal).
     *         Throws InputError naming the fabric and the node where the route ends or
     *         loops.
     */
    std::vector<uint32_t> Walk(uint32_t fromRank, uint32_t toRank, const PortChoice& choose) const;

    /** \param directed a directed link \return the fabric link it is a direction of */
    static uint32_t
    LinkOf(uint32_t directed)
    {
        return directed / 2;
    }

  private:
    const Fabric& m_fabric;       //!< the fabric
    const RoutingTable& m_routes; //!< its tables
};

} // namespace ns3

#endif /* MLFABRIC_ROUTE_WALKER_H */
