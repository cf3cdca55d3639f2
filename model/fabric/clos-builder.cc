/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "clos-builder.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClosBuilder");

uint32_t
UplinksForOversubscription(uint32_t downlinks,
                           uint64_t downRateBps,
                           uint64_t upRateBps,
                           double ratio,
                           const std::string& what)
{
    if (!(ratio >= 1) || upRateBps == 0)
    {
        throw InputError(what + ": oversubscription must be at least 1");
    }
    const double uplinks = static_cast<double>(downlinks) * static_cast<double>(downRateBps) /
                           (ratio * static_cast<double>(upRateBps));
    const double whole = std::round(uplinks);
    if (whole < 1 || std::abs(uplinks - whole) > 1e-9 * uplinks)
    {
        std::ostringstream text;
        text << what << ": oversubscription " << ratio << " needs " << uplinks
             << " uplinks per switch; choose a ratio that gives a whole number";
        throw InputError(text.str());
    }
    return static_cast<uint32_t>(whole);
}

void
AddClos(Fabric& fabric,
        const std::vector<std::vector<uint32_t>>& leafGroups,
        const ClosSpec& spec,
        int32_t dimension,
        const std::string& leafRole,
        const std::vector<std::string>& leafNames)
{
    const std::string where = "fabric '" + fabric.GetName() + "': Clos";
    const auto leaves = static_cast<uint32_t>(leafGroups.size());
    if (leaves == 0)
    {
        throw InputError(where + ": no leaves");
    }
    if (spec.tiers != 2 && spec.tiers != 3)
    {
        throw InputError(where + ": tiers must be 2 or 3 (got " + std::to_string(spec.tiers) + ")");
    }
    std::vector<uint32_t> leafIds;
    for (uint32_t i = 0; i < leaves; ++i)
    {
        const std::string name = i < leafNames.size() ? leafNames[i] : "leaf" + std::to_string(i);
        const uint32_t leaf = fabric.AddSwitch(name, leafRole, 1, dimension);
        leafIds.push_back(leaf);
        for (uint32_t endpoint : leafGroups[i])
        {
            fabric.AddLink(endpoint, leaf, spec.hostLink, dimension);
        }
    }

    if (spec.tiers == 2)
    {
        if (spec.spines == 0 && leaves > 1)
        {
            throw InputError(where + ": " + std::to_string(leaves) +
                             " leaves need at least one spine");
        }
        std::vector<uint32_t> spineIds;
        for (uint32_t s = 0; s < spec.spines; ++s)
        {
            spineIds.push_back(
                fabric.AddSwitch("spine" + std::to_string(s), "spine", 2, dimension));
        }
        for (uint32_t leaf : leafIds)
        {
            for (uint32_t spine : spineIds)
            {
                fabric.AddLink(leaf, spine, spec.leafLink, dimension);
            }
        }
        return;
    }

    if (spec.leavesPerPod == 0 || leaves % spec.leavesPerPod != 0)
    {
        throw InputError(where + ": " + std::to_string(leaves) +
                         " leaves do not fill pods of leaves_per_pod " +
                         std::to_string(spec.leavesPerPod));
    }
    if (spec.aggsPerPod == 0 || spec.cores == 0 || spec.cores % spec.aggsPerPod != 0)
    {
        throw InputError(where + ": cores (" + std::to_string(spec.cores) +
                         ") must be a positive multiple of aggs_per_pod (" +
                         std::to_string(spec.aggsPerPod) + ")");
    }
    const uint32_t pods = leaves / spec.leavesPerPod;
    const uint32_t coresPerAgg = spec.cores / spec.aggsPerPod;
    std::vector<uint32_t> coreIds;
    for (uint32_t c = 0; c < spec.cores; ++c)
    {
        coreIds.push_back(fabric.AddSwitch("core" + std::to_string(c), "core", 3, dimension));
    }
    for (uint32_t p = 0; p < pods; ++p)
    {
        for (uint32_t a = 0; a < spec.aggsPerPod; ++a)
        {
            const uint32_t agg = fabric.AddSwitch(
                "agg" + std::to_string(p) + "-" + std::to_string(a), "agg", 2, dimension);
            for (uint32_t l = 0; l < spec.leavesPerPod; ++l)
            {
                fabric.AddLink(leafIds[p * spec.leavesPerPod + l], agg, spec.leafLink, dimension);
            }
            for (uint32_t c = 0; c < coresPerAgg; ++c)
            {
                fabric.AddLink(agg, coreIds[a * coresPerAgg + c], spec.coreLink, dimension);
            }
        }
    }
}

void
AddClosOverNpus(Fabric& fabric, const ClosSpec& spec, int32_t dimension)
{
    const uint32_t npus = fabric.GetNpuCount();
    if (spec.hostsPerLeaf == 0 || npus % spec.hostsPerLeaf != 0)
    {
        throw InputError("fabric '" + fabric.GetName() + "': " + std::to_string(npus) +
                         " NPUs do not fill leaves of hosts_per_leaf " +
                         std::to_string(spec.hostsPerLeaf));
    }
    std::vector<std::vector<uint32_t>> groups(npus / spec.hostsPerLeaf);
    for (uint32_t rank = 0; rank < npus; ++rank)
    {
        groups[rank / spec.hostsPerLeaf].push_back(fabric.GetNpuNode(rank));
    }
    AddClos(fabric, groups, spec, dimension);
}

uint64_t
ClosBisectionBps(uint32_t endpoints, const ClosSpec& spec)
{
    if (spec.hostsPerLeaf == 0 || endpoints % 2 != 0)
    {
        return 0;
    }
    const uint64_t hosts = static_cast<uint64_t>(endpoints) / 2 * spec.hostLink.rateBps;
    const uint64_t leaves = endpoints / spec.hostsPerLeaf;
    if (leaves == 1)
    {
        return hosts;
    }
    if (spec.tiers == 2)
    {
        return leaves % 2 == 0 ? std::min(hosts, leaves / 2 * spec.spines * spec.leafLink.rateBps)
                               : 0;
    }
    if (spec.leavesPerPod == 0 || leaves % spec.leavesPerPod != 0)
    {
        return 0;
    }
    const uint64_t pods = leaves / spec.leavesPerPod;
    if (pods == 1)
    {
        return spec.leavesPerPod % 2 == 0 ? std::min(hosts,
                                                     uint64_t{spec.leavesPerPod} / 2 *
                                                         spec.aggsPerPod * spec.leafLink.rateBps)
                                          : 0;
    }
    if (pods % 2 != 0)
    {
        return 0;
    }
    const uint64_t podUplinks =
        pods / 2 * spec.leavesPerPod * spec.aggsPerPod * spec.leafLink.rateBps;
    const uint64_t coreUplinks = pods / 2 * spec.cores * spec.coreLink.rateBps;
    return std::min({hosts, podUplinks, coreUplinks});
}

Fabric
BuildClos(const std::string& name, uint32_t npus, const ClosSpec& spec)
{
    Fabric fabric(name);
    for (uint32_t i = 0; i < npus; ++i)
    {
        fabric.AddNpu();
    }
    fabric.AddDimension(FabricDimension{"scale-out", "Clos", npus, std::nullopt});
    AddClosOverNpus(fabric, spec, 0);
    fabric.SetNpuForwarding(false);
    fabric.SetStructuralBisection(ClosBisectionBps(npus, spec));
    return fabric;
}

} // namespace ns3
