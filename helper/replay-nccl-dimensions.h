/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_NCCL_DIMENSIONS_H
#define MLFABRIC_REPLAY_NCCL_DIMENSIONS_H

#include "ns3/fabric.h"
#include "ns3/nccl-tuner.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * What the nccl choice needs of each collective dimension: an NPU's bandwidth in it (the
 * mean over NPUs of the summed rates of their links of the dimension), whether it is a
 * scale-up domain, and whether one switch joins its NPUs (topology "Switch").
 * \param fabric the fabric
 * \param physicalDimensions the dimensions collectives use (ReplayPhysicalDimensions)
 * \return one entry per fabric dimension, or none when the collectives do not use the
 *         fabric's dimensions (their sizes do not multiply to its NPU count)
 */
std::vector<NcclDimension> ReplayNcclDimensions(const Fabric& fabric,
                                                const std::vector<uint32_t>& physicalDimensions);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_NCCL_DIMENSIONS_H */
