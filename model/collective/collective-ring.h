/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_RING_H
#define MLFABRIC_COLLECTIVE_RING_H

#include "ns3/collective-step-phase.h"

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * ASTRA-sim's ring: every message goes to the next position in the phase's direction
 * and comes from the previous one, one message in flight.
 *
 * With n positions and input D: all-reduce 2(n-1) messages of D/n, reduce-scatter n-1
 * of D/n, all-gather n-1 of D, all-to-all n(n-1)/2 of D/n.
 */
class RingPhase : public StepPhase
{
  public:
    /** \param context the phase as seen from this rank */
    explicit RingPhase(const PhaseContext& context);

    /**
     * \param op the phase's collective
     * \param n positions in the ring
     * \return messages each rank sends
     */
    static uint32_t StepCount(CollectiveType op, uint32_t n);

  protected:
    uint32_t SendPeer(uint32_t packet) const override;
    uint32_t ReceivePeer(uint32_t packet) const override;
    uint64_t PacketBytes(uint32_t packet) const override;

  private:
    uint64_t m_messageBytes; //!< every message's size
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_RING_H */
