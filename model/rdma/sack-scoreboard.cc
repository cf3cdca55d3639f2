/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "sack-scoreboard.h"

#include <algorithm>
#include <iterator>

namespace ns3
{

void
SackScoreboard::SetReorderBytes(uint64_t bytes)
{
    m_reorderBytes = bytes;
}

uint64_t
SackScoreboard::GetSackedBytes() const
{
    return m_sacked;
}

void
SackScoreboard::Sack(uint64_t begin, uint64_t end)
{
    begin = std::max(begin, m_una);
    if (end <= begin)
    {
        return;
    }
    auto it = m_ranges.upper_bound(begin);
    if (it != m_ranges.begin() && std::prev(it)->second >= begin)
    {
        --it;
    }
    while (it != m_ranges.end() && it->first <= end)
    {
        begin = std::min(begin, it->first);
        end = std::max(end, it->second);
        m_sacked -= it->second - it->first;
        it = m_ranges.erase(it);
    }
    m_ranges.emplace(begin, end);
    m_sacked += end - begin;
}

void
SackScoreboard::Acknowledge(uint64_t una)
{
    m_una = std::max(m_una, una);
    m_lostUpTo = std::max(m_lostUpTo, m_una);
    m_resendNext = std::max(m_resendNext, m_una);
    while (!m_ranges.empty() && m_ranges.begin()->first < m_una)
    {
        auto first = m_ranges.begin();
        const uint64_t end = first->second;
        m_sacked -= end - first->first;
        m_ranges.erase(first);
        if (end > m_una)
        {
            m_ranges.emplace(m_una, end);
            m_sacked += end - m_una;
        }
    }
}

bool
SackScoreboard::DetectLoss()
{
    // Walk the reports from the highest down until ReorderBytes lie above: every gap
    // below that point has been overtaken by enough data to be lost, not late.
    uint64_t above = 0;
    uint64_t lostUpTo = m_una;
    for (auto it = m_ranges.rbegin(); it != m_ranges.rend(); ++it)
    {
        above += it->second - it->first;
        if (above > m_reorderBytes)
        {
            lostUpTo = it->first;
            break;
        }
    }
    if (lostUpTo <= m_lostUpTo)
    {
        return false;
    }
    m_lostUpTo = lostUpTo;
    uint64_t seq = 0;
    uint64_t end = 0;
    return NextResend(seq, end);
}

void
SackScoreboard::LoseAll(uint64_t sentHigh)
{
    m_lostUpTo = std::max(m_lostUpTo, sentHigh);
    m_resendNext = m_una;
}

bool
SackScoreboard::NextResend(uint64_t& seq, uint64_t& end) const
{
    uint64_t at = std::max(m_resendNext, m_una);
    auto it = m_ranges.upper_bound(at);
    if (it != m_ranges.begin() && std::prev(it)->second > at)
    {
        at = std::prev(it)->second; // inside a reported range: the gap starts after it
    }
    if (at >= m_lostUpTo)
    {
        return false;
    }
    seq = at;
    end = it == m_ranges.end() ? m_lostUpTo : std::min(m_lostUpTo, it->first);
    return true;
}

void
SackScoreboard::Resent(uint64_t upTo)
{
    m_resendNext = std::max(m_resendNext, upTo);
}

} // namespace ns3
