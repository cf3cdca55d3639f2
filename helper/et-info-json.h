/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_INFO_JSON_H
#define MLFABRIC_ET_INFO_JSON_H

#include <cstdint>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Write a trace file as JSON lines, the form of chakra_jsonizer: protobuf's JSON
 * mapping of the GlobalMetadata, then of each node in file order, one message per line
 * (lowerCamelCase keys such as dataDeps and int64Val, 64-bit integers as strings, enums
 * by name, fields at their default left out). Every attribute is written, including
 * those a replay ignores.
 *
 * \param path the .et file
 * \param out where the lines go
 * \return the number of nodes written
 * \throws InputError naming the file when it cannot be read or parsed
 */
uint64_t WriteEtJsonLines(const std::string& path, std::ostream& out);

} // namespace ns3

#endif /* MLFABRIC_ET_INFO_JSON_H */
