/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-issue-queue.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayIssueQueue");

ReplayResource
ClassifyReplayResource(const EtNode& node)
{
    if (node.isCpuOp)
    {
        return ReplayResource::Cpu;
    }
    switch (node.type)
    {
    case EtNodeType::COMP_NODE:
        return ReplayResource::Compute;
    case EtNodeType::COMM_COLL_NODE:
    case EtNodeType::COMM_SEND_NODE:
        return ReplayResource::Comm;
    default:
        return ReplayResource::None;
    }
}

const char*
ToString(ReplayResource resource)
{
    switch (resource)
    {
    case ReplayResource::Cpu:
        return "cpu";
    case ReplayResource::Compute:
        return "compute";
    case ReplayResource::Comm:
        return "comm";
    case ReplayResource::None:
        break;
    }
    return "none";
}

ReplayIssueQueue::ReplayIssueQueue(const Limits& limits)
{
    m_limit[static_cast<size_t>(ReplayResource::Cpu)] = limits.cpu;
    m_limit[static_cast<size_t>(ReplayResource::Compute)] = limits.compute;
    m_limit[static_cast<size_t>(ReplayResource::Comm)] = limits.comm;
}

void
ReplayIssueQueue::Push(uint64_t id, uint32_t position, ReplayResource resource)
{
    m_ready[static_cast<size_t>(resource)].emplace(id, position);
}

void
ReplayIssueQueue::TakeIssuable(std::vector<uint32_t>& issued)
{
    issued.clear();
    m_batch.clear();
    for (size_t r = 0; r < kReplayResourceCount; ++r)
    {
        Heap& ready = m_ready[r];
        while (!ready.empty() && (m_limit[r] == 0 || m_running[r] < m_limit[r]))
        {
            m_batch.push_back(ready.top());
            ready.pop();
            ++m_running[r];
        }
    }
    // Each slot kind is independent, so the lowest ids of each kind are exactly the
    // nodes one ascending walk over all ready nodes would issue; merge them in id order.
    std::sort(m_batch.begin(), m_batch.end());
    for (const Entry& e : m_batch)
    {
        issued.push_back(e.second);
    }
}

void
ReplayIssueQueue::Release(ReplayResource resource)
{
    const auto r = static_cast<size_t>(resource);
    NS_ABORT_MSG_IF(m_running[r] == 0, "release of a free " << ToString(resource) << " slot");
    --m_running[r];
}

uint64_t
ReplayIssueQueue::GetReadyCount() const
{
    uint64_t n = 0;
    for (const Heap& h : m_ready)
    {
        n += h.size();
    }
    return n;
}

uint32_t
ReplayIssueQueue::GetRunning(ReplayResource resource) const
{
    return m_running[static_cast<size_t>(resource)];
}

} // namespace ns3
