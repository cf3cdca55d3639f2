/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-topology.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveTopology");

CollectiveTopology
CollectiveTopology::Grid(std::vector<Dimension> dimensions, uint32_t rankCount)
{
    CollectiveTopology t;
    t.m_dimensions = std::move(dimensions);
    t.m_rankCount = rankCount;
    return t;
}

CollectiveTopology
CollectiveTopology::MemberRing(std::vector<uint32_t> sortedRanks)
{
    NS_ABORT_MSG_IF(sortedRanks.empty(), "a member ring needs members");
    NS_ABORT_MSG_IF(!std::is_sorted(sortedRanks.begin(), sortedRanks.end()),
                    "member ring ranks must be sorted");
    CollectiveTopology t;
    t.m_dimensions.push_back(Dimension{static_cast<uint32_t>(sortedRanks.size()), 1});
    t.m_members = std::move(sortedRanks);
    t.m_rankCount = static_cast<uint32_t>(t.m_members.size());
    return t;
}

uint32_t
CollectiveTopology::GetRankCount() const
{
    return m_rankCount;
}

bool
CollectiveTopology::Contains(uint32_t rank) const
{
    if (IsMemberRing())
    {
        return std::binary_search(m_members.begin(), m_members.end(), rank);
    }
    return rank < GetRankCount();
}

uint32_t
CollectiveTopology::IndexOf(uint32_t rank, uint32_t dim) const
{
    if (IsMemberRing())
    {
        auto it = std::lower_bound(m_members.begin(), m_members.end(), rank);
        NS_ABORT_MSG_IF(it == m_members.end() || *it != rank, "rank " << rank << " not a member");
        return static_cast<uint32_t>(it - m_members.begin());
    }
    const Dimension& d = m_dimensions[dim];
    return (rank / d.stride) % d.size;
}

uint32_t
CollectiveTopology::RankAt(uint32_t rank, uint32_t dim, uint32_t index) const
{
    if (IsMemberRing())
    {
        return m_members[index];
    }
    const Dimension& d = m_dimensions[dim];
    return rank - IndexOf(rank, dim) * d.stride + index * d.stride;
}

} // namespace ns3
