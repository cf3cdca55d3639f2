/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CONGESTION_UNAWARE_BACKEND_H
#define MLFABRIC_CONGESTION_UNAWARE_BACKEND_H

#include "ns3/analytical-backend.h"
#include "ns3/analytical-router.h"

#include <memory>

namespace ns3
{

/**
 * \ingroup mlfabric-analytical
 * ASTRA-sim's congestion-unaware analytical network: a message costs
 * hops x latency + bytes / bandwidth of the lowest dimension in which source and
 * destination differ, truncated to whole ns; messages never wait for each other.
 *
 * The closed form needs ASTRA-sim's dimensions, which are derived from the fabric
 * (MakeAnalyticalTopology): a fabric without that structure (a Clos, fat-tree or rail
 * scale-out, an HPCC topology) is refused with an InputError naming it.
 */
class CongestionUnawareBackend : public AnalyticalBackend
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

    /** \return the dimensions the closed form runs on (the fabric must be set) */
    const AnalyticalTopology&
    GetTopology() const
    {
        return m_topology;
    }

    /**
     * \param src an NPU \param dst an NPU \param bytes message size
     * \return the message's delay, ns (0 for src == dst)
     */
    uint64_t ComputeDelayNs(uint32_t src, uint32_t dst, uint64_t bytes) const;

  private:
    AnalyticalTopology m_topology;              //!< the fabric's dimensions
    std::unique_ptr<AnalyticalRouter> m_router; //!< hop counts
};

} // namespace ns3

#endif /* MLFABRIC_CONGESTION_UNAWARE_BACKEND_H */
