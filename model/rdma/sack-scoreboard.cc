/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "sack-scoreboard.h"

#include <algorithm>
#include <iterator>

namespace ns3
{

namespace
{

/** Add [begin, end) to \p set, merging what it touches. \return bytes newly covered */
uint64_t
AddRange(std::map<uint64_t, uint64_t>& set, uint64_t begin, uint64_t end)
{
    if (end <= begin)
    {
        return 0;
    }
    auto it = set.upper_bound(begin);
    if (it != set.begin() && std::prev(it)->second >= begin)
    {
        --it;
    }
    uint64_t added = end - begin;
    while (it != set.end() && it->first <= end)
    {
        const uint64_t overlapBegin = std::max(begin, it->first);
        const uint64_t overlapEnd = std::min(end, it->second);
        added -= overlapEnd > overlapBegin ? overlapEnd - overlapBegin : 0;
        begin = std::min(begin, it->first);
        end = std::max(end, it->second);
        it = set.erase(it);
    }
    set.emplace(begin, end);
    return added;
}

/** Remove [begin, end) from \p set. \return bytes it covered there */
uint64_t
RemoveRange(std::map<uint64_t, uint64_t>& set, uint64_t begin, uint64_t end)
{
    if (end <= begin)
    {
        return 0;
    }
    auto it = set.upper_bound(begin);
    if (it != set.begin() && std::prev(it)->second > begin)
    {
        --it;
    }
    uint64_t removed = 0;
    while (it != set.end() && it->first < end)
    {
        const uint64_t first = it->first;
        const uint64_t last = it->second;
        removed += std::min(end, last) - std::max(begin, first);
        it = set.erase(it);
        if (first < begin)
        {
            set.emplace(first, begin);
        }
        if (last > end)
        {
            set.emplace(end, last);
            break;
        }
    }
    return removed;
}

} // namespace

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
    m_sacked += AddRange(m_ranges, begin, end);
    RemoveRange(m_named, begin, end); // a copy arrived after all
}

bool
SackScoreboard::MarkLost(uint64_t begin, uint64_t end)
{
    begin = std::max(begin, m_una);
    if (end <= begin)
    {
        return false;
    }
    Ranges lost;
    lost.emplace(begin, end);
    for (const auto& [first, last] : m_ranges)
    {
        RemoveRange(lost, first, last); // bytes the receiver holds are not lost
    }
    bool added = false;
    for (const auto& [first, last] : lost)
    {
        added = AddRange(m_named, first, last) > 0 || added;
    }
    return added;
}

void
SackScoreboard::Acknowledge(uint64_t una)
{
    m_una = std::max(m_una, una);
    m_lostUpTo = std::max(m_lostUpTo, m_una);
    m_sacked -= RemoveRange(m_ranges, 0, m_una);
    RemoveRange(m_named, 0, m_una);
    RemoveRange(m_resent, 0, m_una);
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
    m_resent.clear();
}

uint64_t
SackScoreboard::SkipCovered(const Ranges& set, uint64_t at)
{
    auto it = set.upper_bound(at);
    if (it != set.begin() && std::prev(it)->second > at)
    {
        return std::prev(it)->second;
    }
    return at;
}

uint64_t
SackScoreboard::NextStart(const Ranges& set, uint64_t at)
{
    auto it = set.upper_bound(at);
    return it == set.end() ? UINT64_MAX : it->first;
}

bool
SackScoreboard::NextResend(uint64_t& seq, uint64_t& end) const
{
    // The lowest gap below the lost point that the receiver does not hold and that was
    // not resent since it was lost...
    uint64_t at = m_una;
    for (uint64_t before = UINT64_MAX; before != at;)
    {
        before = at;
        at = SkipCovered(m_resent, SkipCovered(m_ranges, at));
    }
    bool found = false;
    if (at < m_lostUpTo)
    {
        seq = at;
        end = std::min({m_lostUpTo, NextStart(m_ranges, at), NextStart(m_resent, at)});
        found = true;
    }
    // ...or a range the receiver named lost, whichever comes first.
    if (!m_named.empty() && (!found || m_named.begin()->first < seq))
    {
        seq = m_named.begin()->first;
        end = m_named.begin()->second;
        found = true;
    }
    return found;
}

uint64_t
SackScoreboard::GetLostPendingBytes() const
{
    Ranges pending;
    uint64_t bytes = 0;
    uint64_t at = m_una;
    while (at < m_lostUpTo)
    {
        for (uint64_t before = UINT64_MAX; before != at;)
        {
            before = at;
            at = SkipCovered(m_resent, SkipCovered(m_ranges, at));
        }
        if (at >= m_lostUpTo)
        {
            break;
        }
        const uint64_t end =
            std::min({m_lostUpTo, NextStart(m_ranges, at), NextStart(m_resent, at)});
        bytes += AddRange(pending, at, end);
        at = end;
    }
    for (const auto& [first, last] : m_named)
    {
        bytes += AddRange(pending, first, last);
    }
    return bytes;
}

bool
SackScoreboard::Covers(uint64_t begin, uint64_t end) const
{
    begin = std::max(begin, m_una);
    if (end <= begin)
    {
        return true;
    }
    auto it = m_ranges.upper_bound(begin);
    return it != m_ranges.begin() && std::prev(it)->first <= begin && std::prev(it)->second >= end;
}

void
SackScoreboard::Resent(uint64_t seq, uint64_t upTo)
{
    RemoveRange(m_named, seq, upTo);
    AddRange(m_resent, seq, upTo);
}

} // namespace ns3
