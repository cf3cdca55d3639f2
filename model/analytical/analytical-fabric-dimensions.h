/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ANALYTICAL_FABRIC_DIMENSIONS_H
#define MLFABRIC_ANALYTICAL_FABRIC_DIMENSIONS_H

#include "ns3/analytical-topology.h"
#include "ns3/fabric.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-analytical
 * Whether a fabric has ASTRA-sim's dimension structure: dimension metadata (as the
 * multi-dimensional builder records it) of Ring, FullyConnected and Switch dimensions
 * only, sizes multiplying to the NPU count, every link in a dimension, and one rate and
 * delay per dimension.
 *
 * \param fabric the fabric
 * \param why if not null and the answer is no, set to what is missing, naming the fabric
 *            and dimension
 * \return true if the fabric is such a stack of dimensions
 */
bool HasAnalyticalDimensions(const Fabric& fabric, std::string* why = nullptr);

/**
 * \ingroup mlfabric-analytical
 * The dimensions of a fabric as ASTRA-sim's analytical network describes them, so that
 * the packet level and the analytical backends run on the same fabric.
 *
 * Each dimension keeps its block and size; its bandwidth is its links' line rate times
 * \p goodputFraction (the share of the wire that carries payload, e.g. after RoCEv2
 * headers) in ASTRA-sim's GB/s (GB = 2^30 B); its latency is its links' delay. A
 * scale-up dimension's bandwidth is its line rate times its own framing's goodput
 * (ScaleUpGoodput) instead, and a scale-up Switch dimension adds half its switch latency
 * to each of the two hops that cross the switch. A file's
 * GB/s value survives the fabric's whole bit/s exactly when it is a multiple of 2^-33
 * GB/s (any integer, .5, .25, ...), as in every shipped ASTRA-sim file. Throws InputError
 * naming the fabric for a fraction outside (0, 1] or a fabric without the dimension
 * structure (HasAnalyticalDimensions).
 *
 * \param fabric the fabric
 * \param goodputFraction payload share of the line rate
 * \return the analytical topology
 */
AnalyticalTopology MakeAnalyticalTopology(const Fabric& fabric, double goodputFraction = 1.0);

/**
 * \ingroup mlfabric-analytical
 * The fabric an analytical topology describes, built by the multi-dimensional builder
 * (BuildMultiDim): NPUs that forward, a group per dimension line, a switch per line of a
 * Switch dimension. Bandwidths become whole bit/s and latencies whole ps (rounded).
 *
 * \param topology the dimensions
 * \param name the fabric's name
 * \return the fabric
 */
Fabric MakeDimensionFabric(const AnalyticalTopology& topology, const std::string& name);

} // namespace ns3

#endif /* MLFABRIC_ANALYTICAL_FABRIC_DIMENSIONS_H */
