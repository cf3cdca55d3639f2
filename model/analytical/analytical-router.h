/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ANALYTICAL_ROUTER_H
#define MLFABRIC_ANALYTICAL_ROUTER_H

#include "ns3/analytical-topology.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-analytical
 * Paths through an AnalyticalTopology, as ASTRA-sim's analytical network routes them.
 *
 * Devices are the NPUs (ids 0..N-1) and one switch per line of every Switch dimension
 * (ids from N on, numbered as first used). Within a dimension a Ring goes the shorter
 * way (clockwise on a tie, or always clockwise if not bidirectional), FullyConnected
 * goes straight and Switch goes through the line's switch. A path between NPUs that
 * differ in several dimensions corrects the lowest dimension first.
 */
class AnalyticalRouter
{
  public:
    /** One link traversal. */
    struct Hop
    {
        uint32_t from{0};      //!< device it leaves
        uint32_t to{0};        //!< device it reaches
        uint32_t dimension{0}; //!< dimension whose link it uses
    };

    /**
     * \param topology the network
     * \param bidirectionalRing whether ring links are used in both directions
     */
    AnalyticalRouter(const AnalyticalTopology& topology, bool bidirectionalRing);

    /**
     * \param src an NPU
     * \param dst an NPU
     * \return the hops from src to dst (empty if equal)
     */
    std::vector<Hop> Route(uint32_t src, uint32_t dst);

    /**
     * \param dimension a dimension
     * \param from a coordinate along it
     * \param to another coordinate
     * \return links crossed between them within that dimension
     */
    uint32_t HopCount(uint32_t dimension, uint32_t from, uint32_t to) const;

  private:
    /** \return the switch device of the line of \p npu along \p dimension */
    uint32_t SwitchOf(uint32_t npu, uint32_t dimension);

    AnalyticalTopology m_topology;                     //!< the network
    bool m_bidirectionalRing;                          //!< ring direction choice
    std::unordered_map<uint64_t, uint32_t> m_switches; //!< (dimension, line) -> device
};

} // namespace ns3

#endif /* MLFABRIC_ANALYTICAL_ROUTER_H */
