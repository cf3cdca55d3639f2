/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_TAG_H
#define MLFABRIC_COLLECTIVE_TAG_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * The message tag of collective traffic: which collective, chunk and phase a message
 * belongs to, so that the receiving rank can hand it to the right state machine.
 *
 * Layout: bit 63 set (point-to-point tags from traces leave it clear), bits 32-62 the
 * collective id, bits 8-31 the chunk, bits 0-7 the phase.
 */
struct CollectiveTag
{
    static constexpr uint64_t kFlag = 1ULL << 63;                //!< marks collective traffic
    static constexpr uint32_t kMaxCollectiveId = (1U << 31) - 1; //!< largest collective id
    static constexpr uint32_t kMaxChunk = (1U << 24) - 1;        //!< largest chunk number
    static constexpr uint32_t kMaxPhase = (1U << 8) - 1;         //!< largest phase number

    uint32_t collectiveId{0}; //!< the collective, as numbered by the replay engine
    uint32_t chunk{0};        //!< the chunk
    uint32_t phase{0};        //!< the phase of the chunk

    /** \return the 64-bit tag */
    uint64_t
    Encode() const
    {
        return kFlag | (static_cast<uint64_t>(collectiveId & kMaxCollectiveId) << 32) |
               (static_cast<uint64_t>(chunk & kMaxChunk) << 8) | (phase & kMaxPhase);
    }

    /** \param tag a tag \return its fields */
    static CollectiveTag
    Decode(uint64_t tag)
    {
        CollectiveTag t;
        t.collectiveId = static_cast<uint32_t>((tag >> 32) & kMaxCollectiveId);
        t.chunk = static_cast<uint32_t>((tag >> 8) & kMaxChunk);
        t.phase = static_cast<uint32_t>(tag & kMaxPhase);
        return t;
    }

    /** \param tag a tag \return true if it marks collective traffic */
    static bool
    IsCollective(uint64_t tag)
    {
        return (tag & kFlag) != 0;
    }
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_TAG_H */
