/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "reduction-switch.h"

#include "ns3/input-error.h"
#include "ns3/route-walker.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <string>

namespace ns3
{

namespace
{

/** \return "0,1,2" for the first eight ranks, ",..." after */
std::string
RankList(const std::vector<uint32_t>& ranks)
{
    std::string list;
    for (size_t i = 0; i < ranks.size() && i < 8; ++i)
    {
        list += (i ? "," : "") + std::to_string(ranks[i]);
    }
    return list + (ranks.size() > 8 ? ",..." : "");
}

/** The switches linked to every member. */
std::vector<uint32_t>
CommonSwitches(const Fabric& fabric, const std::vector<uint32_t>& members)
{
    std::vector<uint32_t> common;
    for (const FabricPort& port : fabric.GetPorts(fabric.GetNpuNode(members.front())))
    {
        if (!fabric.IsNpu(port.peer))
        {
            common.push_back(port.peer);
        }
    }
    for (uint32_t rank : members)
    {
        std::vector<uint32_t> linked;
        for (const FabricPort& port : fabric.GetPorts(fabric.GetNpuNode(rank)))
        {
            if (std::find(common.begin(), common.end(), port.peer) != common.end() &&
                std::find(linked.begin(), linked.end(), port.peer) == linked.end())
            {
                linked.push_back(port.peer);
            }
        }
        common = std::move(linked);
    }
    return common;
}

constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();

/**
 * Breadth-first search from \p root through switches only.
 * \param dist set to the switch hops from the root to every node (kUnreached for NPUs
 *        and for switches it cannot reach)
 * \param parent set to each reached switch's parent toward the root
 */
void
SearchSwitches(const Fabric& fabric,
               uint32_t root,
               std::vector<uint32_t>& dist,
               std::vector<uint32_t>& parent)
{
    dist.assign(fabric.GetNodeCount(), kUnreached);
    parent.assign(fabric.GetNodeCount(), kUnreached);
    dist[root] = 0;
    std::deque<uint32_t> frontier{root};
    while (!frontier.empty())
    {
        const uint32_t node = frontier.front();
        frontier.pop_front();
        for (const FabricPort& port : fabric.GetPorts(node))
        {
            if (fabric.IsNpu(port.peer) || dist[port.peer] != kUnreached)
            {
                continue;
            }
            dist[port.peer] = dist[node] + 1;
            parent[port.peer] = node;
            frontier.push_back(port.peer);
        }
    }
}

/** \return the switch linked to \p rank that is nearest the root (first port on ties) */
uint32_t
NearestSwitch(const Fabric& fabric, uint32_t rank, const std::vector<uint32_t>& dist)
{
    uint32_t best = kUnreached;
    for (const FabricPort& port : fabric.GetPorts(fabric.GetNpuNode(rank)))
    {
        if (!fabric.IsNpu(port.peer) && dist[port.peer] != kUnreached &&
            (best == kUnreached || dist[port.peer] < dist[best]))
        {
            best = port.peer;
        }
    }
    return best;
}

/**
 * FNV-1a over the ranks, then splitmix64's finalizer so that every bit depends on every
 * rank (FNV's lowest bit is only the ranks' parity): the same member set always picks the
 * same root.
 */
uint64_t
HashOf(const std::vector<uint32_t>& ranks)
{
    uint64_t h = 1469598103934665603ULL;
    for (uint32_t rank : ranks)
    {
        h = (h ^ rank) * 1099511628211ULL;
    }
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
}

/** \return the roots every member reaches in the fewest switch hops (then fewest in all) */
std::vector<uint32_t>
NearestRoots(const Fabric& fabric, const std::vector<uint32_t>& members)
{
    std::vector<uint32_t> roots;
    uint64_t bestDepth = kUnreached;
    uint64_t bestSum = 0;
    std::vector<uint32_t> dist;
    std::vector<uint32_t> parent;
    for (uint32_t node = 0; node < fabric.GetNodeCount(); ++node)
    {
        if (fabric.IsNpu(node))
        {
            continue;
        }
        SearchSwitches(fabric, node, dist, parent);
        uint64_t depth = 0;
        uint64_t sum = 0;
        for (uint32_t rank : members)
        {
            const uint32_t joined = NearestSwitch(fabric, rank, dist);
            if (joined == kUnreached)
            {
                depth = kUnreached;
                break;
            }
            depth = std::max<uint64_t>(depth, dist[joined] + 1);
            sum += dist[joined] + 1;
        }
        if (depth < bestDepth || (depth == bestDepth && depth != kUnreached && sum < bestSum))
        {
            roots.clear();
            bestDepth = depth;
            bestSum = sum;
        }
        if (depth == bestDepth && sum == bestSum && depth != kUnreached)
        {
            roots.push_back(node);
        }
    }
    return roots;
}

} // namespace

bool
ReductionTree::IsSingleSwitch() const
{
    return switches.size() == 1;
}

uint32_t
ReductionTree::GetDepth() const
{
    uint32_t depth = 0;
    for (uint32_t s : attach)
    {
        uint32_t levels = 1;
        for (int32_t up = switches[s].parent; up >= 0; up = switches[up].parent)
        {
            ++levels;
        }
        depth = std::max(depth, levels);
    }
    return depth;
}

uint32_t
ReductionSwitchOf(const Fabric& fabric,
                  const std::vector<uint32_t>& members,
                  const std::function<uint32_t(uint32_t, uint32_t)>& firstDirectedLink)
{
    const std::vector<uint32_t> common = CommonSwitches(fabric, members);
    if (common.empty())
    {
        throw InputError("fabric '" + fabric.GetName() +
                         "': in-switch reduction (nvls, inNetwork) over ranks " +
                         RankList(members) + ": no switch is linked to every one of them");
    }
    if (common.size() == 1 || members.size() < 2)
    {
        return common.front();
    }
    const uint32_t first = firstDirectedLink(members[0], members[1]);
    const FabricLink& link = fabric.GetLink(RouteWalker::LinkOf(first));
    const uint32_t hop = first % 2 == 0 ? link.nodeB : link.nodeA;
    return std::find(common.begin(), common.end(), hop) != common.end() ? hop : common.front();
}

ReductionTree
ReductionTreeOf(const Fabric& fabric,
                const std::vector<uint32_t>& members,
                const std::function<uint32_t(uint32_t, uint32_t)>& firstDirectedLink)
{
    ReductionTree tree;
    if (!CommonSwitches(fabric, members).empty())
    {
        ReductionTree::Switch only;
        only.node = ReductionSwitchOf(fabric, members, firstDirectedLink);
        for (uint32_t m = 0; m < members.size(); ++m)
        {
            only.members.push_back(m);
        }
        tree.switches.push_back(std::move(only));
        tree.attach.assign(members.size(), 0);
        return tree;
    }
    const std::vector<uint32_t> roots = NearestRoots(fabric, members);
    if (roots.empty())
    {
        throw InputError("fabric '" + fabric.GetName() +
                         "': in-switch reduction (nvls, inNetwork) over ranks " +
                         RankList(members) +
                         ": no switch is linked to every one of them, nor reachable from each of "
                         "them through switches");
    }
    const uint32_t root = roots[HashOf(members) % roots.size()];
    std::vector<uint32_t> dist;
    std::vector<uint32_t> parent;
    SearchSwitches(fabric, root, dist, parent);
    // The switches on every member's way up, in breadth-first order from the root.
    std::vector<uint32_t> joined(members.size());
    std::vector<uint32_t> nodes;
    for (uint32_t m = 0; m < members.size(); ++m)
    {
        joined[m] = NearestSwitch(fabric, members[m], dist);
        for (uint32_t sw = joined[m]; sw != kUnreached; sw = parent[sw])
        {
            if (std::find(nodes.begin(), nodes.end(), sw) != nodes.end())
            {
                break;
            }
            nodes.push_back(sw);
        }
    }
    std::sort(nodes.begin(),
              nodes.end(),
              [&dist](uint32_t a, uint32_t b)
              { return dist[a] != dist[b] ? dist[a] < dist[b] : a < b; });
    auto indexOf = [&nodes](uint32_t node)
    {
        return static_cast<uint32_t>(std::find(nodes.begin(), nodes.end(), node) - nodes.begin());
    };
    for (uint32_t node : nodes)
    {
        ReductionTree::Switch sw;
        sw.node = node;
        sw.parent = node == root ? -1 : static_cast<int32_t>(indexOf(parent[node]));
        tree.switches.push_back(std::move(sw));
    }
    for (uint32_t s = 1; s < tree.switches.size(); ++s)
    {
        tree.switches[tree.switches[s].parent].below.push_back(s);
    }
    for (uint32_t m = 0; m < members.size(); ++m)
    {
        tree.attach.push_back(indexOf(joined[m]));
        tree.switches[tree.attach.back()].members.push_back(m);
    }
    return tree;
}

} // namespace ns3
