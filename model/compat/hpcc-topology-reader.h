/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_TOPOLOGY_READER_H
#define MLFABRIC_HPCC_TOPOLOGY_READER_H

#include "ns3/fabric.h"
#include "ns3/link-defaults.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * Read a topology file of the HPCC ns-3 simulator.
 *
 * Format: "<nodes> <switches> <links>", then the switch ids, then one
 * "<a> <b> <rate> <delay> <error_rate>" per link (ns-3 strings such as 100Gbps, 1000ns,
 * 0.001ms; error_rate is the per-packet loss probability). The first line's counts rule:
 * whatever follows the last link is ignored. Node id i of the file is fabric node i;
 * hosts (ids that are not switches) become NPUs in increasing id order and do not
 * forward, as in HPCC. A switch's tier is its hop distance from the nearest host.
 * Errors name the file and line. The fabric is checked (CheckFabric).
 *
 * \param path the file
 * \param defaults ECN and PFC settings of the links
 * \return the fabric, named after the file
 */
Fabric ReadHpccTopology(const std::string& path, const LinkDefaults& defaults = LinkDefaults());

} // namespace ns3

#endif /* MLFABRIC_HPCC_TOPOLOGY_READER_H */
