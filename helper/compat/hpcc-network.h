/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_NETWORK_H
#define MLFABRIC_HPCC_NETWORK_H

#include "ns3/fabric.h"
#include "ns3/hpcc-config.h"
#include "ns3/roce-network.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Make the configuration's data-plane settings the ns-3 defaults: NICs send
 * PACKET_PAYLOAD_SIZE bytes per packet and acknowledge every L2_ACK_INTERVAL bytes (at
 * least every packet); switches have BUFFER_SIZE MiB, ECN marking as ENABLE_QCN says,
 * and PFC on the given priorities. Call before BuildHpccNetwork.
 * \param config the configuration
 * \param losslessPriorities bit p set: PFC protects priority p (the flows' pg values)
 */
void SetHpccNetworkDefaults(const HpccConfig& config, uint8_t losslessPriorities);

/**
 * \ingroup mlfabric-helper
 * The topology as an HPCC simulator run uses it: the same nodes, ids and links, with
 * BUFFER_SIZE MiB at every switch, ERROR_RATE_PER_LINK as the loss of links the
 * topology gives 0, hosts that never forward, and with ENABLE_QCN 1 the ECN thresholds
 * of each link's exact rate in KMIN_MAP, KMAX_MAP and PMAX_MAP (links with a switch end).
 * \param fabric the topology (an HPCC topology file)
 * \param config the configuration
 * \return the fabric to install
 * \throws InputError naming the configuration key when ECN is on and a map lacks the
 *         rate of a switch port
 */
Fabric HpccRunFabric(const Fabric& fabric, const HpccConfig& config);

/**
 * \ingroup mlfabric-helper
 * Build the network of an HPCC simulator run into an empty RoceNetwork: HpccRunFabric
 * installed with its shortest-path routing (all shortest paths through switches, as
 * the simulator computes them). Call before any other node exists.
 *
 * \param fabric the topology (an HPCC topology file)
 * \param config the configuration
 * \param net an empty network
 * \throws InputError naming the configuration key when ECN is on and a map lacks the
 *         rate of a switch port, or when BUFFER_SIZE cannot hold the reserved and
 *         headroom bytes
 */
void BuildHpccNetwork(const Fabric& fabric, const HpccConfig& config, RoceNetwork& net);

/**
 * \ingroup mlfabric-helper
 * \param config the configuration
 * \return the NIC's ACK interval in packets for L2_ACK_INTERVAL bytes:
 *         ceil(L2_ACK_INTERVAL / PACKET_PAYLOAD_SIZE), at least 1
 */
uint32_t HpccAckIntervalPackets(const HpccConfig& config);

} // namespace ns3

#endif /* MLFABRIC_HPCC_NETWORK_H */
