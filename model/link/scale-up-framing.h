/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_SCALE_UP_FRAMING_H
#define MLFABRIC_SCALE_UP_FRAMING_H

#include "ns3/roce-wire.h"
#include "ns3/scale-up-settings.h"

namespace ns3
{

/**
 * \ingroup mlfabric-link
 * Bytes a frame of \p payload takes on a link of a scale-up dimension, by the same
 * arithmetic the packet level's ports use (wire::LinkFramedBytes).
 * \param su the dimension's settings
 * \param payload the frame's payload; 0 for a control frame
 * \return bytes on the wire
 */
inline uint32_t
ScaleUpFramedBytes(const ScaleUpSettings& su, uint32_t payload)
{
    return wire::LinkFramedBytes(payload, su.headerBytes, su.payloadBytes, su.flitBytes);
}

/**
 * \ingroup mlfabric-link
 * Share of a scale-up link's rate that carries payload in a stream of full packets:
 * payload / (payload + header, rounded up to whole flits).
 * \param su the dimension's settings
 * \return the goodput fraction, in (0, 1]
 */
inline double
ScaleUpGoodput(const ScaleUpSettings& su)
{
    return static_cast<double>(su.payloadBytes) / ScaleUpFramedBytes(su, su.payloadBytes);
}

} // namespace ns3

#endif /* MLFABRIC_SCALE_UP_FRAMING_H */
