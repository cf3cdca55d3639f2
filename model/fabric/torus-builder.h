/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_TORUS_BUILDER_H
#define MLFABRIC_TORUS_BUILDER_H

#include "ns3/fabric.h"
#include "ns3/link-settings.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * A 2-D or 3-D torus: NPUs on a grid, each closed into a ring along every dimension.
 *
 * This is a multi-dimensional fabric whose dimensions are all rings (dimensions "x",
 * "y", "z"); NPUs forward traffic. N = prod(k), links = sum over d of (N/k_d) x
 * (k_d if k_d >= 3, 1 if k_d = 2), hop distance = sum of ring distances.
 * Throws InputError unless there are 2 or 3 sizes, each at least 2.
 *
 * \param name fabric name
 * \param sizes ring size along each dimension, x fastest
 * \param link settings of every link
 * \return the fabric
 */
Fabric BuildTorus(const std::string& name,
                  const std::vector<uint32_t>& sizes,
                  const LinkSettings& link);

} // namespace ns3

#endif /* MLFABRIC_TORUS_BUILDER_H */
