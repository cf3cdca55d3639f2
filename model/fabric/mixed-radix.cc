/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "mixed-radix.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MixedRadix");

MixedRadix::MixedRadix(std::vector<uint32_t> sizes)
    : m_sizes(std::move(sizes))
{
    uint64_t stride = 1;
    for (uint32_t size : m_sizes)
    {
        m_strides.push_back(stride);
        stride *= size;
    }
    m_strides.push_back(stride);
}

uint32_t
MixedRadix::GetDimensionCount() const
{
    return static_cast<uint32_t>(m_sizes.size());
}

uint32_t
MixedRadix::GetSize(uint32_t d) const
{
    return m_sizes.at(d);
}

uint64_t
MixedRadix::GetStride(uint32_t d) const
{
    return m_strides.at(d);
}

uint64_t
MixedRadix::GetProduct() const
{
    return m_strides.back();
}

uint32_t
MixedRadix::GetCoordinate(uint64_t id, uint32_t d) const
{
    return static_cast<uint32_t>((id / m_strides.at(d)) % m_sizes.at(d));
}

uint64_t
MixedRadix::WithCoordinate(uint64_t id, uint32_t d, uint32_t value) const
{
    const uint64_t current = GetCoordinate(id, d);
    return id - current * m_strides[d] + static_cast<uint64_t>(value) * m_strides[d];
}

} // namespace ns3
