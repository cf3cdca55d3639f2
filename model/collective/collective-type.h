/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_TYPE_H
#define MLFABRIC_COLLECTIVE_TYPE_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * The collectives of the Chakra schema, numbered as its CollectiveCommType enum.
 */
enum class CollectiveType : uint8_t
{
    AllReduce = 0,
    Reduce = 1,
    AllGather = 2,
    Gather = 3,
    Scatter = 4,
    Broadcast = 5,
    AllToAll = 6,
    ReduceScatter = 7,
    ReduceScatterBlock = 8,
    Barrier = 9,
};

/**
 * \ingroup mlfabric-collective
 * \param type a collective
 * \return its Chakra name, e.g. "ALL_REDUCE"
 */
std::string ToString(CollectiveType type);

/**
 * \ingroup mlfabric-collective
 * Convert a Chakra comm_type value.
 * \param value the integer stored in the trace
 * \param where file and node, for the error message
 * \return the collective
 * Throws InputError if the value is not a CollectiveCommType.
 */
CollectiveType CollectiveTypeFromChakra(int64_t value, const std::string& where);

/**
 * \ingroup mlfabric-collective
 * \param type a collective
 * \return true for the four collectives ASTRA-sim 2.0 decomposes natively
 * (all-reduce, reduce-scatter, all-gather, all-to-all)
 */
bool IsNativeAstraCollective(CollectiveType type);

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_TYPE_H */
