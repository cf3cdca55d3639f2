/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REDUCTION_LAYOUT_H
#define MLFABRIC_REDUCTION_LAYOUT_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-switch
 * What a switch's reduction engine does with its members' data.
 */
enum class ReductionOp : uint8_t
{
    AllReduce,     //!< every member's data up, the whole reduced result to every member
    ReduceScatter, //!< every member's data up, shard i of the reduced result to member i
    AllGather,     //!< member i's shard up, multicast to every other member (no reduction)
};

/**
 * \ingroup mlfabric-switch
 * How one in-switch operation splits into chunks: who sends each chunk up and who
 * receives its result.
 *
 * An all-reduce's chunks are its data in order. A reduce-scatter or an all-gather is made
 * of n shards, shard i being member i's result (reduce-scatter) or member i's data
 * (all-gather); their chunks interleave, chunk k being chunk k / n of shard k % n, so that
 * every member's shard moves at once within the engine's in-order window, as NVLS's
 * members issue their multimem loads and stores together. A reduce-scatter of D bytes
 * gives the first D mod n shards one byte more than floor(D / n), so that no byte is lost
 * and a shard with a chunk less than another comes after it (chunk k of the last row then
 * exists exactly for k below the chunk count).
 */
struct ReductionLayout
{
    ReductionOp op{ReductionOp::AllReduce}; //!< the operation
    uint32_t members{1};                    //!< members, at least 1
    uint64_t bytes{0};      //!< each member's data (all-gather: its shard), at least 1
    uint32_t chunkBytes{1}; //!< bytes per chunk, at least 1

    /** \return chunks in all */
    uint64_t GetChunkCount() const;
    /** \param chunk a chunk \return its payload (the last of a shard may be shorter) */
    uint32_t GetChunkSize(uint64_t chunk) const;
    /** \param chunk a chunk \return the member whose shard it is (all-reduce: 0) */
    uint32_t GetOwner(uint64_t chunk) const;
    /** \param chunk a chunk \return members that send it up: n, all-gather 1 */
    uint32_t GetContributorCount(uint64_t chunk) const;
    /** \param chunk a chunk \return members that receive its result: n, 1 or n - 1 */
    uint32_t GetRecipientCount(uint64_t chunk) const;
    /** \param member a member \param chunk a chunk \return whether the member receives it */
    bool Receives(uint32_t member, uint64_t chunk) const;
    /** \param member a member \return chunks it sends up */
    uint64_t GetSentChunkCount(uint32_t member) const;
    /** \param member a member \param i below GetSentChunkCount \return its i-th chunk up */
    uint64_t GetSentChunk(uint32_t member, uint64_t i) const;
    /** \param member a member \return result bytes it receives */
    uint64_t GetResultBytes(uint32_t member) const;
    /** \param shard a shard, below members \return its bytes (all-reduce: the data) */
    uint64_t GetShardBytes(uint32_t shard) const;

    /** \return true for reduce-scatter and all-gather, whose chunks interleave shards */
    bool IsSharded() const;
};

} // namespace ns3

#endif /* MLFABRIC_REDUCTION_LAYOUT_H */
