/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "reduction-switch.h"

#include "ns3/input-error.h"
#include "ns3/route-walker.h"

#include <algorithm>
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

} // namespace

uint32_t
ReductionSwitchOf(const Fabric& fabric,
                  const std::vector<uint32_t>& members,
                  const std::function<uint32_t(uint32_t, uint32_t)>& firstDirectedLink)
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

} // namespace ns3
