/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_DIRECT_H
#define MLFABRIC_COLLECTIVE_DIRECT_H

#include "ns3/collective-step-phase.h"

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * ASTRA-sim's direct algorithm: message k goes to the k-th next position (skipping
 * itself, wrapping around) and is paired with a receive from the k-th previous one;
 * up to `window` messages are in flight (default: one per peer).
 *
 * Message sizes are the ring's; all-to-all sends n-1 messages, and an all-reduce sends
 * its all-gather half only after every reduce-scatter message has arrived.
 */
class DirectPhase : public StepPhase
{
  public:
    /** \param context the phase as seen from this rank */
    explicit DirectPhase(const PhaseContext& context);

    /**
     * \param op the phase's collective
     * \param n positions in the dimension
     * \return messages each rank sends
     */
    static uint32_t StepCount(CollectiveType op, uint32_t n);

    /**
     * \param context the phase
     * \return messages in flight
     */
    static uint32_t Window(const PhaseContext& context);

  protected:
    uint32_t SendPeer(uint32_t packet) const override;
    uint32_t ReceivePeer(uint32_t packet) const override;
    uint64_t PacketBytes(uint32_t packet) const override;

  private:
    /** \param packet packet number \return distance to its peer */
    int64_t Distance(uint32_t packet) const;

    uint64_t m_messageBytes; //!< every message's size
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_DIRECT_H */
