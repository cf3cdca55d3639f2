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
    t.m_dimensions.push_back(Dimension{static_cast<uint32_t>(sortedRanks.size()), 1, 0, {}});
    t.m_members = std::move(sortedRanks);
    t.m_rankCount = static_cast<uint32_t>(t.m_members.size());
    t.m_memberRing = true;
    return t;
}

CollectiveTopology
CollectiveTopology::OrderedRing(const std::vector<uint32_t>& ringOrder)
{
    std::vector<uint32_t> sorted = ringOrder;
    std::sort(sorted.begin(), sorted.end());
    NS_ABORT_MSG_IF(std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end(),
                    "an ordered ring lists a rank twice");
    CollectiveTopology t = MemberRing(std::move(sorted));
    t.m_order = ringOrder;
    t.m_position.resize(ringOrder.size());
    for (uint32_t position = 0; position < ringOrder.size(); ++position)
    {
        const auto it =
            std::lower_bound(t.m_members.begin(), t.m_members.end(), ringOrder[position]);
        t.m_position[it - t.m_members.begin()] = position;
    }
    return t;
}

CollectiveTopology
CollectiveTopology::SubGrid(std::vector<Dimension> dimensions, std::vector<uint32_t> sortedRanks)
{
    NS_ABORT_MSG_IF(sortedRanks.empty(), "a sub-grid needs members");
    NS_ABORT_MSG_IF(!std::is_sorted(sortedRanks.begin(), sortedRanks.end()),
                    "sub-grid ranks must be sorted");
    uint64_t product = 1;
    for (const Dimension& d : dimensions)
    {
        NS_ABORT_MSG_IF(d.coordinates.size() != d.size || d.span == 0,
                        "a sub-grid dimension needs its span and one coordinate per rank");
        product *= d.size;
    }
    NS_ABORT_MSG_IF(product != sortedRanks.size(), "the sub-grid's dimensions do not cover it");
    CollectiveTopology t;
    t.m_dimensions = std::move(dimensions);
    t.m_members = std::move(sortedRanks);
    t.m_rankCount = static_cast<uint32_t>(t.m_members.size());
    return t;
}

uint32_t
CollectiveTopology::Coordinate(const Dimension& d, uint32_t rank)
{
    return (rank / d.stride) % (d.span == 0 ? d.size : d.span);
}

uint32_t
CollectiveTopology::GetRankCount() const
{
    return m_rankCount;
}

bool
CollectiveTopology::Contains(uint32_t rank) const
{
    if (!m_members.empty())
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
        const auto sortedIndex = static_cast<uint32_t>(it - m_members.begin());
        return m_order.empty() ? sortedIndex : m_position[sortedIndex];
    }
    const Dimension& d = m_dimensions[dim];
    const uint32_t coordinate = Coordinate(d, rank);
    if (d.coordinates.empty())
    {
        return coordinate;
    }
    auto it = std::lower_bound(d.coordinates.begin(), d.coordinates.end(), coordinate);
    NS_ABORT_MSG_IF(it == d.coordinates.end() || *it != coordinate,
                    "rank " << rank << " not in the sub-grid");
    return static_cast<uint32_t>(it - d.coordinates.begin());
}

uint32_t
CollectiveTopology::RankAt(uint32_t rank, uint32_t dim, uint32_t index) const
{
    if (IsMemberRing())
    {
        return m_order.empty() ? m_members[index] : m_order[index];
    }
    const Dimension& d = m_dimensions[dim];
    const uint32_t target = d.coordinates.empty() ? index : d.coordinates[index];
    return rank - Coordinate(d, rank) * d.stride + target * d.stride;
}

} // namespace ns3
