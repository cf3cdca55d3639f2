/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ANALYTICAL_BACKEND_H
#define MLFABRIC_ANALYTICAL_BACKEND_H

#include "ns3/analytical-topology.h"
#include "ns3/data-rate.h"
#include "ns3/fabric.h"
#include "ns3/network-backend.h"
#include "ns3/nstime.h"
#include "ns3/routing-table.h"

#include <cstdint>
#include <memory>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-analytical
 * What the two analytical networks share: the fabric and its routing tables (their only
 * input), ASTRA-sim's units (GB = 2^30 B, whole ns, truncated) and delivery.
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

    /**
     * Set the network; must be done before the first Send, after the attributes. The
     * backend keeps its own copies. Throws InputError naming the fabric when the model
     * cannot run on it.
     * \param fabric the fabric
     * \param routes its routing tables (ComputeRouting)
     */
    virtual void SetFabric(const Fabric& fabric, const RoutingTable& routes);

    /**
     * Set the network from ASTRA-sim dimensions: the fabric MakeDimensionFabric builds,
     * with shortest-path routing tables.
     * \param topology the dimensions
     */
    void SetTopology(const AnalyticalTopology& topology);

    /** \return the fabric (SetFabric must have been called) */
    const Fabric& GetFabric() const;

    /** \return its routing tables (SetFabric must have been called) */
    const RoutingTable& GetRoutes() const;

    /** \return one line for reports: the model and what it runs on */
    virtual std::string GetDescription() const = 0;

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
    /** Throw InputError unless the fabric is set and both ranks exist. \param message it */
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

    /**
     * A link's bandwidth in ASTRA-sim's B/ns: its rate times the goodput fraction (a
     * scale-up link's: that of its own framing, ScaleUpGoodput), by way of GB/s
     * (GB = 2^30 B) so that a file's GB/s gives ASTRA-sim's figure exactly.
     * \param link the fabric's link id
     * \return bytes per ns
     */
    double LinkBytesPerNs(uint32_t link) const;

    /**
     * \return ", scale-up links: goodput ..., switch latency ..." for each scale-up
     *         dimension of the fabric, else empty
     */
    std::string DescribeScaleUp() const;

    /** \return ", reduction engine ..." when its rate or latency is set, else empty */
    std::string DescribeReductionEngine() const;

    /** \return the reduction engine's rate, bytes per ns; 0: no bound */
    double ReductionBytesPerNs() const;

    bool m_bidirectionalRing{true}; //!< ring links used both ways (attribute)
    Time m_reductionLatency;        //!< in-switch reduction: engine latency (attribute)
    DataRate m_reductionRate;       //!< in-switch reduction: engine rate, 0 unbounded (attribute)
    double m_goodputFraction{1.0};  //!< payload share of the line rate (attribute)

  private:
    std::unique_ptr<const Fabric> m_fabric;       //!< the network
    std::unique_ptr<const RoutingTable> m_routes; //!< its tables
    uint64_t m_deliveredMessages{0};              //!< messages delivered
    uint64_t m_deliveredBytes{0};                 //!< bytes delivered
};

} // namespace ns3

#endif /* MLFABRIC_ANALYTICAL_BACKEND_H */
