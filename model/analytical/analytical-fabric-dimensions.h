/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ANALYTICAL_FABRIC_DIMENSIONS_H
#define MLFABRIC_ANALYTICAL_FABRIC_DIMENSIONS_H

#include "ns3/analytical-topology.h"
#include "ns3/multi-dim-builder.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-analytical
 * The analytical view of a multi-dimensional fabric description, so that the packet
 * level and the analytical backends run on the same dimensions.
 *
 * Each dimension keeps its block and size; its bandwidth is the link's line rate times
 * \p goodputFraction (the share of the wire that carries payload, e.g. after RoCEv2
 * headers), expressed in ASTRA-sim's GB/s (GB = 2^30 B); its latency is the link delay.
 * Throws InputError for a fraction outside (0, 1] or a dimension the analytical model
 * cannot describe.
 *
 * \param dimensions the fabric's dimensions, lowest first
 * \param goodputFraction payload share of the line rate
 * \return the analytical topology
 */
AnalyticalTopology MakeAnalyticalTopology(const std::vector<DimensionSpec>& dimensions,
                                          double goodputFraction = 1.0);

} // namespace ns3

#endif /* MLFABRIC_ANALYTICAL_FABRIC_DIMENSIONS_H */
