/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "relay-arbiter.h"

#include <algorithm>

namespace ns3
{

void
RelayArbiter::SetWeights(uint32_t localWeight, uint32_t transitWeight)
{
    m_weight[LOCAL] = std::max<uint32_t>(localWeight, 1);
    m_weight[TRANSIT] = std::max<uint32_t>(transitWeight, 1);
}

RelayArbiter::Class
RelayArbiter::Next() const
{
    return m_finish[LOCAL] <= m_finish[TRANSIT] ? LOCAL : TRANSIT;
}

void
RelayArbiter::Served(Class c, uint32_t bytes, bool otherWaiting)
{
    const int other = c == LOCAL ? TRANSIT : LOCAL;
    // Scaled by the other's weight instead of divided by one's own: integers, same order.
    m_finish[c] += static_cast<uint64_t>(bytes) * m_weight[other];
    if (!otherWaiting)
    {
        m_finish[other] = std::max(m_finish[other], m_finish[c]);
    }
    // Only the difference matters: keep both small.
    const uint64_t base = std::min(m_finish[LOCAL], m_finish[TRANSIT]);
    m_finish[LOCAL] -= base;
    m_finish[TRANSIT] -= base;
}

} // namespace ns3
