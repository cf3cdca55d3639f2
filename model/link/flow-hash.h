/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FLOW_HASH_H
#define MLFABRIC_FLOW_HASH_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-link
 * Hash of a RoCE flow (both endpoints and queue pairs), salted per switch.
 *
 * ECMP picks next hops with it, so all packets of a queue pair take one path and
 * different switches decorrelate their choices. A 64-bit finalizer mix: cheap and
 * well spread.
 * \param src source node id
 * \param dst destination node id
 * \param srcQp source queue-pair number
 * \param dstQp destination queue-pair number
 * \param salt the switch's salt
 * \param entropy the packet's entropy (its UDP source port choice); 0, the default,
 *        gives the hash of a queue pair with one path
 * \return the hash
 */
inline uint32_t
FlowHash(
    uint32_t src, uint32_t dst, uint32_t srcQp, uint32_t dstQp, uint32_t salt, uint32_t entropy = 0)
{
    uint64_t x = (static_cast<uint64_t>(src) << 32 | dst) ^
                 (static_cast<uint64_t>(srcQp) << 32 | dstQp) * 0x9E3779B97F4A7C15ULL ^ salt ^
                 static_cast<uint64_t>(entropy) * 0xD6E8FEB86659FD93ULL;
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDULL;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ULL;
    x ^= x >> 33;
    return static_cast<uint32_t>(x);
}

} // namespace ns3

#endif /* MLFABRIC_FLOW_HASH_H */
