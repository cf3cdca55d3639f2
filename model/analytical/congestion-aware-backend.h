/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CONGESTION_AWARE_BACKEND_H
#define MLFABRIC_CONGESTION_AWARE_BACKEND_H

#include "ns3/analytical-backend.h"
#include "ns3/analytical-link.h"
#include "ns3/analytical-router.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-analytical
 * ASTRA-sim's congestion-aware analytical network: every message crosses its path link
 * by link, store-and-forward, each link serving whole messages in FIFO order.
 *
 * ASTRA-sim accepts one dimension only; here a message between NPUs that differ in
 * several dimensions corrects the lowest dimension first (AnalyticalRouter), which on
 * one dimension is exactly ASTRA-sim's route. Links are created when first used.
 */
class CongestionAwareBackend : public AnalyticalBackend
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    void SetTopology(const AnalyticalTopology& topology) override;
    void Send(const Message& message, MessageCallback sent, MessageCallback arrived) override;

    /** \return links created so far */
    size_t
    GetLinkCount() const
    {
        return m_links.size();
    }

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

    /** \return the index of the link of a hop, creating it */
    uint32_t LinkOf(const AnalyticalRouter::Hop& hop);
    /** Queue the flight on its next link, or deliver it. */
    void Advance(uint64_t flight);
    /** Put the flight on the wire of a free link. */
    void Transmit(uint32_t link, uint64_t flight);
    /** The link has finished serializing; serve the next waiting flight. */
    void LinkFree(uint32_t link);

    std::unique_ptr<AnalyticalRouter> m_router;         //!< paths
    std::vector<AnalyticalLink> m_links;                //!< all links
    std::unordered_map<uint64_t, uint32_t> m_linkIndex; //!< (from, to) -> link
    std::unordered_map<uint64_t, Flight> m_flights;     //!< messages in the network
    uint64_t m_nextFlight{0};                           //!< flight ids
};

} // namespace ns3

#endif /* MLFABRIC_CONGESTION_AWARE_BACKEND_H */
