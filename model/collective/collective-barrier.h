/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_BARRIER_H
#define MLFABRIC_COLLECTIVE_BARRIER_H

#include "ns3/collective-phase.h"

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * BARRIER as a dissemination barrier: in round k = 0 .. ceil(log2 n) - 1 every position
 * sends a token to index + 2^k and waits for the one from index - 2^k, so that after the
 * last round every rank has heard, directly or not, from every other.
 */
class BarrierPhase : public PhaseExecution
{
  public:
    /** \param context the phase as seen from this rank */
    explicit BarrierPhase(const PhaseContext& context);

    void Start(PhaseIo& io) override;
    void OnTimer(PhaseIo& io) override;

    /** \param n positions \return rounds of a dissemination barrier */
    static uint32_t RoundCount(uint32_t n);

  protected:
    void OnReceived(uint32_t peer, PhaseIo& io) override;

  private:
    uint32_t m_rounds;   //!< rounds in all
    uint32_t m_round{0}; //!< rounds completed
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_BARRIER_H */
