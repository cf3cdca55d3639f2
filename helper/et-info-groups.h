/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_INFO_GROUPS_H
#define MLFABRIC_ET_INFO_GROUPS_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Communicator groups by pg_name, each with its ranks in ascending order.
 */
using EtCommGroups = std::map<std::string, std::vector<uint32_t>>;

/**
 * \ingroup mlfabric-helper
 * Read an ASTRA-sim communicator-group file: {"<id>": [rank, ...], ...}, with the rules
 * of CommGroupTable::LoadJson, the one reader of that format.
 *
 * \param path the file
 * \param rankCount ranks of the workload; every member must be below it
 * \return the groups
 * \throws InputError naming the file, line and group when it cannot be read, is not a
 *         JSON object of rank arrays, uses an id other than 1, 2, ... (0 is ASTRA-sim's
 *         world group), or lists no rank, a rank twice or one out of range
 */
EtCommGroups ReadEtCommGroups(const std::string& path, uint32_t rankCount);

} // namespace ns3

#endif /* MLFABRIC_ET_INFO_GROUPS_H */
