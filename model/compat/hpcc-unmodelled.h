/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_UNMODELLED_H
#define MLFABRIC_HPCC_UNMODELLED_H

#include "ns3/hpcc-config.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-compat
 * What a configuration asks for that a run does not do, one warning per setting.
 *
 * Only settings whose value asks for a behaviour are reported: L2_BACK_TO_ZERO 1, ACKs
 * at L2_CHUNK_SIZE boundaries (an ACK interval above one packet), RATE_BOUND 0, a
 * LINK_DOWN time, ENABLE_TRACE 1; for HPCC MULTI_RATE 1, SAMPLE_FEEDBACK 1, HAS_WIN 0
 * and VAR_WIN 0; for DCTCP VAR_WIN 0 with HAS_WIN 1 (its window follows its rate).
 * \param config the configuration
 * \param scheme the scheme that runs (a short name of the registry)
 * \return the warnings, each "<file>:<line>: KEY value: ..."
 */
std::vector<std::string> HpccUnmodelledSettings(const HpccConfig& config,
                                                const std::string& scheme);

} // namespace ns3

#endif /* MLFABRIC_HPCC_UNMODELLED_H */
