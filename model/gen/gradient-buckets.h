/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_GRADIENT_BUCKETS_H
#define MLFABRIC_GRADIENT_BUCKETS_H

#include <cstdint>
#include <optional>

namespace ns3
{

/**
 * \ingroup mlfabric-gen
 * Groups gradients into buckets for data-parallel reduction, as PyTorch DDP and
 * Megatron-LM do to overlap communication with the backward pass.
 *
 * Gradients are added in the order backward produces them; a bucket is closed, and its
 * reduction can start, as soon as it holds at least the capacity. A gradient is never
 * split, so one larger than the capacity fills a bucket alone.
 */
class GradientBuckets
{
  public:
    /** \param capacityBytes bytes at which a bucket closes, > 0 */
    explicit GradientBuckets(uint64_t capacityBytes);

    /**
     * \param bytes one gradient tensor (or layer)
     * \return the size of the bucket it closed, if it closed one
     */
    std::optional<uint64_t> Add(uint64_t bytes);
    /** \return the size of the partly filled bucket, if any; it is then closed */
    std::optional<uint64_t> Flush();

  private:
    uint64_t m_capacity;  //!< bytes at which a bucket closes
    uint64_t m_filled{0}; //!< bytes in the open bucket
};

} // namespace ns3

#endif /* MLFABRIC_GRADIENT_BUCKETS_H */
