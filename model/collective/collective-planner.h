/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_PLANNER_H
#define MLFABRIC_COLLECTIVE_PLANNER_H

#include "ns3/collective-plan.h"
#include "ns3/comm-group.h"
#include "ns3/nccl-tuner.h"
#include "ns3/system-config.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * Turns collectives into CollectivePlans, with ASTRA-sim's decomposition rules.
 *
 * Native collectives (all-reduce, reduce-scatter, all-gather, all-to-all) follow
 * ASTRA-sim 2.0: chunking by preferred-dataset-splits (a chunk is at least one byte per
 * NPU except for all-gather), one phase per involved dimension of size > 1 (all-gather
 * descending), localBWAware or baseline all-reduce, per-dimension algorithms from the
 * system JSON, "one*" algorithms flattening every NPU into one dimension.
 *
 * A communicator group smaller than the world runs over the fabric dimensions its
 * members span (DecomposeGroup), with the system JSON's algorithm of each dimension: a
 * group inside one dimension runs one phase there, a group spanning several runs
 * hierarchically (with localBWAware: reduce-scatter on the lower dimensions, all-reduce
 * on the highest, all-gather back down). A group that is no sub-grid runs one ring over
 * its sorted members, and a dimension whose algorithm cannot run on the group's part of
 * it (halving-doubling or a tree on a size that is not a power of two, no entry for the
 * dimension) runs a ring; the plan's notes say so. With group-decomposition
 * member-ring, every group runs one ring over its members, ASTRA-sim 2.0's behaviour.
 *
 * An implementation list of "nccl" alone (all-reduce, reduce-scatter, all-gather) picks,
 * per collective, the algorithm NCCL's tuner would (ChooseNcclAlgorithm) from its size and
 * the group's shape over the fabric dimensions given at construction: ring as one ring
 * over the members, tree as a double binary tree on each dimension (the highest only with
 * localBWAware), nvls on a group inside
 * one scale-up switch, pat over one rank per node, and in-network reduction on one
 * scale-out switch when nccl-collnet-enable is set. The plan's notes give the choice per
 * size class.
 *
 * The collectives ASTRA-sim does not simulate run as one phase over the group in rank
 * order: BROADCAST as a chain from the root, REDUCE as a chain into the root, GATHER and
 * SCATTER directly between the root and every rank, BARRIER as a dissemination barrier
 * of one-byte tokens; REDUCE_SCATTER_BLOCK decomposes as REDUCE_SCATTER.
 */
class CollectivePlanner
{
  public:
    /**
     * \param config the system configuration
     * \param physicalDimensions NPUs per network dimension, lowest first
     * \param ncclDimensions per network dimension, its bandwidth and switch for the nccl
     *        choice (empty: nccl cannot be used)
     */
    CollectivePlanner(SystemConfig config,
                      std::vector<uint32_t> physicalDimensions,
                      std::vector<NcclDimension> ncclDimensions = {});

    /** One collective to plan. */
    struct Request
    {
        CollectiveType type{CollectiveType::AllReduce}; //!< the collective
        uint64_t bytes{0};                              //!< comm_size, ASTRA-sim's meaning per type
        std::shared_ptr<const CommGroup> group;         //!< nullptr: the default group (all ranks)
        std::vector<bool> involvedDimensions; //!< default group only; missing entries: true
        uint32_t root{0};                     //!< rooted collectives: position in the group
        std::string where;                    //!< file and node, for error messages
    };

    /**
     * Plan one collective. Throws InputError when the system configuration cannot run
     * it (no implementation listed for it, a list longer than the network's dimensions,
     * halving-doubling or a double binary tree on a dimension that is not a power of
     * two, a custom implementation, a root outside the group).
     * \param request the collective
     * \return its plan, shared by all ranks
     */
    std::shared_ptr<const CollectivePlan> Plan(const Request& request) const;

    /** \return the number of NPUs of the network */
    uint32_t
    GetWorldSize() const
    {
        return m_worldSize;
    }

    /** \return NPUs per network dimension, lowest first */
    const std::vector<uint32_t>&
    GetPhysicalDimensions() const
    {
        return m_physical;
    }

    /** \return the system configuration */
    const SystemConfig&
    GetConfig() const
    {
        return m_config;
    }

  private:
    /** \return the logical dimensions a native collective uses on the whole world */
    std::shared_ptr<const CollectiveTopology> WorldTopology(
        CollectiveType type,
        const std::vector<AlgorithmSpec>& algorithms,
        const std::string& where) const;

    /**
     * The algorithms of a collective: the system JSON's list, or for "nccl" the per-dimension
     * list of NCCL's choice for this request (with a note in \p plan).
     */
    std::vector<AlgorithmSpec> Implementation(CollectivePlan& plan, const Request& request) const;

    /** The per-dimension list of NCCL's choice (Implementation for "nccl"). */
    std::vector<AlgorithmSpec> ResolveNccl(CollectivePlan& plan, const Request& request) const;
    /**
     * Give a ring NCCL's channels: one per rank of a node, each entering every node at
     * another of its ranks (nothing when the group has one node or one rank per node, a
     * note when its nodes hold different numbers of ranks).
     * \param plan the plan
     * \param nodes the group's ranks by node, ascending
     * \param who the group's name for notes
     */
    static void AddRingChannels(CollectivePlan& plan,
                                const std::map<uint64_t, std::vector<uint32_t>>& nodes,
                                const std::string& who);

    /** Fill the phases of a native collective. */
    void AddNativePhases(CollectivePlan& plan,
                         const std::vector<AlgorithmSpec>& algorithms,
                         const std::vector<bool>& involved,
                         const std::string& where) const;

    /**
     * Set the topology and notes of a native collective on a sub-group over the
     * dimensions it spans.
     * \return the algorithm of each of the topology's dimensions
     */
    std::vector<AlgorithmSpec> PlanGroup(CollectivePlan& plan,
                                         const CommGroup& group,
                                         const std::vector<AlgorithmSpec>& algorithms) const;

    /** Check that \p spec can run \p op on a dimension of \p size ranks. */
    void CheckAlgorithm(const AlgorithmSpec& spec,
                        CollectiveType op,
                        uint32_t size,
                        const std::string& where) const;

    SystemConfig m_config;             //!< the system configuration
    std::vector<uint32_t> m_physical;  //!< NPUs per network dimension
    std::vector<NcclDimension> m_nccl; //!< per network dimension, for the nccl choice
    uint32_t m_worldSize{1};           //!< product of m_physical
    mutable std::map<std::pair<CollectiveType, size_t>, std::shared_ptr<const CollectiveTopology>>
        m_worldTopologies; //!< per native collective and dimensions used, built once
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_PLANNER_H */
