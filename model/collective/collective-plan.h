/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_PLAN_H
#define MLFABRIC_COLLECTIVE_PLAN_H

#include "ns3/collective-algorithm.h"
#include "ns3/collective-topology.h"
#include "ns3/collective-type.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * Which of a dimension's queues a phase waits in.
 *
 * A localBWAware all-reduce visits a dimension twice (reduce-scatter going up,
 * all-gather coming down); as in ASTRA-sim the first visits use the first half of the
 * dimension's queues and the second visits the other half, the fix of astra-sim#137's
 * deadlock. With a single queue per dimension, second visits get a queue of their own.
 */
enum class QueueClass : uint8_t
{
    Shared,      //!< the dimension's only visit: any of its queues
    FirstVisit,  //!< going up: the first half of the queues, clockwise rings
    SecondVisit, //!< coming down: the second half, anticlockwise rings
};

/**
 * \ingroup mlfabric-collective
 * One phase of a collective: one algorithm run on one dimension by every chunk.
 */
struct CollectivePhaseSpec
{
    CollectiveType op{CollectiveType::AllReduce}; //!< what the phase computes
    AlgorithmSpec algorithm;                      //!< how (native collectives only)
    uint32_t dimension{0};                        //!< dimension of the plan's topology
    uint64_t inputBytes{0};                       //!< bytes a rank holds when it starts
    uint64_t outputBytes{0};                      //!< bytes a rank holds when it ends
    QueueClass queue{QueueClass::Shared};         //!< queues it waits in
};

/**
 * \ingroup mlfabric-collective
 * A collective decomposed the way ASTRA-sim's system layer does it, for all ranks.
 *
 * The collective is split into chunkCount chunks of chunkBytes; every chunk runs the same
 * list of phases in order, each phase on one dimension, so chunks pipeline across
 * dimensions. The plan is independent of the rank and holds O(phases) data: the
 * point-to-point messages are produced on the fly by each rank's phase state machines
 * (see CollectiveRank), never stored.
 */
struct CollectivePlan
{
    CollectiveType type{CollectiveType::AllReduce}; //!< the collective
    uint64_t requestedBytes{0};                     //!< comm_size as given
    uint64_t chunkBytes{0}; //!< bytes of every chunk (ASTRA-sim rounds up small ones)
    uint32_t chunkCount{0}; //!< number of chunks; 0: nothing to exchange
    uint32_t root{0};       //!< rooted collectives: the root's position in the group
    uint64_t handoffNs{0};  //!< local hand-off before each message and after each receipt
    std::shared_ptr<const CollectiveTopology> topology; //!< the dimensions
    std::vector<CollectivePhaseSpec> phases;            //!< the phases of every chunk
    std::vector<std::string> notes; //!< where and why it runs other than configured
    /**
     * NCCL's channels: chunk i runs its phases on channels[i % size] instead of \c
     * topology, each channel a ring over the same members in its own order. Empty: one.
     */
    std::vector<std::shared_ptr<const CollectiveTopology>> channels;
    /**
     * An all-reduce reduce-scatters on the lower dimensions, all-reduces on the highest
     * and all-gathers below, whatever the collective optimization (NCCL's CollNet over
     * several ranks per node); false: as the optimization says.
     */
    bool splitAllReduce{false};

    /** \param chunk a chunk \return the topology its phases run on */
    const CollectiveTopology&
    TopologyOf(uint32_t chunk) const
    {
        return channels.empty() ? *topology : *channels[chunk % channels.size()];
    }

    /** \return the number of channels, at least 1 */
    uint32_t
    GetChannelCount() const
    {
        return channels.empty() ? 1 : static_cast<uint32_t>(channels.size());
    }

    /** \return the ranks taking part */
    uint32_t
    GetRankCount() const
    {
        return topology ? topology->GetRankCount() : 0;
    }
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_PLAN_H */
