/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ANALYTICAL_BACKEND_H
#define MLFABRIC_ANALYTICAL_BACKEND_H

#include "ns3/analytical-topology.h"
#include "ns3/network-backend.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-analytical
 * What the two analytical networks share: the topology, ASTRA-sim's units (GB = 2^30 B,
 * whole ns, truncated) and delivery.
 *
 * As in ASTRA-sim there is no acknowledgement: the sender is told the message has left
 * at the instant it arrives, just before the receiver is told. A message to oneself
 * arrives at once. Time runs on ns-3's simulator.
 */
class AnalyticalBackend : public NetworkBackend
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** \param topology the network; must be set before the first Send */
    virtual void SetTopology(const AnalyticalTopology& topology);

    /** \return the network */
    const AnalyticalTopology&
    GetTopology() const
    {
        return m_topology;
    }

    uint32_t GetRankCount() const override;

    /** \return messages delivered so far */
    uint64_t
    GetDeliveredMessages() const
    {
        return m_deliveredMessages;
    }

    /** \return payload bytes delivered so far */
    uint64_t
    GetDeliveredBytes() const
    {
        return m_deliveredBytes;
    }

  protected:
    /** Throw InputError unless both ranks exist. \param message the message */
    void CheckRanks(const Message& message) const;

    /**
     * Count the message and fire its callbacks, sender's first.
     * \param message the message
     * \param sent sender-side callback (may be empty)
     * \param arrived receiver-side callback (may be empty)
     */
    void Deliver(const Message& message,
                 const MessageCallback& sent,
                 const MessageCallback& arrived);

    AnalyticalTopology m_topology;  //!< the network
    bool m_bidirectionalRing{true}; //!< ring links used both ways (attribute)

  private:
    uint64_t m_deliveredMessages{0}; //!< messages delivered
    uint64_t m_deliveredBytes{0};    //!< bytes delivered
};

} // namespace ns3

#endif /* MLFABRIC_ANALYTICAL_BACKEND_H */
