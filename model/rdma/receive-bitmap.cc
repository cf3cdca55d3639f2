/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "receive-bitmap.h"

#include <algorithm>
#include <iterator>

namespace ns3
{

void
ReceiveBitmap::SetCapacity(uint64_t capacityBytes)
{
    m_capacity = capacityBytes;
}

uint64_t
ReceiveBitmap::GetCapacity() const
{
    return m_capacity;
}

uint64_t
ReceiveBitmap::GetExpected() const
{
    return m_expected;
}

uint64_t
ReceiveBitmap::GetHeldBytes() const
{
    return m_held;
}

uint64_t
ReceiveBitmap::GetNewBytes() const
{
    return m_newBytes;
}

uint64_t
ReceiveBitmap::GetAdvance() const
{
    return m_advance;
}

std::vector<ReceiveBitmap::Completed>
ReceiveBitmap::TakeCompleted()
{
    std::vector<Completed> done;
    done.swap(m_completed);
    return done;
}

ReceiveBitmap::Outcome
ReceiveBitmap::Receive(uint64_t seq, uint32_t bytes, bool last, uint64_t tag)
{
    m_newBytes = 0;
    m_advance = 0;
    uint64_t begin = std::max(seq, m_expected);
    const uint64_t end = seq + bytes;
    if (end <= m_expected)
    {
        return DUPLICATE;
    }
    if (seq > m_expected && seq - m_expected >= m_capacity)
    {
        return BEYOND;
    }
    if (last)
    {
        m_lastEnds.emplace(end, tag);
    }
    // Count and merge the bytes not held yet. Packets of one queue pair keep their
    // boundaries on retransmission, but a partial overlap is counted exactly anyway.
    auto it = m_ranges.upper_bound(begin);
    if (it != m_ranges.begin() && std::prev(it)->second >= begin)
    {
        --it;
    }
    uint64_t mergedBegin = begin;
    uint64_t mergedEnd = end;
    uint64_t already = 0;
    while (it != m_ranges.end() && it->first <= end)
    {
        already += std::min(it->second, end) - std::max(it->first, begin);
        mergedBegin = std::min(mergedBegin, it->first);
        mergedEnd = std::max(mergedEnd, it->second);
        m_held -= it->second - it->first;
        it = m_ranges.erase(it);
    }
    m_newBytes = (end - begin) - already;
    m_ranges.emplace(mergedBegin, mergedEnd);
    m_held += mergedEnd - mergedBegin;
    if (m_newBytes == 0)
    {
        return DUPLICATE;
    }
    const bool inOrder = mergedBegin <= m_expected;
    Advance();
    return inOrder ? IN_ORDER : OUT_OF_ORDER;
}

void
ReceiveBitmap::Advance()
{
    const uint64_t before = m_expected;
    auto it = m_ranges.begin();
    if (it != m_ranges.end() && it->first <= m_expected)
    {
        m_expected = std::max(m_expected, it->second);
        m_held -= it->second - it->first;
        m_ranges.erase(it);
    }
    m_advance = m_expected - before;
    while (!m_lastEnds.empty() && m_lastEnds.begin()->first <= m_expected)
    {
        m_completed.push_back({m_lastEnds.begin()->first, m_lastEnds.begin()->second});
        m_lastEnds.erase(m_lastEnds.begin());
    }
}

} // namespace ns3
