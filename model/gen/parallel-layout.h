/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_PARALLEL_LAYOUT_H
#define MLFABRIC_PARALLEL_LAYOUT_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-gen
 * Where a rank sits in a tensor × data × pipeline parallel job.
 */
struct ParallelCoordinates
{
    uint32_t tp{0}; //!< position in its tensor-parallel group
    uint32_t dp{0}; //!< data-parallel replica
    uint32_t pp{0}; //!< pipeline stage
};

/**
 * \ingroup mlfabric-gen
 * Placement of ranks for TP × DP × PP parallelism, with expert parallelism (EP) carved
 * out of the data-parallel dimension, as Megatron-LM orders them.
 *
 * rank = tp + TP × (dp + DP × pp): tensor parallelism is innermost, so a TP group is
 * TP consecutive ranks (one server when TP is the number of accelerators per server),
 * data-parallel replicas come next and pipeline stages are outermost. An EP group is EP
 * consecutive replicas of one (tp, pp) position; the replicas holding the same experts
 * (same dp mod EP) form the expert-data-parallel group that reduces expert gradients.
 */
class ParallelLayout
{
  public:
    /**
     * \param tp tensor-parallel degree
     * \param dp data-parallel degree
     * \param pp pipeline stages
     * \param ep expert-parallel degree, a divisor of dp
     * \throws InputError naming --tp, --dp, --pp or --ep if a degree is 0 or EP does not
     *         divide DP
     */
    ParallelLayout(uint32_t tp, uint32_t dp, uint32_t pp, uint32_t ep = 1);

    /** \return TP × DP × PP */
    uint32_t GetRankCount() const;
    /** \return the tensor-parallel degree */
    uint32_t GetTp() const;
    /** \return the data-parallel degree */
    uint32_t GetDp() const;
    /** \return the number of pipeline stages */
    uint32_t GetPp() const;
    /** \return the expert-parallel degree */
    uint32_t GetEp() const;

    /** \param c coordinates \return the rank there */
    uint32_t RankOf(const ParallelCoordinates& c) const;
    /** \param rank a rank \return its coordinates */
    ParallelCoordinates CoordinatesOf(uint32_t rank) const;

    /** \param rank a rank \return its tensor-parallel group, ascending */
    std::vector<uint32_t> TpGroup(uint32_t rank) const;
    /** \param rank a rank \return its data-parallel group, ascending */
    std::vector<uint32_t> DpGroup(uint32_t rank) const;
    /** \param rank a rank \return its expert-parallel group, ascending */
    std::vector<uint32_t> EpGroup(uint32_t rank) const;
    /** \param rank a rank \return the replicas holding the same experts, ascending */
    std::vector<uint32_t> ExpertDpGroup(uint32_t rank) const;

  private:
    uint32_t m_tp; //!< tensor-parallel degree
    uint32_t m_dp; //!< data-parallel degree
    uint32_t m_pp; //!< pipeline stages
    uint32_t m_ep; //!< expert-parallel degree
};

} // namespace ns3

#endif /* MLFABRIC_PARALLEL_LAYOUT_H */
