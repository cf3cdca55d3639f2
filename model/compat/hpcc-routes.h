/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_ROUTES_H
#define MLFABRIC_HPCC_ROUTES_H

#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Fabric;

/**
 * \ingroup mlfabric-compat
 * Unloaded figures of the route from one host to a node.
 */
struct HpccRoute
{
    bool reachable{false};      //!< a route exists
    uint32_t links{0};          //!< links on the route (0 for the source itself)
    int64_t delayPs{0};         //!< one-way propagation delay, ps
    int64_t serializationPs{0}; //!< the given bytes serialized once per link, ps
    uint64_t bottleneckBps{0};  //!< the slowest link's rate, bit/s

    /** \return twice the delay plus the serialization */
    Time RoundTrip() const;
};

/**
 * \ingroup mlfabric-compat
 * The routes between hosts as the HPCC simulator measures them for its base RTT,
 * bandwidth and BDP per host pair.
 *
 * A route is the first shortest path a breadth-first search from the source finds,
 * through switches only (hosts are never transit), neighbours taken in port order;
 * the equal-cost paths of a regular fabric all have the same figures.
 */
class HpccRoutes
{
  public:
    /** \param fabric the topology; it must outlive this object */
    explicit HpccRoutes(const Fabric& fabric);

    /**
     * \param src a host
     * \param bytesPerLink bytes whose serialization, once per link, the round trip
     *        includes (each link's term rounded down to the picosecond)
     * \return the route from \p src to every node, by node id
     */
    std::vector<HpccRoute> From(uint32_t src, uint32_t bytesPerLink) const;

    /**
     * \param rtt a round-trip time
     * \param rateBps a rate
     * \return the bytes sent at \p rateBps during \p rtt (rounded down)
     */
    static uint64_t Bdp(Time rtt, uint64_t rateBps);

  private:
    const Fabric& m_fabric;
};

} // namespace ns3

#endif /* MLFABRIC_HPCC_ROUTES_H */
