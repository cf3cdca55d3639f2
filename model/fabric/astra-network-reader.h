/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ASTRA_NETWORK_READER_H
#define MLFABRIC_ASTRA_NETWORK_READER_H

#include "ns3/fabric.h"
#include "ns3/link-defaults.h"
#include "ns3/multi-dim-builder.h"
#include "ns3/yaml-input.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * The dimensions of an ASTRA-sim analytical network file.
 *
 * Keys (lists of equal length, one entry per dimension): topology (Ring,
 * FullyConnected, Switch), npus_count (at least 2), bandwidth (GB/s per link and
 * direction, GB = 2^30 bytes, 1 bit/s to 10^16 bit/s), latency (ns per link, >= 0). The
 * fabric must be within kMaxFabricNpus and kMaxFabricLinks. Errors name the file, line and
 * key.
 * \param input the parsed file
 * \param defaults settings of every link besides rate and delay
 * \return the dimensions, fastest first
 */
std::vector<DimensionSpec> ParseAstraNetwork(const YamlInput& input, const LinkDefaults& defaults);

/**
 * \ingroup mlfabric-fabric
 * Read an ASTRA-sim analytical network file as a multi-dimensional fabric named after
 * the file. The fabric is checked (CheckFabric).
 * \param path the .yml file
 * \param defaults settings of every link besides rate and delay
 * \return the fabric
 */
Fabric ReadAstraNetwork(const std::string& path, const LinkDefaults& defaults = LinkDefaults());

/**
 * \ingroup mlfabric-fabric
 * \param dims dimensions of a multi-dimensional fabric, each a size of at least 2
 * \param npus NPUs they span (a multiple of the product of the sizes)
 * \return the links AddDimensionLinks adds for them: per group of a dimension, a ring of
 *         n has n links (1 for n = 2), a fully connected group n(n-1)/2, a switch n
 */
double CountDimensionLinks(const std::vector<DimensionSpec>& dims, double npus);

/**
 * \ingroup mlfabric-fabric
 * \param path a file path \return its name without folders and extension
 */
std::string GetFileStem(const std::string& path);

} // namespace ns3

#endif /* MLFABRIC_ASTRA_NETWORK_READER_H */
