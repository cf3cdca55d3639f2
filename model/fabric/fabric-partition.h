/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FABRIC_PARTITION_H
#define MLFABRIC_FABRIC_PARTITION_H

#include "ns3/fabric.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * A fabric split across the processes of a distributed simulation: the process (its MPI
 * rank) each node belongs to, and the links the split cuts.
 *
 * A cut link carries its frames between processes, so the shortest delay among the cut
 * links is the lookahead of ns-3's distributed engines: the longer, the more each process
 * runs between synchronisations. Scale-up links are never cut: their credits return to
 * the sending port directly, not as frames on the cable.
 */
struct FabricPartition
{
    uint32_t processes{1};           //!< processes of the run
    std::vector<uint32_t> processOf; //!< by node id
    std::vector<uint32_t> cutLinks;  //!< links whose two ends are on different processes
    uint64_t lookaheadPs{0};         //!< the shortest delay of a cut link; 0 when none
    std::vector<uint32_t> nodesOf;   //!< nodes per process
    std::vector<uint32_t> npusOf;    //!< NPUs per process
    std::string method;              //!< how the split was made, for the run header
};

/**
 * \ingroup mlfabric-fabric
 * Split a fabric across \p processes automatically.
 *
 * The units that stay whole are the components the fabric falls into when every link is
 * kept except the RoCE links of the largest delay (two sites joined by long links split
 * there). When those are fewer than the processes (every RoCE link has the same delay),
 * the units are the scale-up domains (servers), and each NPU alone without one. Units go
 * to processes in NPU order, in contiguous blocks of as even an NPU count as the units
 * allow (neighbouring ranks share leaves and pods). A switch left over goes to the
 * process with most of its NPU neighbours (a leaf stays with its servers), else most of
 * its links (ties: fewest nodes), so only the links above the leaves are cut.
 * Throws InputError when the fabric has fewer units than processes.
 * \param fabric the fabric
 * \param processes processes of the run (1 or more)
 * \return the split
 */
FabricPartition PartitionFabric(const Fabric& fabric, uint32_t processes);

/**
 * \ingroup mlfabric-fabric
 * Read a split from a partition file: one `<node name> <process>` per line, every node of
 * the fabric once; `#` starts a comment. Throws InputError naming the file, the line and
 * the node for an unknown or repeated node, a bad process number, a node left out, a
 * process given no node, or a scale-up link cut.
 * \param path the file
 * \param fabric the fabric it splits
 * \param processes processes of the run
 * \return the split
 */
FabricPartition ReadFabricPartition(const std::string& path,
                                    const Fabric& fabric,
                                    uint32_t processes);

/**
 * \ingroup mlfabric-fabric
 * \param fabric the fabric
 * \param partition the split
 * \return one line: processes, nodes and NPUs of each, cut links and the lookahead
 */
std::string DescribeFabricPartition(const Fabric& fabric, const FabricPartition& partition);

} // namespace ns3

#endif /* MLFABRIC_FABRIC_PARTITION_H */
