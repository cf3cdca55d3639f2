/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_SYSTEM_H
#define MLFABRIC_REPLAY_SYSTEM_H

#include "ns3/system-config.h"

#include <cstddef>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * The system configuration used without --system: ASTRA-sim's defaults with a ring
 * for every collective on every dimension.
 * \param dimensions number of network dimensions
 * \return the configuration
 */
SystemConfig DefaultReplaySystemConfig(size_t dimensions);

/**
 * \ingroup mlfabric-helper
 * The system configuration of a job whose collectives span fewer dimensions than the
 * fabric has: implementation lists longer than its dimensions keep their first entries.
 * \param system the run's configuration
 * \param dimensions the job's dimensions
 * \return its configuration
 */
SystemConfig TrimReplaySystemConfig(SystemConfig system, size_t dimensions);

/**
 * \ingroup mlfabric-helper
 * \param system a system configuration
 * \return one line about it, for the report's "system:" line
 */
std::string DescribeReplaySystem(const SystemConfig& system);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_SYSTEM_H */
