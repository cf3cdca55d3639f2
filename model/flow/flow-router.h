/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FLOW_ROUTER_H
#define MLFABRIC_FLOW_ROUTER_H

#include "ns3/fabric.h"
#include "ns3/route-walker.h"
#include "ns3/routing-table.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-flow
 * The directed links a queue pair's packets and its ACKs cross, chosen as the packet
 * level chooses them from the fabric's routing tables.
 *
 * Data: the source NIC picks among its ECMP ports by FlowHash(source node, destination
 * node, QP, peer QP) unsalted (RdmaNic::Connect); every switch and forwarding NPU by the
 * same hash salted with its node id (RoceSwitch, RdmaNic::Forward). ACKs: the receiving
 * NIC picks its port by the data's source QP number (RdmaNic::SendControl), the nodes
 * after it by the ACK's own hash, whose endpoints and QPs are the data's swapped.
 * A directed link is 2 x link id, + 1 when crossed from its nodeB to its nodeA.
 */
class FlowRouter
{
  public:
    /**
     * \param fabric the fabric; must outlive this object
     * \param routes its tables; must outlive this object.
     * Throws InputError naming the fabric if the tables are for another fabric.
     */
    FlowRouter(const Fabric& fabric, const RoutingTable& routes);

    /**
     * \param srcRank sending NPU \param dstRank receiving NPU
     * \param srcQp the queue pair's number at the sender
     * \param dstQp its number at the receiver
     * \return the directed links of the data, in order. Throws InputError naming the
     *         fabric and the node where the route ends or loops.
     */
    std::vector<uint32_t> DataPath(uint32_t srcRank,
                                   uint32_t dstRank,
                                   uint32_t srcQp,
                                   uint32_t dstQp) const;

    /**
     * \param srcRank sending NPU of the data \param dstRank receiving NPU of the data
     * \param srcQp the data's queue pair at the sender
     * \param dstQp its number at the receiver
     * \return the directed links the ACKs cross from dstRank back to srcRank
     */
    std::vector<uint32_t> AckPath(uint32_t srcRank,
                                  uint32_t dstRank,
                                  uint32_t srcQp,
                                  uint32_t dstQp) const;

    /** \param directed a directed link \return the fabric link it is a direction of */
    static uint32_t
    LinkOf(uint32_t directed)
    {
        return RouteWalker::LinkOf(directed);
    }

  private:
    /**
     * Walk from \p fromRank to \p toRank; the first hop by \p firstHash, then by
     * FlowHash(from node, to node, \p fromQp, \p toQp, node id).
     */
    std::vector<uint32_t> Walk(uint32_t fromRank,
                               uint32_t toRank,
                               uint32_t fromQp,
                               uint32_t toQp,
                               uint32_t firstHash) const;

    const Fabric& m_fabric; //!< the fabric
    RouteWalker m_walker;   //!< follows its tables
};

} // namespace ns3

#endif /* MLFABRIC_FLOW_ROUTER_H */
