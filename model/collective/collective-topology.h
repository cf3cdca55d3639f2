/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_TOPOLOGY_H
#define MLFABRIC_COLLECTIVE_TOPOLOGY_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * The logical dimensions a collective runs over.
 *
 * Either a grid, where the ranks of one dimension are rank ids that differ by a fixed
 * stride (ASTRA-sim's multi-dimensional topology, dimension 0 varying fastest); a
 * sub-grid, where a communicator group uses some coordinates of each fabric dimension
 * (a group that is the Cartesian product of its coordinate sets); or one ring over an
 * explicit, sorted member list (a group that forms no sub-grid). Positions inside a
 * dimension are called indices; a phase of a collective works on indices and asks the
 * topology for the rank behind each.
 */
class CollectiveTopology
{
  public:
    /** One grid dimension. */
    struct Dimension
    {
        uint32_t size{1};   //!< ranks in the dimension
        uint32_t stride{1}; //!< rank-id distance between neighbouring fabric coordinates
        uint32_t span{0};   //!< coordinates of the fabric dimension; 0: size
        std::vector<uint32_t> coordinates; //!< sub-grid: the used coordinates, ascending
    };

    /**
     * A grid. Ranks whose ids differ beyond the listed dimensions form separate,
     * identical grids (ASTRA-sim's behaviour when fewer dimensions are listed than the
     * network has).
     * \param dimensions the dimensions, lowest (fastest varying) first
     * \param rankCount ranks in the run, a multiple of the grid's span
     * \return the topology
     */
    static CollectiveTopology Grid(std::vector<Dimension> dimensions, uint32_t rankCount);

    /**
     * One ring over explicit members.
     * \param sortedRanks the members, ascending
     * \return the topology
     */
    static CollectiveTopology MemberRing(std::vector<uint32_t> sortedRanks);

    /**
     * One ring over explicit members in a given order: position i is ringOrder[i].
     * \param ringOrder the members, each once, in the ring's order
     * \return the topology
     */
    static CollectiveTopology OrderedRing(const std::vector<uint32_t>& ringOrder);

    /**
     * A sub-grid: the members are every combination of the dimensions' coordinates.
     * \param dimensions one per fabric dimension, each with span, stride and the
     *        coordinates the members use (size = number of coordinates)
     * \param sortedRanks the members, ascending
     * \return the topology
     */
    static CollectiveTopology SubGrid(std::vector<Dimension> dimensions,
                                      std::vector<uint32_t> sortedRanks);

    /** \return the number of dimensions */
    uint32_t
    GetDimensionCount() const
    {
        return static_cast<uint32_t>(m_dimensions.size());
    }

    /** \param dim a dimension \return its number of ranks */
    uint32_t
    GetSize(uint32_t dim) const
    {
        return m_dimensions[dim].size;
    }

    /** \return the number of ranks the topology spans */
    uint32_t GetRankCount() const;

    /** \return true for a ring over explicit members (ASTRA-sim's "local" ring) */
    bool
    IsMemberRing() const
    {
        return m_memberRing;
    }

    /** \return true for a sub-grid of a communicator group */
    bool
    IsSubGrid() const
    {
        return !m_members.empty() && !m_memberRing;
    }

    /** \param rank a global rank \return true if the collective involves it */
    bool Contains(uint32_t rank) const;

    /**
     * \param rank a participating rank
     * \param dim a dimension
     * \return the rank's position in its group along \p dim
     */
    uint32_t IndexOf(uint32_t rank, uint32_t dim) const;

    /**
     * \param rank a participating rank
     * \param dim a dimension
     * \param index a position along \p dim
     * \return the rank at that position in \p rank's group along \p dim
     */
    uint32_t RankAt(uint32_t rank, uint32_t dim, uint32_t index) const;

  private:
    std::vector<Dimension> m_dimensions; //!< grid dimensions, or the one ring
    std::vector<uint32_t> m_members;     //!< sorted members of a member ring or sub-grid
    std::vector<uint32_t> m_order;       //!< ordered ring: position -> rank; empty: sorted
    std::vector<uint32_t> m_position;    //!< ordered ring: sorted member's index -> position
    uint32_t m_rankCount{0};             //!< ranks taking part
    bool m_memberRing{false};            //!< one ring over m_members

    /** \return the fabric coordinate of \p rank along grid dimension \p d */
    static uint32_t Coordinate(const Dimension& d, uint32_t rank);
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_TOPOLOGY_H */
