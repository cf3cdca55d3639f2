/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "reduction-layout.h"

#include <algorithm>

namespace ns3
{

namespace
{

uint64_t
ChunksOf(uint64_t bytes, uint32_t chunkBytes)
{
    return (bytes + chunkBytes - 1) / chunkBytes;
}

} // namespace

bool
ReductionLayout::IsSharded() const
{
    return op != ReductionOp::AllReduce;
}

uint64_t
ReductionLayout::GetShardBytes(uint32_t shard) const
{
    switch (op)
    {
    case ReductionOp::ReduceScatter:
        return bytes / members + (shard < bytes % members ? 1 : 0);
    case ReductionOp::AllGather:
    case ReductionOp::AllReduce:
        break;
    }
    return bytes;
}

uint64_t
ReductionLayout::GetChunkCount() const
{
    if (!IsSharded())
    {
        return ChunksOf(bytes, chunkBytes);
    }
    uint64_t chunks = 0;
    // Shards come in two sizes at most: the first and the last stand for them all.
    const uint32_t larger = op == ReductionOp::ReduceScatter ? bytes % members : 0;
    chunks += larger * ChunksOf(GetShardBytes(0), chunkBytes);
    chunks += (members - larger) * ChunksOf(GetShardBytes(members - 1), chunkBytes);
    return chunks;
}

uint32_t
ReductionLayout::GetOwner(uint64_t chunk) const
{
    return IsSharded() ? static_cast<uint32_t>(chunk % members) : 0;
}

uint32_t
ReductionLayout::GetChunkSize(uint64_t chunk) const
{
    const uint64_t row = IsSharded() ? chunk / members : chunk;
    const uint64_t start = row * chunkBytes;
    const uint64_t shard = GetShardBytes(GetOwner(chunk));
    return static_cast<uint32_t>(std::min<uint64_t>(chunkBytes, shard - start));
}

uint32_t
ReductionLayout::GetContributorCount(uint64_t) const
{
    return op == ReductionOp::AllGather ? 1 : members;
}

uint32_t
ReductionLayout::GetRecipientCount(uint64_t) const
{
    switch (op)
    {
    case ReductionOp::ReduceScatter:
        return 1;
    case ReductionOp::AllGather:
        return members - 1;
    case ReductionOp::AllReduce:
        break;
    }
    return members;
}

bool
ReductionLayout::Receives(uint32_t member, uint64_t chunk) const
{
    switch (op)
    {
    case ReductionOp::ReduceScatter:
        return GetOwner(chunk) == member;
    case ReductionOp::AllGather:
        return GetOwner(chunk) != member;
    case ReductionOp::AllReduce:
        break;
    }
    return true;
}

uint64_t
ReductionLayout::GetSentChunkCount(uint32_t member) const
{
    return op == ReductionOp::AllGather ? ChunksOf(GetShardBytes(member), chunkBytes)
                                        : GetChunkCount();
}

uint64_t
ReductionLayout::GetSentChunk(uint32_t member, uint64_t i) const
{
    return op == ReductionOp::AllGather ? i * members + member : i;
}

uint64_t
ReductionLayout::GetResultBytes(uint32_t member) const
{
    switch (op)
    {
    case ReductionOp::ReduceScatter:
        return GetShardBytes(member);
    case ReductionOp::AllGather:
        return bytes * (members - 1);
    case ReductionOp::AllReduce:
        break;
    }
    return bytes;
}

} // namespace ns3
