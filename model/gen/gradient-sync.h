/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_GRADIENT_SYNC_H
#define MLFABRIC_GRADIENT_SYNC_H

#include "ns3/gen-rank-trace.h"
#include "ns3/gradient-buckets.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-gen
 * The data-parallel gradient reduction of one rank in one iteration, bucketed and
 * overlapped with the backward pass.
 *
 * Backward reports each gradient as it is produced; when a bucket closes, its
 * reduction is issued depending only on the node that produced the bucket's last
 * gradient, so it runs while backward goes on. With a replicated model the reduction
 * is an all-reduce of the bucket; with a sharded optimizer it is a reduce-scatter, and
 * after the optimizer step each bucket's updated shard is all-gathered. A bucket is
 * padded to a multiple of the group size so that every shard has the same size:
 * reduce-scatter `comm_size` = shard × n (the whole input), all-gather `comm_size` =
 * shard (each rank's input), as ASTRA-sim reads them. A group of one rank reduces
 * nothing.
 */
class GradientSync
{
  public:
    /**
     * \param trace the rank's trace
     * \param group `pg_name` of the data-parallel group
     * \param groupSize its number of ranks
     * \param sharded false: all-reduce; true: reduce-scatter, then all-gather after the step
     * \param bucketBytes bucket capacity; 1 gives one reduction per gradient
     * \param namePrefix prefix of the node names, e.g. "i0.dp"
     */
    GradientSync(GenRankTrace& trace,
                 std::string group,
                 uint32_t groupSize,
                 bool sharded,
                 uint64_t bucketBytes,
                 std::string namePrefix);

    /**
     * \param bytes gradient bytes now complete
     * \param producer the node that completed them
     */
    void GradientReady(uint64_t bytes, uint64_t producer);
    /** Issue the partly filled bucket, after the last producer reported. */
    void Flush();
    /** \return the reductions issued so far, which the optimizer step waits for */
    const std::vector<uint64_t>& GetReductions() const;
    /**
     * \param step the optimizer step
     * \return the parameter all-gathers issued after it (sharded only; else none)
     */
    std::vector<uint64_t> GatherParameters(uint64_t step);

  private:
    /** \param bytes a closed bucket \param producer its last gradient's producer */
    void Reduce(uint64_t bytes, uint64_t producer);

    GenRankTrace& m_trace;              //!< the rank's trace
    std::string m_group;                //!< pg_name
    uint32_t m_groupSize;               //!< ranks in the group
    bool m_sharded;                     //!< reduce-scatter + all-gather
    GradientBuckets m_buckets;          //!< bucket filling
    std::string m_prefix;               //!< node name prefix
    GenNodeRef m_lastProducer;          //!< producer of the last gradient reported
    std::vector<uint64_t> m_reductions; //!< reduction nodes issued
    std::vector<uint64_t> m_shards;     //!< shard bytes of each bucket
};

} // namespace ns3

#endif /* MLFABRIC_GRADIENT_SYNC_H */
