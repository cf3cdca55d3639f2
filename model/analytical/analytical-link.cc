/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "analytical-link.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AnalyticalLink");

AnalyticalLink::AnalyticalLink(double bytesPerNs, double latencyNs)
    : m_bytesPerNs(bytesPerNs)
    , m_latencyNs(latencyNs)
{
}

uint64_t
AnalyticalLink::SerializationNs(uint64_t bytes) const
{
    return static_cast<uint64_t>(static_cast<double>(bytes) / m_bytesPerNs);
}

uint64_t
AnalyticalLink::DeliveryNs(uint64_t bytes) const
{
    return static_cast<uint64_t>(m_latencyNs + static_cast<double>(bytes) / m_bytesPerNs);
}

} // namespace ns3
