/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FABRIC_YAML_READER_H
#define MLFABRIC_FABRIC_YAML_READER_H

#include "ns3/fabric.h"
#include "ns3/routing-table.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * Read a fabric in mlfabric's YAML format (doc/fabrics.md).
 *
 * Top-level keys: name, description, routing, npu_forwarding, defaults,
 * switch_buffers, dimensions (ASTRA-sim-style dimensions inside a server, fastest
 * first), scale_out (clos, fat-tree or rail over the servers' NICs), npus, switches and
 * links (explicit nodes and links, alone or added to the rest). npu_forwarding "auto"
 * (the default) lets NPUs forward when some link joins two NPUs (rings, meshes) or when
 * no single switch network reaches every NPU. The size the file describes is checked
 * against kMaxFabricNpus and kMaxFabricLinks before anything is built. Every error names
 * the file, line and key. The fabric is checked (CheckFabric).
 *
 * \param path the file
 * \param routing set to the file's routing (shortest when absent)
 * \return the fabric
 */
Fabric ReadFabricYaml(const std::string& path, RoutingAlgorithm& routing);

} // namespace ns3

#endif /* MLFABRIC_FABRIC_YAML_READER_H */
