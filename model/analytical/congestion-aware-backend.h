/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CONGESTION_AWARE_BACKEND_H
#define MLFABRIC_CONGESTION_AWARE_BACKEND_H

#include "ns3/analytical-backend.h"
#include "ns3/analytical-link.h"
#include "ns3/analytical-paths.h"
#include "ns3/in-switch-rendezvous.h"
#include "ns3/reduction-switch.h"

#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-analytical
 * ASTRA-sim's congestion-aware analytical network on any fabric: every message crosses
 * the links of its routed path (AnalyticalPaths over the fabric's RoutingTable) one by
 * one, store-and-forward, each direction of a link serving whole messages in FIFO order
 * with the link's rate (times the goodput fraction) and delay.
 *
 * On a fabric of ASTRA-sim dimensions the path is ASTRA-sim's route, which for one
 * dimension is exactly ASTRA-sim's model. Elsewhere ECMP ties are broken by the packet
 * level's flow hash, with queue-pair numbers given as the packet level's default
 * (a queue pair per peer) gives them: a rank's n-th new peer is its queue pair n-1, and
 * the destination's m-th incoming queue pair is m-1, in the order of first Send.
 * Links are counted when first used.
 *
 * An in-switch reduction (nvls, inNetwork) runs in the switch every member is linked
 * to: each member's data crosses its link up as one message, the switch's reduction
 * engine (one per switch, serving reductions in turn) adds them once the last is in,
 * taking D/ReductionRate and the ReductionLatency, and the result crosses each member's
 * link down as one message: with idle links and every member issuing at t0, the result
 * arrives at t0 + 2 (L + D/B) + E (+ D/R), store-and-forward like any message here.
 */
class CongestionAwareBackend : public AnalyticalBackend
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    void SetFabric(const Fabric& fabric, const RoutingTable& routes) override;
    void Send(const Message& message, MessageCallback sent, MessageCallback arrived) override;
    void ReduceInSwitch(const Contribution& contribution, ContributionCallback done) override;
    std::string GetDescription() const override;

    /** \return link directions used so far */
    size_t
    GetLinkCount() const
    {
        return m_links.size();
    }

    /** \return how ECMP ties are broken on this fabric (the fabric must be set) */
    EcmpChoice GetEcmpChoice() const;

  private:
    /** A message on its way. */
    struct Flight
    {
        Message message;             //!< what it is
        MessageCallback sent;        //!< sender-side callback
        MessageCallback arrived;     //!< receiver-side callback
        std::vector<uint32_t> links; //!< link indices of its path
        size_t next{0};              //!< next link to cross
        bool toSwitch{false};        //!< a contribution to a reduction: not a delivery
    };

    /** Queue pair numbers of a (source, destination) flow. */
    struct QueuePairs
    {
        uint32_t src{0}; //!< at the source
        uint32_t dst{0}; //!< at the destination
    };

    /** \return the flow's queue pairs, numbering them on its first message */
    QueuePairs QueuePairsOf(uint32_t src, uint32_t dst);
    /** \return the index of a directed link, creating its queue */
    uint32_t LinkOf(uint32_t directed);
    /** Queue the flight on its next link, or deliver it. */
    void Advance(uint64_t flight);
    /** Start a flight over \p links; \p arrived fires at its end. */
    void Fly(const Message& message,
             std::vector<uint32_t> links,
             bool toSwitch,
             MessageCallback arrived);
    /**
     * \param members the ranks of an in-switch reduction
     * \return the switch node every member is linked to, the one their traffic
     *         crosses if several are, or else an aggregation tree (ReductionTree); throws
     *         InputError if there is neither
     */
    ReductionTree ReductionTreeFor(const std::vector<uint32_t>& members) const;
    /**
     * \param npu an NPU's node \param other a node it is linked to
     * \param up true: from the NPU, false: towards it
     * \return the directed link between them
     */
    uint32_t DirectedLink(uint32_t npu, uint32_t other, bool up) const;
    /** Every member's data is at the switch: reduce, then send the result down. */
    void FinishReduction(uint32_t switchNode,
                         const std::vector<InSwitchRendezvous::Arrival>& arrivals);
    /**
     * \param switchNode a switch's node \param bytes what it adds up
     * \return ns from now until its engine has reduced them and its latency has passed,
     *         the engine serving its reductions in turn
     */
    uint64_t EngineDelayNs(uint32_t switchNode, uint64_t bytes);

    /** Tag and members of an in-switch reduction. */
    using ReductionKey = std::pair<uint64_t, std::vector<uint32_t>>;

    /** An all-reduce on an aggregation tree, under way. */
    struct TreeReduction
    {
        ReductionTree tree;                            //!< its switches
        uint64_t bytes{0};                             //!< each member's data
        std::vector<uint32_t> waiting;                 //!< per switch: children not yet in
        std::vector<InSwitchRendezvous::Arrival> done; //!< every member's, once all are in
        size_t finished{0};                            //!< members told of their result
    };

    /** A child's data (a member's, or a partial sum) is at switch \p s of \p key's tree. */
    void TreeChildIn(const ReductionKey& key, uint32_t s);
    /** The result is at switch \p s of \p key's tree: on to its children. */
    void TreeDown(const ReductionKey& key, uint32_t s);

    /** Put the flight on the wire of a free link. */
    void Transmit(uint32_t link, uint64_t flight);
    /** The link has finished serializing; serve the next waiting flight. */
    void LinkFree(uint32_t link);

    std::unique_ptr<AnalyticalPaths> m_paths;              //!< routed paths
    std::vector<AnalyticalLink> m_links;                   //!< link directions in use
    std::vector<uint32_t> m_linkIndex;                     //!< directed link -> m_links
    std::unordered_map<uint64_t, QueuePairs> m_queuePairs; //!< (src, dst) -> queue pairs
    std::vector<uint32_t> m_txQueuePairs;                  //!< rank -> queue pairs opened
    std::vector<uint32_t> m_rxQueuePairs;                  //!< rank -> queue pairs accepted
    std::unordered_map<uint64_t, Flight> m_flights;        //!< messages in the network
    uint64_t m_nextFlight{0};                              //!< flight ids
    InSwitchRendezvous m_reductions;                       //!< reductions under way
    std::unordered_map<uint32_t, uint64_t> m_engineFreeNs; //!< switch -> engine idle from
    std::map<ReductionKey, TreeReduction> m_trees;         //!< tree all-reduces under way
};

} // namespace ns3

#endif /* MLFABRIC_CONGESTION_AWARE_BACKEND_H */
