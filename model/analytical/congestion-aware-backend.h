/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CONGESTION_AWARE_BACKEND_H
#define MLFABRIC_CONGESTION_AWARE_BACKEND_H

#include "ns3/analytical-backend.h"
#include "ns3/analytical-link.h"
#include "ns3/analytical-paths.h"

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
};

} // namespace ns3

#endif /* MLFABRIC_CONGESTION_AWARE_BACKEND_H */
