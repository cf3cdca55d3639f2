/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_ROOTED_DIRECT_H
#define MLFABRIC_COLLECTIVE_ROOTED_DIRECT_H

#include "ns3/collective-phase.h"

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * GATHER and SCATTER directly between the root and every other position.
 *
 * Gather: every rank sends its D bytes to the root, which finishes one hand-off after
 * the last has arrived. Scatter: the root sends D/n bytes to every rank, each of which
 * finishes one hand-off after its part has arrived.
 */
class RootedDirectPhase : public PhaseExecution
{
  public:
    /** \param context the phase as seen from this rank */
    explicit RootedDirectPhase(const PhaseContext& context);

    void Start(PhaseIo& io) override;
    void OnTimer(PhaseIo& io) override;

  protected:
    void OnReceived(uint32_t peer, PhaseIo& io) override;

  private:
    /** \return true if this rank sends (gather: every rank but the root) */
    bool Sends() const;

    uint32_t m_received{0}; //!< messages received
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_ROOTED_DIRECT_H */
