/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "parallel-layout.h"

#include "ns3/assert.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

#include <initializer_list>
#include <limits>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ParallelLayout");

ParallelLayout::ParallelLayout(uint32_t tp, uint32_t dp, uint32_t pp, uint32_t ep)
    : m_tp(tp)
    , m_dp(dp)
    , m_pp(pp)
    , m_ep(ep)
{
    const std::initializer_list<std::pair<const char*, uint32_t>> degrees = {
        {"tp", tp}, {"dp", dp}, {"pp", pp}, {"ep", ep}};
    for (const auto& [name, value] : degrees)
    {
        if (value == 0)
        {
            throw InputError(std::string("--") + name + ": must be at least 1 (got 0)");
        }
    }
    if (dp % ep != 0)
    {
        throw InputError("--ep: must divide --dp (got ep=" + std::to_string(ep) +
                         ", dp=" + std::to_string(dp) + ")");
    }
    if (uint64_t{tp} * dp * pp > std::numeric_limits<int32_t>::max())
    {
        throw InputError("--tp × --dp × --pp: too many ranks for Chakra's int32 rank ids");
    }
}

uint32_t
ParallelLayout::GetRankCount() const
{
    return m_tp * m_dp * m_pp;
}

uint32_t
ParallelLayout::GetTp() const
{
    return m_tp;
}

uint32_t
ParallelLayout::GetDp() const
{
    return m_dp;
}

uint32_t
ParallelLayout::GetPp() const
{
    return m_pp;
}

uint32_t
ParallelLayout::GetEp() const
{
    return m_ep;
}

uint32_t
ParallelLayout::RankOf(const ParallelCoordinates& c) const
{
    NS_ASSERT(c.tp < m_tp && c.dp < m_dp && c.pp < m_pp);
    return c.tp + m_tp * (c.dp + m_dp * c.pp);
}

ParallelCoordinates
ParallelLayout::CoordinatesOf(uint32_t rank) const
{
    NS_ASSERT(rank < GetRankCount());
    return {rank % m_tp, (rank / m_tp) % m_dp, rank / (m_tp * m_dp)};
}

std::vector<uint32_t>
ParallelLayout::TpGroup(uint32_t rank) const
{
    ParallelCoordinates c = CoordinatesOf(rank);
    std::vector<uint32_t> group;
    for (c.tp = 0; c.tp < m_tp; ++c.tp)
    {
        group.push_back(RankOf(c));
    }
    return group;
}

std::vector<uint32_t>
ParallelLayout::DpGroup(uint32_t rank) const
{
    ParallelCoordinates c = CoordinatesOf(rank);
    std::vector<uint32_t> group;
    for (c.dp = 0; c.dp < m_dp; ++c.dp)
    {
        group.push_back(RankOf(c));
    }
    return group;
}

std::vector<uint32_t>
ParallelLayout::EpGroup(uint32_t rank) const
{
    ParallelCoordinates c = CoordinatesOf(rank);
    const uint32_t first = c.dp - c.dp % m_ep;
    std::vector<uint32_t> group;
    for (c.dp = first; c.dp < first + m_ep; ++c.dp)
    {
        group.push_back(RankOf(c));
    }
    return group;
}

std::vector<uint32_t>
ParallelLayout::ExpertDpGroup(uint32_t rank) const
{
    ParallelCoordinates c = CoordinatesOf(rank);
    std::vector<uint32_t> group;
    for (c.dp = c.dp % m_ep; c.dp < m_dp; c.dp += m_ep)
    {
        group.push_back(RankOf(c));
    }
    return group;
}

} // namespace ns3
