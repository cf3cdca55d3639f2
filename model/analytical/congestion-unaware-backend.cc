/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "congestion-unaware-backend.h"

#include "ns3/analytical-fabric-dimensions.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <sstream>

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
CongestionUnawareBackend::SetFabric(const Fabric& fabric, const RoutingTable& routes)
{
    // Derive first: a fabric the model refuses leaves the backend as it was.
    AnalyticalTopology topology = MakeAnalyticalTopology(fabric, m_goodputFraction);
    AnalyticalBackend::SetFabric(fabric, routes);
    m_topology = std::move(topology);
    m_router = std::make_unique<AnalyticalRouter>(m_topology, m_bidirectionalRing);
}

std::string
CongestionUnawareBackend::GetDescription() const
{
    std::ostringstream text;
    text << "analytical, congestion-unaware";
    for (const auto& d : m_topology.GetDimensions())
    {
        text << (&d == &m_topology.GetDimensions().front() ? ": " : " x ") << d.npus << " @ "
             << d.bandwidthGBps << " GB/s, " << d.latencyNs << " ns";
    }
    return text.str();
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
