/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gradient-buckets.h"

#include "ns3/assert.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GradientBuckets");

GradientBuckets::GradientBuckets(uint64_t capacityBytes)
    : m_capacity(capacityBytes)
{
    NS_ASSERT(capacityBytes > 0);
}

std::optional<uint64_t>
GradientBuckets::Add(uint64_t bytes)
{
    m_filled += bytes;
    if (m_filled >= m_capacity)
    {
        return Flush();
    }
    return std::nullopt;
}

std::optional<uint64_t>
GradientBuckets::Flush()
{
    if (m_filled == 0)
    {
        return std::nullopt;
    }
    const uint64_t closed = m_filled;
    m_filled = 0;
    return closed;
}

} // namespace ns3
