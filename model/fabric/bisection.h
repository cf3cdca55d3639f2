/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_BISECTION_H
#define MLFABRIC_BISECTION_H

#include "ns3/fabric.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * Bandwidth between the two halves of the NPUs by rank, computed as a maximum flow.
 *
 * The NPUs of rank below N/2 form one side and the others the second side; each link
 * carries its rate in each direction. The result is the largest total rate the first
 * half can send to the second at once (the minimum cut between them), in bit/s. For the
 * regular builders, whose ranks follow their structure, this is the bisection bandwidth;
 * for other fabrics it bounds it from above. Any node may carry the flow.
 *
 * \param fabric a fabric with at least 2 NPUs
 * \return bit/s
 */
uint64_t ComputeRankHalvesCut(const Fabric& fabric);

} // namespace ns3

#endif /* MLFABRIC_BISECTION_H */
