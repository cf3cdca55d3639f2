/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FABRIC_CHECK_H
#define MLFABRIC_FABRIC_CHECK_H

#include "fabric.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * Check that a fabric can carry traffic: at least two NPUs and one connected graph.
 *
 * Throws InputError naming \p source, the fabric and, for a disconnected graph, a node
 * that cannot reach NPU 0.
 * \param fabric the fabric
 * \param source file or builder the fabric came from, for messages
 */
void CheckFabric(const Fabric& fabric, const std::string& source);

/**
 * \ingroup mlfabric-fabric
 * Whether NPUs must forward for every NPU to reach every other one: true unless one
 * connected network of switches touches every NPU.
 * \param fabric the fabric
 * \return true if NPUs have to carry transit traffic
 */
bool NpusNeedForwarding(const Fabric& fabric);

} // namespace ns3

#endif /* MLFABRIC_FABRIC_CHECK_H */
