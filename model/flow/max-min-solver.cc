/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "max-min-solver.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MaxMinSolver");

MaxMinSolver::MaxMinSolver(std::vector<double> capacityBps)
    : m_capacity(std::move(capacityBps))
    , m_slot(m_capacity.size(), 0)
    , m_stamp(m_capacity.size(), 0)
{
    for (double c : m_capacity)
    {
        NS_ABORT_MSG_UNLESS(c > 0, "a directed link without capacity");
    }
}

void
MaxMinSolver::Solve(const std::vector<const std::vector<FlowLinkUse>*>& flows,
                    std::vector<double>& rates)
{
    ++m_solves;
    // The links' flow lists keep their storage from one Solve to the next: a run solves
    // millions of small problems.
    m_activeCount = 0;
    rates.assign(flows.size(), 0.0);
    std::vector<bool>& frozen = m_frozen;
    frozen.assign(flows.size(), false);
    size_t unfrozen = 0;
    for (uint32_t f = 0; f < flows.size(); ++f)
    {
        if (flows[f]->empty())
        {
            frozen[f] = true;
            continue;
        }
        ++unfrozen;
        for (const FlowLinkUse& use : *flows[f])
        {
            if (m_stamp[use.link] != m_solves)
            {
                m_stamp[use.link] = m_solves;
                m_slot[use.link] = static_cast<uint32_t>(m_activeCount);
                if (m_activeCount == m_active.size())
                {
                    m_active.emplace_back();
                }
                Active& a = m_active[m_activeCount++];
                a.link = use.link;
                a.residual = m_capacity[use.link];
                a.unfrozenWeight = 0.0;
                a.flows.clear();
            }
            Active& a = m_active[m_slot[use.link]];
            a.unfrozenWeight += use.weight;
            a.flows.push_back(f);
        }
    }
    m_flows = &flows;
    m_rates = &rates;
    m_unfrozen = unfrozen;
    // Most problems take a few steps, which scans do best; a long one, over many links,
    // goes on with the heap.
    FillByScans(m_activeCount <= kScannedLinks ? std::numeric_limits<uint64_t>::max()
                                               : kScannedSteps);
    if (m_unfrozen > 0)
    {
        FillByHeap();
    }
}

void
MaxMinSolver::FreezeFlowsOf(uint32_t slot, double level, uint64_t step)
{
    for (uint32_t f : m_active[slot].flows)
    {
        if (m_frozen[f])
        {
            continue;
        }
        m_frozen[f] = true;
        --m_unfrozen;
        (*m_rates)[f] = level;
        for (const FlowLinkUse& use : *(*m_flows)[f])
        {
            const uint32_t other = m_slot[use.link];
            Active& a = m_active[other];
            a.residual = std::max(0.0, a.residual - level * use.weight);
            a.unfrozenWeight -= use.weight;
            if (a.unfrozenWeight < 1e-12)
            {
                a.unfrozenWeight = 0;
            }
            if (step > 0 && a.changedInStep != step)
            {
                a.changedInStep = step;
                m_changed.push_back(other);
            }
        }
    }
}

void
MaxMinSolver::FillByScans(uint64_t steps)
{
    for (uint64_t step = 0; m_unfrozen > 0 && step < steps; ++step)
    {
        double level = std::numeric_limits<double>::infinity();
        for (size_t i = 0; i < m_activeCount; ++i)
        {
            const Active& a = m_active[i];
            if (a.unfrozenWeight > 0)
            {
                level = std::min(level, a.residual / a.unfrozenWeight);
            }
        }
        NS_ABORT_MSG_UNLESS(level < std::numeric_limits<double>::infinity(),
                            "unfrozen flows without a link");
        // Links within a relative 1e-12 of the level saturate together: the same
        // bottleneck seen through rounding.
        const double limit = level * (1 + 1e-12);
        for (uint32_t i = 0; i < m_activeCount; ++i)
        {
            if (m_active[i].unfrozenWeight > 0 &&
                m_active[i].residual / m_active[i].unfrozenWeight <= limit)
            {
                FreezeFlowsOf(i, level, 0);
            }
        }
    }
}

void
MaxMinSolver::FillByHeap()
{
    // The same steps as FillByScans, with the links' levels in a heap with lazy deletion:
    // an entry is stale once its link's version has moved on.
    const auto later = [](const Level& a, const Level& b)
    {
        return a.level > b.level;
    };
    m_heap.clear();
    for (uint32_t i = 0; i < m_activeCount; ++i)
    {
        Active& a = m_active[i];
        a.version = 0;
        a.changedInStep = 0;
        if (a.unfrozenWeight > 0)
        {
            m_heap.push_back({a.residual / a.unfrozenWeight, i, 0});
        }
    }
    std::make_heap(m_heap.begin(), m_heap.end(), later);
    m_changed.clear();
    auto stale = [this](const Level& e)
    {
        const Active& a = m_active[e.slot];
        return e.version != a.version || a.unfrozenWeight <= 0;
    };
    auto pop = [this, &later]()
    {
        std::pop_heap(m_heap.begin(), m_heap.end(), later);
        m_heap.pop_back();
    };
    for (uint64_t step = 1; m_unfrozen > 0; ++step)
    {
        while (!m_heap.empty() && stale(m_heap.front()))
        {
            pop();
        }
        NS_ABORT_MSG_IF(m_heap.empty(), "unfrozen flows without a link");
        const double level = m_heap.front().level;
        // The links at the level are visited in link order, each frozen if it is still at
        // the level when its turn comes, as the scan visits them: a link above the level
        // only rises as flows freeze at it.
        const double limit = level * (1 + 1e-12);
        m_saturated.clear();
        while (!m_heap.empty() && (stale(m_heap.front()) || m_heap.front().level <= limit))
        {
            if (!stale(m_heap.front()))
            {
                m_saturated.push_back(m_heap.front().slot);
            }
            pop();
        }
        std::sort(m_saturated.begin(), m_saturated.end());
        for (uint32_t slot : m_saturated)
        {
            const Active& a = m_active[slot];
            if (a.unfrozenWeight > 0 && a.residual / a.unfrozenWeight <= limit)
            {
                FreezeFlowsOf(slot, level, step);
            }
        }
        // A changed link's level goes back in once, at the step's end.
        for (uint32_t slot : m_changed)
        {
            Active& a = m_active[slot];
            ++a.version;
            if (a.unfrozenWeight > 0)
            {
                m_heap.push_back({a.residual / a.unfrozenWeight, slot, a.version});
                std::push_heap(m_heap.begin(), m_heap.end(), later);
            }
        }
        m_changed.clear();
    }
}

} // namespace ns3
