/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "comm-group.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CommGroup");

CommGroup::CommGroup(std::string name, std::vector<uint32_t> ranks, std::string kind)
    : m_name(std::move(name))
    , m_ranks(std::move(ranks))
    , m_kind(std::move(kind))
{
    std::sort(m_ranks.begin(), m_ranks.end());
}

bool
CommGroup::Contains(uint32_t rank) const
{
    return std::binary_search(m_ranks.begin(), m_ranks.end(), rank);
}

uint32_t
CommGroup::IndexOf(uint32_t rank) const
{
    auto it = std::lower_bound(m_ranks.begin(), m_ranks.end(), rank);
    NS_ABORT_MSG_IF(it == m_ranks.end() || *it != rank,
                    "rank " << rank << " is not in group " << m_name);
    return static_cast<uint32_t>(it - m_ranks.begin());
}

} // namespace ns3
