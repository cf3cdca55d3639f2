/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_INT_HOP_H
#define MLFABRIC_INT_HOP_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-link
 * One hop of in-band network telemetry, as stamped by a switch egress port.
 */
struct IntHop
{
    Time timestamp;        //!< when the packet left the egress port
    uint64_t txBytes{0};   //!< cumulative bytes the port has transmitted
    uint64_t qlenBytes{0}; //!< bytes queued at the port when the packet left
    uint64_t rateBps{0};   //!< the port's line rate, bit/s
};

/**
 * \ingroup mlfabric-link
 * Maximum INT hops a packet carries (HPCC carries up to 5; Clos paths need 5).
 */
constexpr uint32_t kMaxIntHops = 8;

} // namespace ns3

#endif /* MLFABRIC_INT_HOP_H */
