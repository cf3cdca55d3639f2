/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_IN_NETWORK_FLAG_H
#define MLFABRIC_IN_NETWORK_FLAG_H

#include "ns3/roce-header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-link
 * The bit of RoceHeader::flags that marks the frames of an in-switch reduction between an
 * NPU and its switch's engine: a chunk going up or a result coming down (DATA), a credit
 * grant (ACK).
 */
constexpr uint16_t kInNetworkFlag = RoceHeader::IN_NETWORK;

/**
 * \param h a header
 * \return true if it belongs to an in-switch reduction
 */
inline bool
IsInNetwork(const RoceHeader& h)
{
    return (h.flags & kInNetworkFlag) != 0;
}

} // namespace ns3

#endif /* MLFABRIC_IN_NETWORK_FLAG_H */
