/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_MICROBENCH_GENERATOR_H
#define MLFABRIC_MICROBENCH_GENERATOR_H

#include "ns3/et-node.h"
#include "ns3/gen-workload.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-gen
 * Parameters of a collective microbenchmark.
 */
struct MicrobenchConfig
{
    uint32_t npus{8};                                          //!< ranks
    EtCollectiveType collective{EtCollectiveType::ALL_REDUCE}; //!< the collective
    uint64_t bytes{1 << 20};        //!< `comm_size` (ASTRA-sim's meaning); 0 for a barrier
    uint32_t groupSize{0};          //!< ranks per group; 0 = all ranks, one group
    uint32_t groupStride{1};        //!< rank distance between group members
    std::vector<bool> involvedDims; //!< `involved_dim` per network dimension; empty = not written
    uint32_t repeat{1};             //!< collectives per rank, run one after another
    uint64_t computeMicros{0};      //!< compute between two collectives; 0 = none

    /**
     * \throws InputError naming the parameter: npus below 2, a group size below 2 or not
     *         dividing the ranks with its stride, a size of 0 for a collective that moves
     *         data (or non-zero for a barrier), repeat of 0, more than 32 dimensions
     */
    void Validate() const;
    /** \return the group size in effect: groupSize, or npus when it is 0 */
    uint32_t EffectiveGroupSize() const;
};

/**
 * \ingroup mlfabric-gen
 * Generate a collective microbenchmark.
 *
 * The ranks are split into groups of `groupSize` ranks, `groupStride` apart: the group
 * of rank r starts at (r div (size × stride)) × size × stride + r mod stride. Stride 1
 * gives groups of consecutive ranks (the inner dimension of a fabric), stride equal to
 * the inner size gives the groups across it. Every rank runs `repeat` collectives on
 * its group, each after the previous one, with a compute node of `computeMicros`
 * between two when it is not 0.
 *
 * \param config the parameters, validated here
 * \return the workload
 * \throws InputError for invalid parameters
 */
GenWorkload GenerateMicrobench(const MicrobenchConfig& config);

} // namespace ns3

#endif /* MLFABRIC_MICROBENCH_GENERATOR_H */
