/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HOP_SEARCH_H
#define MLFABRIC_HOP_SEARCH_H

#include "ns3/fabric.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * Breadth-first hop counts from every node to one target node.
 *
 * A path counts only if each of its inner nodes may carry transit traffic. The arrays
 * are kept between searches and reset only where a search reached, so many searches
 * over small parts of a large fabric stay cheap.
 */
class HopSearch
{
  public:
    /** Hops of a node the search did not reach. */
    static constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();

    /** \param fabric the fabric, which must outlive the search */
    explicit HopSearch(const Fabric& fabric);

    /**
     * Search over every link; inner nodes are switches and forwarding NPUs.
     * \param target node the hops lead to
     */
    void Run(uint32_t target);

    /**
     * Search over the links of one dimension; inner nodes are switches only.
     * \param target node the hops lead to
     * \param dimension dimension index of the usable links
     */
    void RunWithinDimension(uint32_t target, int32_t dimension);

    /** \param node node id \return hops from it to the target, or kUnreached */
    uint32_t
    GetHops(uint32_t node) const
    {
        return m_hops[node];
    }

    /** \return the nodes the last search reached, nearest first */
    const std::vector<uint32_t>& GetReached() const;

    /**
     * \param node a reached node other than the target
     * \return its ports that start a shortest path of the last search, ascending
     */
    std::vector<uint32_t> GetNextPorts(uint32_t node) const;

  private:
    /** The search; \p dimension -1 means every link. */
    void Search(uint32_t target, int32_t dimension, bool switchesOnly);
    /** \return true if the last search may pass through \p node */
    bool IsInner(uint32_t node) const;

    const Fabric& m_fabric;          //!< the fabric
    std::vector<uint32_t> m_hops;    //!< node -> hops to target
    std::vector<uint32_t> m_reached; //!< nodes with a finite count
    uint32_t m_target{0};            //!< target of the last search
    int32_t m_dimension{-1};         //!< link filter of the last search
    bool m_switchesOnly{false};      //!< inner-node rule of the last search
};

} // namespace ns3

#endif /* MLFABRIC_HOP_SEARCH_H */
