/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_PACKET_IN_SWITCH_REDUCTIONS_H
#define MLFABRIC_PACKET_IN_SWITCH_REDUCTIONS_H

#include "ns3/network-backend.h"
#include "ns3/rdma-nic.h"
#include "ns3/switch-reduction.h"

#include <cstdint>
#include <functional>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * In-switch collectives at packet level: the members' NICs send their chunks to the
 * reduction engine of the switch cabled to all of them, and receive its results; an
 * all-reduce, a reduce-scatter or an all-gather (ReductionLayout). Where no switch is
 * cabled to all, an all-reduce runs on an aggregation tree (ReductionTree): each member's
 * chunks go to its own switch, whose engine sends the partial sums up the tree.
 *
 * The first contribution opens the reduction at the switch and joins every member's
 * NIC to it; each member's chunks go up once it has contributed. A member is done when
 * its whole result has arrived.
 */
class PacketInSwitchReductions
{
  public:
    /**
     * Where a reduction runs: one switch, or an aggregation tree of them
     * (ReductionTree), and per member the ports that join it to its switch.
     */
    struct Placement
    {
        /** One switch of the reduction. */
        struct Switch
        {
            Ptr<SwitchReduction> reduction;             //!< the switch's reductions
            uint32_t node{0};                           //!< its node id
            int32_t parent{-1};                         //!< index of its parent; -1: the root
            uint32_t upPort{0};                         //!< its port toward the parent
            std::vector<SwitchReduction::Member> below; //!< the switches below it, with ports
        };

        std::vector<Switch> switches;      //!< the root first, every parent before its children
        std::vector<uint32_t> attach;      //!< per member: index of the switch it joins
        std::vector<uint32_t> nicPorts;    //!< per member: its NIC's port to that switch
        std::vector<uint32_t> switchPorts; //!< per member: that switch's port to it
        uint32_t chunkBytes{0};            //!< bytes per chunk: one packet of the links
    };

    /**
     * Finds the switch for the members (ascending ranks) on a traffic class, or throws
     * InputError naming them and why no switch can reduce them.
     */
    using Placer = std::function<Placement(const std::vector<uint32_t>& ranks, uint8_t priority)>;

    /**
     * \param nics the NIC of each rank
     * \param placer finds the switch of a reduction
     * \param priority traffic class of the reductions' frames
     */
    void Attach(const std::vector<Ptr<RdmaNic>>& nics, Placer placer, uint8_t priority);

    /** \return true once Attach() has been given a placer */
    bool IsAttached() const;

    /**
     * A member's contribution (NetworkBackend::ReduceInSwitch). Throws InputError for a
     * member set no switch joins, a rank outside it, a second contribution of a rank, or
     * a size or operation that differs from the other members'.
     * \param contribution the member's share
     * \param done called when its result has arrived
     */
    void Reduce(const NetworkBackend::Contribution& contribution,
                NetworkBackend::ContributionCallback done);

    /** \return reductions some member still waits on */
    size_t GetOpenCount() const;

    /** Forget the NICs, the placer and the reductions under way. */
    void Clear();

  private:
    /** Tag and members of one reduction. */
    using Key = std::pair<uint64_t, std::vector<uint32_t>>;

    /** One reduction under way. */
    struct Open
    {
        uint64_t id{0};
        uint64_t bytes{0};
        NetworkBackend::InSwitchOp op{NetworkBackend::InSwitchOp::AllReduce};
        std::vector<uint32_t> members;
        std::vector<bool> contributed;
        std::vector<NetworkBackend::Contribution> contributions;
        std::vector<NetworkBackend::ContributionCallback> done;
        uint32_t finished{0};
    };

    /** \param key a reduction \param member its member index, whose result is in */
    void Finished(const Key& key, uint32_t member);

    std::vector<Ptr<RdmaNic>> m_nics;
    Placer m_placer;
    uint8_t m_priority{0};
    std::map<Key, Open> m_open;
    uint64_t m_nextId{0};
};

} // namespace ns3

#endif /* MLFABRIC_PACKET_IN_SWITCH_REDUCTIONS_H */
