/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REDUCTION_SWITCH_H
#define MLFABRIC_REDUCTION_SWITCH_H

#include "ns3/fabric.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * The switch an in-switch reduction over \p members runs on: the one switch linked to
 * every member or, where several are (a server's scale-up switch and its leaf), the one
 * their traffic crosses: the first hop from the first member to the second.
 * \param fabric the fabric
 * \param members the ranks of the reduction, two or more for the tie-break
 * \param firstDirectedLink the first directed link of the route from one rank to another
 *        (a RouteWalker id: link × 2, + 1 from its node B to its node A)
 * \return the switch's node id
 * Throws InputError naming the fabric and the ranks when no switch is linked to all.
 */
uint32_t ReductionSwitchOf(const Fabric& fabric,
                           const std::vector<uint32_t>& members,
                           const std::function<uint32_t(uint32_t, uint32_t)>& firstDirectedLink);

/**
 * \ingroup mlfabric-fabric
 * The switches an in-switch reduction runs on: one switch, or an aggregation tree of
 * them (SHARP's, over the levels of a Clos) when no single switch is linked to every
 * member.
 *
 * A tree's switches each reduce what their children send up (members' data, or the
 * partial sums of the switches below) and pass the sum to their parent; the root's
 * result comes down the same tree. The root is a switch that every member reaches in
 * the fewest switch hops (through switches only, never through an NPU); among equal
 * roots one is taken by a hash of the member set, so that the trees of different groups
 * spread over the spines as an aggregation manager spreads them. Below the root every
 * switch keeps the parent of a breadth-first search from the root (the first port), and
 * every member joins the switch linked to it that is nearest the root.
 */
struct ReductionTree
{
    /** One switch of the tree. */
    struct Switch
    {
        uint32_t node{0};              //!< its node id
        int32_t parent{-1};            //!< index of its parent in `switches`; -1: the root
        std::vector<uint32_t> members; //!< indices of the members it joins directly
        std::vector<uint32_t> below;   //!< indices of its child switches, in `switches`
    };

    std::vector<Switch> switches; //!< the root first; every parent before its children
    std::vector<uint32_t> attach; //!< per member: index of the switch it joins

    /** \return true when one switch joins every member */
    bool IsSingleSwitch() const;
    /** \return switch levels from a member to the root, the longest: 1 for one switch */
    uint32_t GetDepth() const;
};

/**
 * The switch or aggregation tree an in-switch reduction over \p members runs on
 * (ReductionTree); one switch whenever ReductionSwitchOf finds one.
 * \param fabric the fabric
 * \param members the ranks of the reduction
 * \param firstDirectedLink as for ReductionSwitchOf; asked only when several switches are
 *        linked to every member, so it may be empty for members no one switch joins
 * \return the tree
 * Throws InputError naming the fabric and the ranks when no switch is linked to every
 * member nor reachable from each through switches.
 */
ReductionTree ReductionTreeOf(const Fabric& fabric,
                              const std::vector<uint32_t>& members,
                              const std::function<uint32_t(uint32_t, uint32_t)>& firstDirectedLink);

} // namespace ns3

#endif // MLFABRIC_REDUCTION_SWITCH_H
