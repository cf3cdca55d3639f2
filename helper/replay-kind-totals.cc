/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-kind-totals.h"

#include <algorithm>
#include <map>

namespace ns3
{

namespace
{

/** \return the place of \p kind in the reports */
int
KindRank(const std::string& kind)
{
    static const std::vector<std::string> order = {"tp", "dp", "ep", "pp", "world", "group"};
    const auto it = std::find(order.begin(), order.end(), kind);
    return static_cast<int>(it - order.begin());
}

} // namespace

std::vector<ReplayKindTotal>
TotalReplayKinds(const std::vector<ReplayCollectiveRecord>& collectives,
                 const std::vector<ReplaySendRecord>& sends)
{
    std::map<std::string, ReplayKindTotal> byKind;
    for (const auto& c : collectives)
    {
        ReplayKindTotal& t = byKind[c.kind];
        ++t.count;
        t.bytes += c.bytes;
        t.slowest += c.rankMax;
        t.mean += c.rankMean;
        t.skew += c.lastIssue - c.start;
        t.unfinished += c.finishedRanks == c.ranks ? 0 : 1;
    }
    for (const auto& s : sends)
    {
        ReplayKindTotal& t = byKind["pp"];
        ++t.count;
        t.bytes += s.bytes;
        if (s.arrived)
        {
            t.slowest += s.arrival - s.issue;
            t.mean += s.arrival - s.issue;
        }
        else
        {
            ++t.unfinished;
        }
    }
    std::vector<ReplayKindTotal> totals;
    for (auto& [kind, total] : byKind)
    {
        total.kind = kind;
        totals.push_back(total);
    }
    std::stable_sort(totals.begin(),
                     totals.end(),
                     [](const ReplayKindTotal& a, const ReplayKindTotal& b)
                     { return KindRank(a.kind) < KindRank(b.kind); });
    return totals;
}

} // namespace ns3
