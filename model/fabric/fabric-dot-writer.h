/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FABRIC_DOT_WRITER_H
#define MLFABRIC_FABRIC_DOT_WRITER_H

#include "ns3/fabric.h"

#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * Write a fabric as a Graphviz graph: NPUs as ellipses, switches as boxes, one rank per
 * tier (NPUs at the bottom), links labelled with their rate, coloured by dimension.
 * \param fabric the fabric
 * \param out where to write
 */
void WriteFabricDot(const Fabric& fabric, std::ostream& out);

/**
 * \ingroup mlfabric-fabric
 * Write the Graphviz graph to a file; throws InputError when it cannot be written.
 * \param fabric the fabric
 * \param path the .dot file
 */
void WriteFabricDot(const Fabric& fabric, const std::string& path);

} // namespace ns3

#endif /* MLFABRIC_FABRIC_DOT_WRITER_H */
