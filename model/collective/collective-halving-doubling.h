/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_HALVING_DOUBLING_H
#define MLFABRIC_COLLECTIVE_HALVING_DOUBLING_H

#include "ns3/collective-step-phase.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * ASTRA-sim's halving-doubling on n = 2^L positions: each step exchanges with the
 * partner at distance d (index + d if (index / d) is even, index - d otherwise).
 *
 * Reduce-scatter: L steps, d = 1, 2, 4, ..., messages D/2, D/4, ... (halved with
 * truncation). All-gather: L steps, d = n/2, ..., 1, messages D, 2D, ..., D n/2.
 * All-reduce: the reduce-scatter steps then the all-gather steps back, 2L in all.
 */
class HalvingDoublingPhase : public StepPhase
{
  public:
    /** \param context the phase as seen from this rank; size a power of two */
    explicit HalvingDoublingPhase(const PhaseContext& context);

    /**
     * \param op the phase's collective
     * \param n positions, a power of two
     * \return messages each rank sends
     */
    static uint32_t StepCount(CollectiveType op, uint32_t n);

  protected:
    uint32_t SendPeer(uint32_t packet) const override;
    uint32_t ReceivePeer(uint32_t packet) const override;
    uint64_t PacketBytes(uint32_t packet) const override;

  private:
    /** \param packet packet number \return its partner */
    uint32_t Partner(uint32_t packet) const;

    std::vector<uint32_t> m_distance; //!< partner distance per packet
    std::vector<uint64_t> m_bytes;    //!< size per packet
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_HALVING_DOUBLING_H */
