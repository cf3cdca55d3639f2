/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_GEN_NAMES_H
#define MLFABRIC_GEN_NAMES_H

#include "ns3/et-node.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-gen
 * \param text a collective in the schema's spelling, any case: all_reduce, reduce,
 *        all_gather, gather, scatter, broadcast, all_to_all, reduce_scatter,
 *        reduce_scatter_block, barrier
 * \param what the option or key, for the message
 * \return the collective
 * \throws InputError naming `what` and listing the accepted names
 */
EtCollectiveType ParseCollectiveName(const std::string& text, const std::string& what);

/**
 * \ingroup mlfabric-gen
 * \param collective a collective
 * \return its name as the generators' options and node names spell it, e.g. all_reduce
 */
std::string CollectiveOptionName(EtCollectiveType collective);

/**
 * \ingroup mlfabric-gen
 * \param text fp32, tf32, fp16, bf16 or fp8
 * \param what the option, for the message
 * \return bytes per element: 4, 4, 2, 2 or 1
 * \throws InputError naming `what` for anything else
 */
uint32_t ParsePrecision(const std::string& text, const std::string& what);

/**
 * \ingroup mlfabric-gen
 * \param text comma-separated whole numbers, e.g. "512,256,64"
 * \param what the option, for the message
 * \return the numbers
 * \throws InputError naming `what` for an empty list or an item that is not a number
 */
std::vector<uint64_t> ParseUintList(const std::string& text, const std::string& what);

} // namespace ns3

#endif /* MLFABRIC_GEN_NAMES_H */
