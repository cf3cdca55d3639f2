/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "congestion-unaware-backend.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CongestionUnawareBackend");
NS_OBJECT_ENSURE_REGISTERED(CongestionUnawareBackend);

TypeId
CongestionUnawareBackend::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CongestionUnawareBackend")
                            .SetParent<AnalyticalBackend>()
                            .SetGroupName("Mlfabric")
                            .AddConstructor<CongestionUnawareBackend>();
    return tid;
}

void
CongestionUnawareBackend::SetTopology(const AnalyticalTopology& topology)
{
    AnalyticalBackend::SetTopology(topology);
    m_router = std::make_unique<AnalyticalRouter>(m_topology, m_bidirectionalRing);
}

uint64_t
CongestionUnawareBackend::ComputeDelayNs(uint32_t src, uint32_t dst, uint64_t bytes) const
{
    const uint32_t d = m_topology.FirstDifferingDimension(src, dst);
    if (d == m_topology.GetDimensions().size())
    {
        return 0;
    }
    const AnalyticalDimension& dim = m_topology.GetDimensions()[d];
    const uint32_t hops =
        m_router->HopCount(d, m_topology.GetCoordinate(src, d), m_topology.GetCoordinate(dst, d));
    const double delay =
        hops * dim.latencyNs +
        static_cast<double>(bytes) / AnalyticalTopology::ToBytesPerNs(dim.bandwidthGBps);
    return static_cast<uint64_t>(delay);
}

void
CongestionUnawareBackend::Send(const Message& message,
                               MessageCallback sent,
                               MessageCallback arrived)
{
    NS_LOG_FUNCTION(this << message.src << message.dst << message.bytes << message.tag);
    CheckRanks(message);
    const uint64_t delay = ComputeDelayNs(message.src, message.dst, message.bytes);
    Simulator::Schedule(NanoSeconds(delay),
                        [this, message, sent, arrived]() { Deliver(message, sent, arrived); });
}

} // namespace ns3
