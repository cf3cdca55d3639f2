/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FABRIC_INSTALLER_H
#define MLFABRIC_FABRIC_INSTALLER_H

#include "ns3/fabric.h"
#include "ns3/roce-network.h"
#include "ns3/routing-table.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Build a fabric description at packet level: RoceNetwork::Install(), kept as the free
 * function the replay and the tests call. Call on an empty RoceNetwork before the
 * simulation creates other nodes.
 *
 * \param fabric the description
 * \param routes its routing
 * \param net the network to build into
 * \param mtu the NICs' payload per packet
 * \return the node id of each rank
 */
std::vector<uint32_t> InstallFabric(const Fabric& fabric,
                                    const RoutingTable& routes,
                                    RoceNetwork& net,
                                    uint32_t mtu);

} // namespace ns3

#endif /* MLFABRIC_FABRIC_INSTALLER_H */
