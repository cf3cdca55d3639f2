/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "congestion-aware-backend.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CongestionAwareBackend");
NS_OBJECT_ENSURE_REGISTERED(CongestionAwareBackend);

TypeId
CongestionAwareBackend::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CongestionAwareBackend")
                            .SetParent<AnalyticalBackend>()
                            .SetGroupName("Mlfabric")
                            .AddConstructor<CongestionAwareBackend>();
    return tid;
}

void
CongestionAwareBackend::SetTopology(const AnalyticalTopology& topology)
{
    AnalyticalBackend::SetTopology(topology);
    m_router = std::make_unique<AnalyticalRouter>(m_topology, m_bidirectionalRing);
    m_links.clear();
    m_linkIndex.clear();
}

uint32_t
CongestionAwareBackend::LinkOf(const AnalyticalRouter::Hop& hop)
{
    const uint64_t key = (static_cast<uint64_t>(hop.from) << 32) | hop.to;
    auto it = m_linkIndex.find(key);
    if (it != m_linkIndex.end())
    {
        return it->second;
    }
    const AnalyticalDimension& dim = m_topology.GetDimensions()[hop.dimension];
    m_links.emplace_back(AnalyticalTopology::ToBytesPerNs(dim.bandwidthGBps), dim.latencyNs);
    const uint32_t index = static_cast<uint32_t>(m_links.size() - 1);
    m_linkIndex.emplace(key, index);
    return index;
}

void
CongestionAwareBackend::Send(const Message& message, MessageCallback sent, MessageCallback arrived)
{
    NS_LOG_FUNCTION(this << message.src << message.dst << message.bytes << message.tag);
    CheckRanks(message);
    const uint64_t id = m_nextFlight++;
    Flight& flight = m_flights[id];
    flight.message = message;
    flight.sent = std::move(sent);
    flight.arrived = std::move(arrived);
    for (const auto& hop : m_router->Route(message.src, message.dst))
    {
        flight.links.push_back(LinkOf(hop));
    }
    if (flight.links.empty())
    {
        Simulator::ScheduleNow([this, id]() { Advance(id); });
        return;
    }
    Advance(id);
}

void
CongestionAwareBackend::Advance(uint64_t id)
{
    auto it = m_flights.find(id);
    Flight& flight = it->second;
    if (flight.next == flight.links.size())
    {
        Flight done = std::move(flight);
        m_flights.erase(it);
        Deliver(done.message, done.sent, done.arrived);
        return;
    }
    const uint32_t link = flight.links[flight.next++];
    if (m_links[link].IsBusy())
    {
        m_links[link].Waiting().push_back(id);
        return;
    }
    Transmit(link, id);
}

void
CongestionAwareBackend::Transmit(uint32_t link, uint64_t id)
{
    AnalyticalLink& l = m_links[link];
    l.SetBusy(true);
    const uint64_t bytes = m_flights.at(id).message.bytes;
    // Arrival first, then the link's release: ASTRA-sim's order for equal times.
    Simulator::Schedule(NanoSeconds(l.DeliveryNs(bytes)), [this, id]() { Advance(id); });
    Simulator::Schedule(NanoSeconds(l.SerializationNs(bytes)), [this, link]() { LinkFree(link); });
}

void
CongestionAwareBackend::LinkFree(uint32_t link)
{
    AnalyticalLink& l = m_links[link];
    l.SetBusy(false);
    if (!l.Waiting().empty())
    {
        const uint64_t next = l.Waiting().front();
        l.Waiting().pop_front();
        Transmit(link, next);
    }
}

} // namespace ns3
