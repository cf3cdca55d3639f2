/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CONGESTION_UNAWARE_BACKEND_H
#define MLFABRIC_CONGESTION_UNAWARE_BACKEND_H

#include "ns3/analytical-backend.h"
#include "ns3/analytical-router.h"
#include "ns3/in-switch-rendezvous.h"

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
 *
 * An in-switch reduction (nvls, inNetwork) runs on a Switch dimension as a fluid,
 * cut-through stream: each member's data goes up its link once, the switch's
 * reduction engine adds the streams as they arrive (at the ReductionRate, after the
 * ReductionLatency of AnalyticalBackend) and the result comes down each link once. The result
 * reaches every member at max( max_j(t_j + L + D/B), max_j(t_j + L) + D/R ) + E + L, t_j a member's
 * issue time, L the dimension's link latency, B its bandwidth, R the reduction rate (no bound when
 * 0), E the reduction latency; with every member issuing at t0 and no bound, t0 + 2L + D/B: the
 * cost of one message through the switch.
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
    void ReduceInSwitch(const Contribution& contribution, ContributionCallback done) override;
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
    /**
     * \param members the ranks of an in-switch reduction
     * \return the Switch dimension that joins them; throws InputError if they span
     *         several dimensions or theirs has no switch
     */
    uint32_t InSwitchDimension(const std::vector<uint32_t>& members) const;

    /** Every member has contributed: schedule each one's result. */
    void FinishReduction(const std::vector<InSwitchRendezvous::Arrival>& arrivals);

    AnalyticalTopology m_topology;              //!< the fabric's dimensions
    std::unique_ptr<AnalyticalRouter> m_router; //!< hop counts
    InSwitchRendezvous m_reductions;            //!< in-switch reductions under way
};

} // namespace ns3

#endif /* MLFABRIC_CONGESTION_UNAWARE_BACKEND_H */
