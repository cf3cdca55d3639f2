/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_PHASE_FACTORY_H
#define MLFABRIC_COLLECTIVE_PHASE_FACTORY_H

#include "ns3/collective-phase.h"

#include <memory>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * The state machine for one phase: the algorithm named by the phase for the native
 * collectives, the fixed one for the others.
 * \param context the phase as seen from one rank
 * \return its state machine
 */
std::unique_ptr<PhaseExecution> CreatePhaseExecution(const PhaseContext& context);

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_PHASE_FACTORY_H */
