/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-rate-allocator.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowRateAllocator");

FlowRateAllocator::FlowRateAllocator(std::vector<double> capacityBps, bool incremental)
    : m_solver(capacityBps)
    , m_incremental(incremental)
    , m_linkFlows(capacityBps.size())
    , m_linkMark(capacityBps.size(), 0)
{
}

uint32_t
FlowRateAllocator::AddFlow(std::vector<FlowLinkUse> uses)
{
    for (const FlowLinkUse& use : uses)
    {
        NS_ABORT_MSG_UNLESS(use.link < m_linkFlows.size() && use.weight > 0,
                            "flow use of link " << use.link);
    }
    Flow flow;
    flow.slot.assign(uses.size(), 0);
    flow.uses = std::move(uses);
    m_flows.push_back(std::move(flow));
    return static_cast<uint32_t>(m_flows.size() - 1);
}

void
FlowRateAllocator::Attach(uint32_t id)
{
    Flow& flow = m_flows[id];
    for (size_t i = 0; i < flow.uses.size(); ++i)
    {
        auto& list = m_linkFlows[flow.uses[i].link];
        flow.slot[i] = static_cast<uint32_t>(list.size());
        list.push_back(id);
    }
}

void
FlowRateAllocator::Detach(uint32_t id)
{
    Flow& flow = m_flows[id];
    for (size_t i = 0; i < flow.uses.size(); ++i)
    {
        const uint32_t link = flow.uses[i].link;
        auto& list = m_linkFlows[link];
        const uint32_t at = flow.slot[i];
        const uint32_t moved = list.back();
        list[at] = moved;
        list.pop_back();
        if (moved != id)
        {
            // The moved flow's slot on this link (a flow may use a link only once).
            Flow& other = m_flows[moved];
            for (size_t j = 0; j < other.uses.size(); ++j)
            {
                if (other.uses[j].link == link)
                {
                    other.slot[j] = at;
                    break;
                }
            }
        }
    }
}

void
FlowRateAllocator::SetActive(uint32_t id, bool active)
{
    Flow& flow = m_flows[id];
    if (flow.active == active)
    {
        return;
    }
    flow.active = active;
    if (active)
    {
        Attach(id);
        ++m_activeCount;
        m_peakActive = std::max(m_peakActive, m_activeCount);
    }
    else
    {
        Detach(id);
        --m_activeCount;
        flow.rate = 0;
    }
    m_touched.push_back(id);
}

const std::vector<uint32_t>&
FlowRateAllocator::Resolve()
{
    m_changed.clear();
    if (m_touched.empty())
    {
        return m_changed;
    }
    ++m_collection;
    if (m_incremental)
    {
        CollectComponents();
    }
    else
    {
        CollectAll();
    }
    Solve();
    // Stopped flows (rate 0) are reported once, even if stopped and started again.
    for (uint32_t f : m_touched)
    {
        Flow& flow = m_flows[f];
        if (!flow.active && flow.mark != m_collection)
        {
            flow.mark = m_collection;
            m_changed.push_back(f);
        }
    }
    m_touched.clear();
    // In flow order, whatever order the components were walked in: the caller sets its
    // drain events in this order, and drains due at one picosecond go in that order.
    std::sort(m_changed.begin(), m_changed.end());
    return m_changed;
}

void
FlowRateAllocator::CollectComponents()
{
    std::vector<uint32_t>& links = m_linkStack;
    links.clear();
    for (uint32_t touched : m_touched)
    {
        for (const FlowLinkUse& use : m_flows[touched].uses)
        {
            if (m_linkMark[use.link] != m_collection)
            {
                m_linkMark[use.link] = m_collection;
                links.push_back(use.link);
            }
        }
    }
    while (!links.empty())
    {
        const uint32_t link = links.back();
        links.pop_back();
        for (uint32_t f : m_linkFlows[link])
        {
            Flow& flow = m_flows[f];
            if (flow.mark == m_collection)
            {
                continue;
            }
            flow.mark = m_collection;
            m_changed.push_back(f);
            for (const FlowLinkUse& use : flow.uses)
            {
                if (m_linkMark[use.link] != m_collection)
                {
                    m_linkMark[use.link] = m_collection;
                    links.push_back(use.link);
                }
            }
        }
    }
}

void
FlowRateAllocator::CollectAll()
{
    for (uint32_t f = 0; f < m_flows.size(); ++f)
    {
        if (m_flows[f].active)
        {
            m_flows[f].mark = m_collection;
            m_changed.push_back(f);
        }
    }
}

void
FlowRateAllocator::Solve()
{
    if (m_changed.empty())
    {
        return;
    }
    m_problem.clear();
    for (uint32_t f : m_changed)
    {
        m_problem.push_back(&m_flows[f].uses);
    }
    m_solver.Solve(m_problem, m_rates);
    for (size_t i = 0; i < m_changed.size(); ++i)
    {
        m_flows[m_changed[i]].rate = m_rates[i];
    }
    ++m_solveCount;
    m_solvedFlows += m_changed.size();
}

} // namespace ns3
