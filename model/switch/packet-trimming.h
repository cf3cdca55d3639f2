/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_PACKET_TRIMMING_H
#define MLFABRIC_PACKET_TRIMMING_H

#include "ns3/roce-port.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-switch
 * Cut a data frame to its header, as an NDP or Ultra Ethernet switch does with a packet
 * its queue cannot hold: the payload goes, the header is marked TRIMMED and moves to
 * \p priority, and the frame's size becomes the header's on a RoCEv2 link. The header
 * keeps the length it had in sackBytes, so the receiver can name the bytes lost.
 * \param frame a RoCE data frame, not yet trimmed
 * \param priority the traffic class trimmed headers travel in
 * \return the payload cut off
 */
uint32_t TrimToHeader(RoceFrame& frame, uint8_t priority);

} // namespace ns3

#endif /* MLFABRIC_PACKET_TRIMMING_H */
