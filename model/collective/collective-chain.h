/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_CHAIN_H
#define MLFABRIC_COLLECTIVE_CHAIN_H

#include "ns3/collective-phase.h"

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * BROADCAST and REDUCE as a chain along the ring, pipelined by chunks.
 *
 * Broadcast: the root sends the chunk to the next position, which forwards it, until
 * the position before the root has it. Reduce: the position after the root starts, every
 * position reduces what it receives into its own data and forwards it, and the root
 * reduces last. Each forward costs the hand-off delay.
 */
class ChainPhase : public PhaseExecution
{
  public:
    /** \param context the phase as seen from this rank */
    explicit ChainPhase(const PhaseContext& context);

    void Start(PhaseIo& io) override;
    void OnTimer(PhaseIo& io) override;

  protected:
    void OnReceived(uint32_t peer, PhaseIo& io) override;

  private:
    uint32_t m_position; //!< 0 for the first position of the chain
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_CHAIN_H */
