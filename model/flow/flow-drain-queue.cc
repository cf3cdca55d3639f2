/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-drain-queue.h"

#include <algorithm>

namespace ns3
{

namespace
{
/** Heap order: the later (or later set) entry is "less", so the top is the earliest. */
struct Later
{
    template <class E>
    bool
    operator()(const E& a, const E& b) const
    {
        return a.timePs != b.timePs ? a.timePs > b.timePs : a.order > b.order;
    }
};
} // namespace

void
FlowDrainQueue::Set(uint32_t qp, int64_t timePs)
{
    if (qp >= m_timeOf.size())
    {
        m_timeOf.resize(qp + 1, kNever);
        m_setAt.resize(qp + 1, 0);
    }
    if (m_timeOf[qp] == kNever)
    {
        ++m_live;
    }
    m_timeOf[qp] = timePs;
    m_setAt[qp] = m_order;
    m_heap.push_back({timePs, m_order++, qp});
    std::push_heap(m_heap.begin(), m_heap.end(), Later());
    MaybeCompact();
}

void
FlowDrainQueue::Clear(uint32_t qp)
{
    if (qp < m_timeOf.size() && m_timeOf[qp] != kNever)
    {
        m_timeOf[qp] = kNever;
        --m_live;
    }
}

bool
FlowDrainQueue::IsLive(const Entry& e) const
{
    return m_timeOf[e.qp] == e.timePs && m_setAt[e.qp] == e.order;
}

void
FlowDrainQueue::SkipStale()
{
    while (!m_heap.empty() && !IsLive(m_heap.front()))
    {
        std::pop_heap(m_heap.begin(), m_heap.end(), Later());
        m_heap.pop_back();
    }
}

int64_t
FlowDrainQueue::NextTime()
{
    SkipStale();
    return m_heap.empty() ? kNever : m_heap.front().timePs;
}

bool
FlowDrainQueue::PopDue(int64_t nowPs, uint32_t& qp)
{
    SkipStale();
    if (m_heap.empty() || m_heap.front().timePs > nowPs)
    {
        return false;
    }
    qp = m_heap.front().qp;
    std::pop_heap(m_heap.begin(), m_heap.end(), Later());
    m_heap.pop_back();
    Clear(qp);
    return true;
}

void
FlowDrainQueue::MaybeCompact()
{
    if (m_heap.size() < 4096 || m_heap.size() < 4 * static_cast<size_t>(m_live))
    {
        return;
    }
    m_heap.erase(
        std::remove_if(m_heap.begin(), m_heap.end(), [this](const Entry& e) { return !IsLive(e); }),
        m_heap.end());
    std::make_heap(m_heap.begin(), m_heap.end(), Later());
}

} // namespace ns3
