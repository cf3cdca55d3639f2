/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_TOPOLOGY_WRITER_H
#define MLFABRIC_HPCC_TOPOLOGY_WRITER_H

#include "ns3/fabric.h"

#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * Write a fabric as an HPCC ns-3 topology file.
 *
 * NPU of rank r gets id r and switches follow in node order, so that NPU i is the
 * simulator's node i, as ASTRA-sim's ns-3 backend assumes. Rates are written in Gbps
 * (bps when not whole), delays in ns (ps when not whole). The file keeps rate, delay
 * and loss; buffers, ECN and PFC settings and dimensions are not part of the format.
 * \param fabric the fabric
 * \param out where to write
 */
void WriteHpccTopology(const Fabric& fabric, std::ostream& out);

/**
 * \ingroup mlfabric-fabric
 * Write a fabric as an HPCC topology file; throws InputError when the file cannot be
 * written.
 * \param fabric the fabric
 * \param path the file
 */
void WriteHpccTopology(const Fabric& fabric, const std::string& path);

} // namespace ns3

#endif /* MLFABRIC_HPCC_TOPOLOGY_WRITER_H */
