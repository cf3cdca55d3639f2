/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_STEP_PHASE_H
#define MLFABRIC_COLLECTIVE_STEP_PHASE_H

#include "ns3/collective-phase.h"

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * The packet pipeline shared by ASTRA-sim's ring, direct and halving-doubling
 * algorithms, reproduced step for step.
 *
 * A phase sends `steps` messages. It begins by preparing `window` packets; every
 * completed receive prepares one more. Preparing packet q takes the hand-off delay, plus
 * a local reduction of the packet's bytes when the packet reduces data; each finished
 * preparation frees one send slot, and a free slot sends the oldest prepared packet and
 * posts the receive paired with it. The phase ends when all messages are sent and every
 * slot is free again, i.e. just after the last receive has been prepared.
 *
 * Packets alternate between `window` "zero-latency" packets, which never reduce, and
 * `reducing` further packets, which reduce in a reduce-scatter, and in an all-reduce
 * only in every other such cycle (its reduce-scatter half).
 */
class StepPhase : public PhaseExecution
{
  public:
    void Start(PhaseIo& io) override;
    void OnTimer(PhaseIo& io) override;

  protected:
    /**
     * \param context the phase as seen from this rank
     * \param steps messages this rank sends
     * \param window packets prepared at the start and sends in flight
     * \param reducing packets per cycle after the zero-latency ones
     * \param gateSecondHalf direct all-reduce: the all-gather half waits for every
     * reduce-scatter receive
     */
    StepPhase(const PhaseContext& context,
              uint32_t steps,
              uint32_t window,
              uint32_t reducing,
              bool gateSecondHalf);

    /** \param packet packet number \return position it is sent to */
    virtual uint32_t SendPeer(uint32_t packet) const = 0;
    /** \param packet packet number \return position its paired receive expects */
    virtual uint32_t ReceivePeer(uint32_t packet) const = 0;
    /** \param packet packet number \return its size */
    virtual uint64_t PacketBytes(uint32_t packet) const = 0;

    void OnReceived(uint32_t peer, PhaseIo& io) override;

  private:
    /** Prepare the next packet. */
    void Prepare(PhaseIo& io);
    /** Send the oldest prepared packet if a slot is free. */
    void SendNext(PhaseIo& io);

    uint32_t m_steps;       //!< messages to send
    uint32_t m_window;      //!< initial packets and sends in flight
    uint32_t m_reducing;    //!< packets per cycle after the zero-latency ones
    bool m_gateSecondHalf;  //!< direct all-reduce gating
    uint32_t m_prepared{0}; //!< packets prepared (or being prepared)
    uint32_t m_sent{0};     //!< messages sent
    uint32_t m_received{0}; //!< receives completed
    uint32_t m_free{0};     //!< finished preparations not yet used by a send
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_STEP_PHASE_H */
