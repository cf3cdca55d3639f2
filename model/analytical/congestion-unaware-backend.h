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
 */
class CongestionUnawareBackend : public AnalyticalBackend
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    void SetTopology(const AnalyticalTopology& topology) override;
    void Send(const Message& message, MessageCallback sent, MessageCallback arrived) override;

    /**
     * \param src an NPU \param dst an NPU \param bytes message size
     * \return the message's delay, ns (0 for src == dst)
     */
    uint64_t ComputeDelayNs(uint32_t src, uint32_t dst, uint64_t bytes) const;

  private:
    std::unique_ptr<AnalyticalRouter> m_router; //!< hop counts
};

} // namespace ns3

#endif /* MLFABRIC_CONGESTION_UNAWARE_BACKEND_H */
