/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_SCALE_UP_HOP_H
#define MLFABRIC_SCALE_UP_HOP_H

#include "ns3/fabric.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * The port-to-port latency a frame waits on entering \p to over \p link: a scale-up
 * dimension's switch latency when \p to is that dimension's switch, as the packet level's
 * scale-up switch ports add it; 0 into an NPU and on RoCE links.
 * \param fabric the fabric
 * \param link one of its links
 * \param to the link's end the frame enters
 * \return the latency in ps
 */
inline int64_t
ScaleUpSwitchLatencyPs(const Fabric& fabric, uint32_t link, uint32_t to)
{
    const ScaleUpSettings* su = fabric.GetLinkScaleUp(link);
    return su && !fabric.IsNpu(to) ? su->switchLatencyPs : 0;
}

} // namespace ns3

#endif
