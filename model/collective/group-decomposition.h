/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_GROUP_DECOMPOSITION_H
#define MLFABRIC_GROUP_DECOMPOSITION_H

#include "ns3/collective-topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * How a communicator group lies on the fabric's dimensions.
 *
 * NPU ids are mixed radix over the dimension sizes (dimension 0 fastest). A group is a
 * sub-grid when it is the Cartesian product of the coordinates its members use along
 * each dimension: a tensor-parallel group inside a server uses some coordinates of the
 * scale-up dimension and one of each other, a data-parallel group one scale-up
 * coordinate and several scale-out ones. A sub-grid runs its collectives over the
 * dimensions it spans, as the world does; any other group cannot.
 */
struct GroupDecomposition
{
    bool subGrid{false}; //!< the members are the product of their coordinate sets
    std::vector<CollectiveTopology::Dimension> dimensions; //!< one per fabric dimension
    std::string reason; //!< not a sub-grid: why, for the run header
};

/**
 * \ingroup mlfabric-collective
 * \param sortedRanks the group's members, ascending, below the product of \p fabricDims
 * \param fabricDims NPUs per fabric dimension, lowest first
 * \return the decomposition; dimensions is filled only for a sub-grid
 */
GroupDecomposition DecomposeGroup(const std::vector<uint32_t>& sortedRanks,
                                  const std::vector<uint32_t>& fabricDims);

/**
 * \ingroup mlfabric-collective
 * \param fabricDims NPUs per fabric dimension
 * \return "4x2"
 */
std::string DimensionsText(const std::vector<uint32_t>& fabricDims);

} // namespace ns3

#endif /* MLFABRIC_GROUP_DECOMPOSITION_H */
