/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-collective-matcher.h"

#include "ns3/abort.h"
#include "ns3/collective-tag.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/parallelism-kind.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayCollectiveMatcher");

namespace
{

/** \return "ALL_REDUCE of 1048576 bytes" */
std::string
Describe(CollectiveType type, uint64_t bytes, const std::vector<bool>& involved)
{
    std::string text = ToString(type) + " of " + std::to_string(bytes) + " bytes";
    if (!involved.empty())
    {
        text += " on dimensions [";
        for (size_t d = 0; d < involved.size(); ++d)
        {
            text += (d ? "," : "") + std::string(involved[d] ? "1" : "0");
        }
        text += "]";
    }
    return text;
}

/** \return the group's name as the report shows it */
std::string
GroupLabel(const std::string& group)
{
    return group.empty() ? "the default group" : "group '" + group + "'";
}

} // namespace

ReplayCollectiveMatcher::ReplayCollectiveMatcher(std::shared_ptr<const CollectivePlanner> planner,
                                                 uint32_t worldSize)
    : m_planner(std::move(planner))
    , m_worldSize(worldSize)
{
}

std::shared_ptr<const CollectivePlan>
ReplayCollectiveMatcher::PlanFor(const ReplayCollectiveCall& call)
{
    PlanKey key{call.type, call.bytes, call.group ? call.group->GetName() : "", call.involved};
    auto found = m_plans.find(key);
    if (found != m_plans.end())
    {
        return found->second;
    }
    CollectivePlanner::Request request;
    request.type = call.type;
    request.bytes = call.bytes;
    request.group = call.group;
    request.involvedDimensions = call.involved;
    request.where = call.where;
    auto plan = m_planner->Plan(request);
    m_plans.emplace(std::move(key), plan);
    return plan;
}

const ReplayCollective&
ReplayCollectiveMatcher::Issue(uint32_t rank, const ReplayCollectiveCall& call, Time now)
{
    const std::string group = call.group ? call.group->GetName() : "";
    if (call.group && !call.group->Contains(rank))
    {
        throw InputError(call.where + ": rank " + std::to_string(rank) + " runs " +
                         ToString(call.type) + " on " + GroupLabel(group) +
                         ", which does not include it");
    }
    auto& next = m_nextSequence[group];
    if (next.empty())
    {
        next.assign(m_worldSize, 0);
    }
    const uint64_t sequence = next[rank]++;
    auto open = m_open.find({group, sequence});
    if (open == m_open.end())
    {
        if (m_collectives.size() > CollectiveTag::kMaxCollectiveId)
        {
            throw InputError(call.where + ": more than " +
                             std::to_string(CollectiveTag::kMaxCollectiveId) + " collectives");
        }
        ReplayCollective c;
        c.id = static_cast<uint32_t>(m_collectives.size());
        c.group = group;
        c.sequence = sequence;
        c.type = call.type;
        c.bytes = call.bytes;
        c.involved = call.involved;
        c.plan = PlanFor(call);
        c.members = call.group ? call.group->GetSize() : m_worldSize;
        c.kind = ReportedKind(call.group.get(), m_worldSize);
        c.firstIssue = now;
        c.where = call.where;
        open = m_open.emplace(std::make_pair(group, sequence), c.id).first;
        m_collectives.push_back(std::move(c));
    }
    ReplayCollective& c = m_collectives[open->second];
    if (c.type != call.type || c.bytes != call.bytes || c.involved != call.involved)
    {
        throw InputError(call.where + ": collective #" + std::to_string(sequence) + " of " +
                         GroupLabel(group) + " on rank " + std::to_string(rank) + " is " +
                         Describe(call.type, call.bytes, call.involved) + ", but " + c.where +
                         " issued it as " + Describe(c.type, c.bytes, c.involved) +
                         ": the ranks' traces diverge");
    }
    ++c.issued;
    c.lastIssue = now;
    m_issuedAt[(static_cast<uint64_t>(c.id) << 32) | rank] = now;
    if (c.issued == c.members)
    {
        // Matched on every member: what only matching needs is dropped, so that a
        // trace of many collectives keeps a small record of each.
        m_open.erase(open);
        std::vector<uint32_t>().swap(c.issuedBy);
        std::string().swap(c.where);
    }
    else
    {
        c.issuedBy.push_back(rank);
    }
    return c;
}

void
ReplayCollectiveMatcher::Finish(uint32_t id, uint32_t rank, Time now)
{
    ReplayCollective& c = m_collectives.at(id);
    ++c.finished;
    c.lastFinish = now;
    auto issued = m_issuedAt.find((static_cast<uint64_t>(id) << 32) | rank);
    NS_ABORT_MSG_IF(issued == m_issuedAt.end(),
                    "collective " << id << " finished on rank " << rank << " before its issue");
    const Time took = now - issued->second;
    m_issuedAt.erase(issued);
    c.rankTimeTotal += took;
    c.rankTimeMax = Max(c.rankTimeMax, took);
}

const std::vector<ReplayCollective>&
ReplayCollectiveMatcher::GetCollectives() const
{
    return m_collectives;
}

std::vector<std::string>
ReplayCollectiveMatcher::DescribeIncomplete(size_t limit) const
{
    std::vector<std::string> lines;
    for (const auto& [key, id] : m_open)
    {
        if (lines.size() == limit)
        {
            break;
        }
        const ReplayCollective& c = m_collectives[id];
        lines.push_back(DescribeIssued(c, c.issuedBy));
    }
    return lines;
}

std::string
ReplayCollectiveMatcher::DescribeIssued(const ReplayCollective& c, std::vector<uint32_t> issuedBy)
{
    std::sort(issuedBy.begin(), issuedBy.end());
    std::string who;
    for (size_t i = 0; i < issuedBy.size() && i < 8; ++i)
    {
        who += (i ? "," : "") + std::to_string(issuedBy[i]);
    }
    if (issuedBy.size() > 8)
    {
        who += ",...";
    }
    return ToString(c.type) + " #" + std::to_string(c.sequence) + " of " + GroupLabel(c.group) +
           " was issued by " + std::to_string(issuedBy.size()) + " of its " +
           std::to_string(c.members) + " ranks (" + who + "); the others never reached it";
}

} // namespace ns3
