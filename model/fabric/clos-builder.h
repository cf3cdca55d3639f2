/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CLOS_BUILDER_H
#define MLFABRIC_CLOS_BUILDER_H

#include "ns3/fabric.h"
#include "ns3/link-settings.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * Shape of a two- or three-tier Clos network.
 *
 * Two tiers: leaves of hostsPerLeaf endpoints, each leaf linked to every one of
 * `spines` spines. Three tiers: pods of leavesPerPod leaves and aggsPerPod aggregation
 * switches (every leaf of a pod linked to every aggregation switch of the pod) and
 * `cores` core switches in aggsPerPod groups: aggregation switch a of every pod is
 * linked to each core of group a. Oversubscription follows from the counts and rates
 * (see UplinksForOversubscription).
 */
struct ClosSpec
{
    uint32_t tiers{2};        //!< 2 or 3
    uint32_t hostsPerLeaf{0}; //!< endpoints per leaf
    uint32_t spines{0};       //!< two tiers: spine count (0 only with a single leaf)
    uint32_t leavesPerPod{0}; //!< three tiers: leaves per pod
    uint32_t aggsPerPod{0};   //!< three tiers: aggregation switches per pod
    uint32_t cores{0};        //!< three tiers: core switches, a multiple of aggsPerPod
    LinkSettings hostLink;    //!< endpoint - leaf
    LinkSettings leafLink;    //!< leaf - spine (two tiers) or leaf - aggregation
    LinkSettings coreLink;    //!< aggregation - core (three tiers)
};

/**
 * \ingroup mlfabric-fabric
 * Number of uplinks that gives a leaf the asked oversubscription.
 *
 * Throws InputError naming \p what unless downlinks x downRate / (ratio x upRate) is a
 * whole number of at least 1.
 * \param downlinks links below the switch
 * \param downRateBps rate of each of them
 * \param upRateBps rate of each uplink
 * \param ratio downlink capacity / uplink capacity, at least 1
 * \param what the key or option being resolved, for messages
 * \return the uplink count
 */
uint32_t UplinksForOversubscription(uint32_t downlinks,
                                    uint64_t downRateBps,
                                    uint64_t upRateBps,
                                    double ratio,
                                    const std::string& what);

/**
 * \ingroup mlfabric-fabric
 * Add a Clos network above the given endpoints.
 *
 * Leaf i serves leafGroups[i]; leaves are named leafNames[i] (or "leaf<i>"), with role
 * \p leafRole; spines "spine<j>", aggregation "agg<p>-<a>", cores "core<c>". Throws
 * InputError when the shape does not fit the groups.
 *
 * \param fabric fabric holding the endpoints
 * \param leafGroups endpoint node ids per leaf
 * \param spec the shape (hostsPerLeaf is not used: groups give it)
 * \param dimension dimension index of the new switches and links
 * \param leafRole role label of the leaves
 * \param leafNames names of the leaves, or empty
 */
void AddClos(Fabric& fabric,
             const std::vector<std::vector<uint32_t>>& leafGroups,
             const ClosSpec& spec,
             int32_t dimension,
             const std::string& leafRole = "leaf",
             const std::vector<std::string>& leafNames = {});

/**
 * \ingroup mlfabric-fabric
 * Add a Clos network over all NPUs of the fabric, consecutive NPUs sharing a leaf.
 * \param fabric fabric whose NPUs exist
 * \param spec the shape; the NPU count must be a multiple of hostsPerLeaf
 * \param dimension dimension index of the new switches and links
 */
void AddClosOverNpus(Fabric& fabric, const ClosSpec& spec, int32_t dimension);

/**
 * \ingroup mlfabric-fabric
 * Bisection bandwidth of a Clos over E endpoints between rank halves, when the halves
 * fall on whole leaves (two tiers) or whole pods (three tiers); 0 otherwise.
 *
 * Two tiers, L leaves, S spines: min(E/2 x r_host, L/2 x S x r_leaf) (E/2 x r_host for
 * one leaf). Three tiers, P pods: min(E/2 x r_host, P/2 x leavesPerPod x aggsPerPod x
 * r_leaf, P/2 x cores x r_core).
 * \param endpoints E
 * \param spec the shape
 * \return bit/s, or 0
 */
uint64_t ClosBisectionBps(uint32_t endpoints, const ClosSpec& spec);

/**
 * \ingroup mlfabric-fabric
 * A Clos network of single-NPU hosts (NPUs do not forward).
 * \param name fabric name
 * \param npus number of hosts
 * \param spec the shape
 * \return the fabric
 */
Fabric BuildClos(const std::string& name, uint32_t npus, const ClosSpec& spec);

} // namespace ns3

#endif /* MLFABRIC_CLOS_BUILDER_H */
