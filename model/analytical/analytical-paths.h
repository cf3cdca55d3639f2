/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ANALYTICAL_PATHS_H
#define MLFABRIC_ANALYTICAL_PATHS_H

#include "ns3/fabric.h"
#include "ns3/mixed-radix.h"
#include "ns3/route-walker.h"
#include "ns3/routing-table.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-analytical
 * How a path is picked where the routing table offers several ports (ECMP).
 */
enum class EcmpChoice : uint8_t
{
    /**
     * The packet level's choice: FlowHash over the source and destination nodes and
     * the flow's queue-pair numbers, salted with 0 at the source NIC and with the node
     * id at every switch or forwarding NPU (RdmaNic, RoceSwitch).
     */
    FlowHash,
    /**
     * ASTRA-sim's route: the port of the lowest dimension, and in a ring the neighbour
     * one coordinate up (clockwise) when both ways are equally short.
     */
    LowestDimension,
};

/** \param choice an ECMP choice \return "flow hash" or "lowest dimension" */
std::string GetEcmpChoiceName(EcmpChoice choice);

/**
 * \ingroup mlfabric-analytical
 * The links a message crosses: the routed path of a Fabric's RoutingTable, from the
 * source NPU's node to the destination's, one port per node.
 *
 * A fabric with ASTRA-sim's dimension structure (HasAnalyticalDimensions) is walked by
 * EcmpChoice::LowestDimension: with shortest-path tables this is exactly ASTRA-sim's
 * route (lowest dimension first, a ring the shorter way, clockwise on ties), so its
 * reference results hold. Every other fabric (Clos, fat tree, rail, HPCC topologies) is
 * walked by EcmpChoice::FlowHash, so that a flow takes the path it takes at packet
 * level when its queue-pair numbers are the same there.
 *
 * A link is used in two directions; a directed link is 2 x link id, + 1 when it is
 * crossed from its nodeB to its nodeA.
 */
class AnalyticalPaths
{
  public:
    /**
     * \param fabric the fabric; must outlive this object
     * \param routes its tables; must outlive this object
     * Throws InputError naming the fabric if the tables are for another fabric.
     */
    AnalyticalPaths(const Fabric& fabric, const RoutingTable& routes);

    /** \return how ECMP ties are broken on this fabric */
    EcmpChoice
    GetEcmpChoice() const
    {
        return m_choice;
    }

    /**
     * \param srcRank source NPU
     * \param dstRank destination NPU
     * \param srcQp the flow's queue pair at the source (FlowHash only)
     * \param dstQp the flow's queue pair at the destination (FlowHash only)
     * \return the directed links crossed, in order (empty if the ranks are equal).
     *         Throws InputError naming the fabric and node where the route ends.
     */
    std::vector<uint32_t> Walk(uint32_t srcRank,
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
    /** \return the port of \p node to take toward \p dstRank among \p ports */
    uint32_t ChooseLowestDimension(uint32_t node, const PortSet& ports) const;

    const Fabric& m_fabric;              //!< the fabric
    RouteWalker m_walker;                //!< follows its tables
    EcmpChoice m_choice;                 //!< how ties are broken
    std::unique_ptr<MixedRadix> m_radix; //!< NPU coordinates (LowestDimension only)
};

} // namespace ns3

#endif /* MLFABRIC_ANALYTICAL_PATHS_H */
