/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "analytical-backend.h"

#include "ns3/boolean.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AnalyticalBackend");
NS_OBJECT_ENSURE_REGISTERED(AnalyticalBackend);

TypeId
AnalyticalBackend::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AnalyticalBackend")
            .SetParent<NetworkBackend>()
            .SetGroupName("Mlfabric")
            .AddAttribute("BidirectionalRing",
                          "Whether Ring dimensions use their links in both directions "
                          "(ASTRA-sim's default); if false every ring is crossed clockwise.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&AnalyticalBackend::m_bidirectionalRing),
                          MakeBooleanChecker());
    return tid;
}

void
AnalyticalBackend::SetTopology(const AnalyticalTopology& topology)
{
    m_topology = topology;
}

uint32_t
AnalyticalBackend::GetRankCount() const
{
    return m_topology.GetNpuCount();
}

void
AnalyticalBackend::CheckRanks(const Message& message) const
{
    const uint32_t n = m_topology.GetNpuCount();
    if (message.src >= n || message.dst >= n)
    {
        throw InputError("message " + std::to_string(message.src) + " -> " +
                         std::to_string(message.dst) + ": rank outside the network of " +
                         std::to_string(n) + " NPUs");
    }
}

void
AnalyticalBackend::Deliver(const Message& message,
                           const MessageCallback& sent,
                           const MessageCallback& arrived)
{
    ++m_deliveredMessages;
    m_deliveredBytes += message.bytes;
    if (sent)
    {
        sent(message);
    }
    if (arrived)
    {
        arrived(message);
    }
}

} // namespace ns3
