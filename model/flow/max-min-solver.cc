/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "max-min-solver.h"

#include "ns3/abort.h"
#include "ns3/log.h"

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
    while (unfrozen > 0)
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
        for (size_t i = 0; i < m_activeCount; ++i)
        {
            if (m_active[i].unfrozenWeight <= 0 ||
                m_active[i].residual / m_active[i].unfrozenWeight > limit)
            {
                continue;
            }
            for (uint32_t f : m_active[i].flows)
            {
                if (frozen[f])
                {
                    continue;
                }
                frozen[f] = true;
                --unfrozen;
                rates[f] = level;
                for (const FlowLinkUse& use : *flows[f])
                {
                    Active& a = m_active[m_slot[use.link]];
                    a.residual = std::max(0.0, a.residual - level * use.weight);
                    a.unfrozenWeight -= use.weight;
                    if (a.unfrozenWeight < 1e-12)
                    {
                        a.unfrozenWeight = 0;
                    }
                }
            }
        }
    }
}

} // namespace ns3
