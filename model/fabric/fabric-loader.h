/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FABRIC_LOADER_H
#define MLFABRIC_FABRIC_LOADER_H

#include "ns3/fabric.h"
#include "ns3/routing-table.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * A fabric read from a file, with the routing the file asks for.
 */
struct LoadedFabric
{
    Fabric fabric;            //!< the checked fabric
    RoutingAlgorithm routing; //!< from the file; shortest for formats without the notion
    std::string format;       //!< "mlfabric", "astra-sim" or "hpcc"
};

/**
 * \ingroup mlfabric-fabric
 * Read a fabric file of any supported format, recognised by its content: a first line
 * of three whole numbers is an HPCC topology file; a YAML map with npus_count is an
 * ASTRA-sim network file; any other YAML is mlfabric's format. Throws InputError naming
 * the file (and line) on any problem.
 * \param path the file
 * \return the fabric
 */
LoadedFabric LoadFabric(const std::string& path);

} // namespace ns3

#endif /* MLFABRIC_FABRIC_LOADER_H */
