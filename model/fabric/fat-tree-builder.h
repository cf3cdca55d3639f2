/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FAT_TREE_BUILDER_H
#define MLFABRIC_FAT_TREE_BUILDER_H

#include "ns3/clos-builder.h"
#include "ns3/fabric.h"
#include "ns3/link-settings.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * A k-ary fat-tree: k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 cores.
 *
 * Oversubscription s puts s x k/2 hosts on each edge switch (which keeps k/2 uplinks),
 * so there are s x k^3/4 hosts, 5k^2/4 switches and s x k^3/4 + k^3/2 links.
 */
struct FatTreeSpec
{
    uint32_t k{4};                //!< switch radix, even, at least 2
    uint32_t oversubscription{1}; //!< edge downlinks / uplinks, at least 1
    LinkSettings hostLink;        //!< host - edge
    LinkSettings aggLink;         //!< edge - aggregation
    LinkSettings coreLink;        //!< aggregation - core
};

/**
 * \ingroup mlfabric-fabric
 * The three-tier Clos shape of a fat-tree. Throws InputError on an odd or zero k or a
 * zero oversubscription.
 * \param spec the fat-tree
 * \return the equivalent Clos shape
 */
ClosSpec MakeFatTreeClosSpec(const FatTreeSpec& spec);

/**
 * \ingroup mlfabric-fabric
 * \param spec the fat-tree \return its number of hosts, s x k^3/4
 */
uint32_t GetFatTreeHosts(const FatTreeSpec& spec);

/**
 * \ingroup mlfabric-fabric
 * Build a k-ary fat-tree of single-NPU hosts (NPUs do not forward).
 * \param name fabric name
 * \param spec the fat-tree
 * \return the fabric
 */
Fabric BuildFatTree(const std::string& name, const FatTreeSpec& spec);

} // namespace ns3

#endif /* MLFABRIC_FAT_TREE_BUILDER_H */
