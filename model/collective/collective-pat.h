/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_PAT_H
#define MLFABRIC_COLLECTIVE_PAT_H

#include "ns3/collective-step-phase.h"

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * NCCL's PAT (Parallel Aggregated Trees, 2.23+) for all-gather and reduce-scatter, in its
 * fully aggregated, log-step form.
 *
 * Every rank's block travels along a binomial tree of power-of-two shifts: with n
 * positions and L = ceil(log2 n), the rank at index i exchanges over dimension k
 * (distance 2^k) by sending to i - 2^k and receiving from i + 2^k in an all-gather
 * (farthest dimension first, k = L-1 .. 0), and by sending to i + 2^k and receiving from
 * i - 2^k in a reduce-scatter (nearest first, k = 0 .. L-1). The message over dimension
 * k aggregates every block whose offset s in [1, n-1] has k as its lowest set bit:
 * BlocksAtDimension(n, k) = floor((n - 1 - 2^k) / 2^(k+1)) + 1 blocks, n - 1 blocks in
 * all. A block is the input D of an all-gather and D / n of a reduce-scatter; for a
 * power of two the messages are D, 2D, .., D n/2 (all-gather) and D n/2 .. D
 * (reduce-scatter, blocks of D / n), and n need not be a power of two.
 *
 * Steps run one after another through StepPhase's pipeline, one message in flight, the
 * reduce-scatter reducing every message after its first. The second queue of a dimension
 * mirrors the shifts (direction -1).
 */
class PatPhase : public StepPhase
{
  public:
    /** \param context the phase as seen from this rank */
    explicit PatPhase(const PhaseContext& context);

    /**
     * \param n positions
     * \return messages each rank sends, ceil(log2 n)
     */
    static uint32_t StepCount(uint32_t n);

    /**
     * \param n positions
     * \param k a dimension, distance 2^k
     * \return blocks aggregated in the message over dimension k
     */
    static uint64_t BlocksAtDimension(uint32_t n, uint32_t k);

  protected:
    uint32_t SendPeer(uint32_t packet) const override;
    uint32_t ReceivePeer(uint32_t packet) const override;
    uint64_t PacketBytes(uint32_t packet) const override;

  private:
    /** \param packet packet number \return the signed shift to its send peer */
    int64_t SendShift(uint32_t packet) const;
    /** \param packet packet number \return the dimension it runs over */
    uint32_t Dimension(uint32_t packet) const;

    uint32_t m_steps;      //!< ceil(log2 n)
    uint64_t m_blockBytes; //!< one rank's block
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_PAT_H */
