/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-installer.h"

namespace ns3
{

std::vector<uint32_t>
InstallFabric(const Fabric& fabric, const RoutingTable& routes, RoceNetwork& net, uint32_t mtu)
{
    return net.Install(fabric, routes, mtu);
}

} // namespace ns3
