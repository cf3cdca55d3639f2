/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-info-checks.h"

#include "ns3/log.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtInfoChecks");

namespace
{

/** \return "ALL_REDUCE of 1048576 B (node 5)" */
std::string
Describe(const EtCollectiveCall& call)
{
    return ToString(call.type) + " of " + std::to_string(call.bytes) + " B (node " +
           std::to_string(call.nodeId) + ")";
}

/** \return true if both calls are the same collective */
bool
SameCollective(const EtCollectiveCall& a, const EtCollectiveCall& b)
{
    return a.type == b.type && a.bytes == b.bytes;
}

/**
 * \param ranks every rank's summary
 * \param groups the comm-group file's groups, if any
 * \param checks receives problems
 * \return members of every group some rank uses, by pg_name; unknown groups left out
 */
std::map<std::string, std::vector<uint32_t>>
UsedGroups(const std::vector<EtRankInfo>& ranks,
           const std::optional<EtCommGroups>& groups,
           EtWorkloadChecks& checks)
{
    std::vector<uint32_t> world(ranks.size());
    std::iota(world.begin(), world.end(), 0);
    std::map<std::string, std::vector<uint32_t>> used;
    for (const auto& info : ranks)
    {
        for (const auto& [group, calls] : info.groupCalls)
        {
            const std::string who = "rank " + std::to_string(info.rank) + ": " +
                                    std::to_string(calls.size()) + " collectives on group " +
                                    EtGroupLabel(group);
            const std::vector<uint32_t>* members = nullptr;
            if (EtGroupLabel(group) == "world")
            {
                members = &world;
            }
            else if (groups && groups->count(group) > 0)
            {
                members = &groups->at(group);
            }
            else
            {
                checks.AddProblem(who + (groups ? ", which the comm-group file does not define"
                                                : ", but there is no comm-group file"));
                continue;
            }
            if (!std::binary_search(members->begin(), members->end(), info.rank))
            {
                checks.AddProblem(who + ", which does not include it");
                continue;
            }
            used.emplace(group, *members);
        }
    }
    return used;
}

/** Compare the collective sequences of every member of every used group. */
void
CheckGroupSequences(const std::vector<EtRankInfo>& ranks,
                    const std::map<std::string, std::vector<uint32_t>>& used,
                    EtWorkloadChecks& checks)
{
    static const std::vector<EtCollectiveCall> none;
    auto callsOf = [&](uint32_t rank, const std::string& group) -> const auto&
    {
        const auto it = ranks[rank].groupCalls.find(group);
        return it == ranks[rank].groupCalls.end() ? none : it->second;
    };
    for (const auto& [group, members] : used)
    {
        ++checks.groupsChecked;
        const uint32_t first = members.front();
        const auto& reference = callsOf(first, group);
        bool consistent = true;
        for (uint32_t member : members)
        {
            const auto& calls = callsOf(member, group);
            const std::string label = "group " + EtGroupLabel(group);
            size_t k = 0;
            while (k < calls.size() && k < reference.size() &&
                   SameCollective(calls[k], reference[k]))
            {
                ++k;
            }
            if (k < calls.size() && k < reference.size())
            {
                checks.AddProblem(label + ", collective #" + std::to_string(k) + ": rank " +
                                  std::to_string(first) + " issues " + Describe(reference[k]) +
                                  ", rank " + std::to_string(member) + " " + Describe(calls[k]));
                consistent = false;
            }
            else if (calls.size() != reference.size())
            {
                checks.AddProblem(label + ": rank " + std::to_string(first) + " issues " +
                                  std::to_string(reference.size()) + " collectives, rank " +
                                  std::to_string(member) + " " + std::to_string(calls.size()));
                consistent = false;
            }
        }
        if (consistent)
        {
            checks.collectivesMatched += reference.size();
        }
    }
}

/** Pair every send with a receive of the same source, destination, tag and size. */
void
CheckMessages(const std::vector<EtRankInfo>& ranks, EtWorkloadChecks& checks)
{
    using Key = std::tuple<int64_t, int64_t, int64_t, uint64_t>;
    // Per key: the sends and receives not yet paired, as node ids.
    std::map<Key, std::pair<std::vector<uint64_t>, std::vector<uint64_t>>> open;
    const auto rankCount = static_cast<int64_t>(ranks.size());
    for (const auto& info : ranks)
    {
        for (const auto* list : {&info.sent, &info.received})
        {
            const bool send = list == &info.sent;
            for (const auto& m : *list)
            {
                const int64_t peer = send ? m.dst : m.src;
                if (peer < 0 || peer >= rankCount)
                {
                    checks.AddProblem("rank " + std::to_string(info.rank) + ", node " +
                                      std::to_string(m.nodeId) + ": peer rank " +
                                      std::to_string(peer) + " is not below " +
                                      std::to_string(rankCount));
                    continue;
                }
                auto& [sends, recvs] = open[{m.src, m.dst, m.tag, m.bytes}];
                (send ? sends : recvs).push_back(m.nodeId);
            }
        }
    }
    for (const auto& [key, lists] : open)
    {
        const auto& [src, dst, tag, bytes] = key;
        const auto& [sends, recvs] = lists;
        checks.messagesMatched += std::min(sends.size(), recvs.size());
        const std::string message = std::to_string(bytes) + " B from rank " + std::to_string(src) +
                                    " to rank " + std::to_string(dst) + " with tag " +
                                    std::to_string(tag);
        for (size_t i = recvs.size(); i < sends.size(); ++i)
        {
            checks.AddProblem("rank " + std::to_string(src) + ", node " + std::to_string(sends[i]) +
                              ": sends " + message + ", but rank " + std::to_string(dst) +
                              " posts no matching receive");
        }
        for (size_t i = sends.size(); i < recvs.size(); ++i)
        {
            checks.AddProblem("rank " + std::to_string(dst) + ", node " + std::to_string(recvs[i]) +
                              ": receives " + message + ", but rank " + std::to_string(src) +
                              " sends no such message");
        }
    }
}

} // namespace

void
EtWorkloadChecks::AddProblem(std::string line)
{
    if (++problemCount <= kEtMaxProblemsListed)
    {
        problems.push_back(std::move(line));
    }
}

EtWorkloadChecks
CheckEtWorkload(const std::vector<EtRankInfo>& ranks, const std::optional<EtCommGroups>& groups)
{
    EtWorkloadChecks checks;
    for (const auto& info : ranks)
    {
        for (const auto& problem : info.problems)
        {
            checks.AddProblem("rank " + std::to_string(info.rank) + ", " + problem);
        }
    }
    CheckGroupSequences(ranks, UsedGroups(ranks, groups, checks), checks);
    CheckMessages(ranks, checks);
    return checks;
}

} // namespace ns3
