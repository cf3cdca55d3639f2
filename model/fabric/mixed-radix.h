/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_MIXED_RADIX_H
#define MLFABRIC_MIXED_RADIX_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * NPU id <-> coordinates over dimension sizes, dimension 0 fastest:
 * id = a0 + n0 * (a1 + n1 * (a2 + ...)), as in ASTRA-sim.
 *
 * Ids past the product keep their higher part: the coordinates address a position
 * inside one block of product() consecutive ids.
 */
class MixedRadix
{
  public:
    /** \param sizes dimension sizes, each at least 1 */
    explicit MixedRadix(std::vector<uint32_t> sizes);

    /** \return number of dimensions */
    uint32_t GetDimensionCount() const;
    /** \param d dimension \return its size */
    uint32_t GetSize(uint32_t d) const;
    /** \param d dimension \return ids between neighbours along d */
    uint64_t GetStride(uint32_t d) const;
    /** \return product of the sizes */
    uint64_t GetProduct() const;

    /** \param id NPU id \param d dimension \return coordinate of \p id along d */
    uint32_t GetCoordinate(uint64_t id, uint32_t d) const;
    /**
     * \param id NPU id
     * \param d dimension
     * \param value new coordinate along d
     * \return the id that differs from \p id only in coordinate d
     */
    uint64_t WithCoordinate(uint64_t id, uint32_t d, uint32_t value) const;

  private:
    std::vector<uint32_t> m_sizes;   //!< dimension sizes
    std::vector<uint64_t> m_strides; //!< stride of each dimension, and the product last
};

} // namespace ns3

#endif /* MLFABRIC_MIXED_RADIX_H */
