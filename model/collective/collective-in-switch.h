/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_IN_SWITCH_H
#define MLFABRIC_COLLECTIVE_IN_SWITCH_H

#include "ns3/collective-phase.h"

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * A collective run by the dimension's switch: an all-reduce, a reduce-scatter or an
 * all-gather (NVLS on a scale-up switch, SHARP or CollNet on a scale-out one).
 *
 * Each rank hands its whole input to the switch once and receives its result once:
 * after the hand-off delay it contributes, and one hand-off after the result has arrived
 * the phase ends. An all-reduce's result is the whole reduced input (the data crosses each
 * NPU link once in each direction, against 2(n-1)/n times for a ring); a reduce-scatter's
 * the rank's 1/n shard of it; an all-gather's the n-1 other ranks' inputs, which the
 * switch multicasts. No rank reduces locally and no rank talks to another.
 */
class InSwitchPhase : public PhaseExecution
{
  public:
    /** \param context the phase as seen from this rank */
    explicit InSwitchPhase(const PhaseContext& context);

    void Start(PhaseIo& io) override;
    void OnTimer(PhaseIo& io) override;

  protected:
    void OnReceived(uint32_t peer, PhaseIo& io) override;

  private:
    bool m_received{false}; //!< the result has come down
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_IN_SWITCH_H */
