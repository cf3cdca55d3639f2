/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rail-builder.h"

#include "ns3/clos-builder.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/multi-dim-builder.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailBuilder");

namespace
{

/** Servers under one rail switch, with 0 meaning all. */
uint32_t
ServersPerRailSwitch(const RailSpec& spec)
{
    return spec.serversPerRailSwitch == 0 ? spec.servers : spec.serversPerRailSwitch;
}

} // namespace

void
AddRails(Fabric& fabric, uint32_t npusPerServer, const RailSpec& spec, int32_t dimension)
{
    const std::string where = "fabric '" + fabric.GetName() + "': rails";
    const uint32_t perSwitch = ServersPerRailSwitch(spec);
    if (spec.servers == 0 || npusPerServer == 0 ||
        static_cast<uint64_t>(spec.servers) * npusPerServer != fabric.GetNpuCount())
    {
        throw InputError(where + ": " + std::to_string(spec.servers) + " servers of " +
                         std::to_string(npusPerServer) + " NPUs do not match the " +
                         std::to_string(fabric.GetNpuCount()) + " NPUs");
    }
    if (perSwitch == 0 || spec.servers % perSwitch != 0)
    {
        throw InputError(where + ": " + std::to_string(spec.servers) +
                         " servers do not fill rail switches of servers_per_rail_switch " +
                         std::to_string(perSwitch));
    }
    const uint32_t switchesPerRail = spec.servers / perSwitch;
    std::vector<std::vector<uint32_t>> groups;
    std::vector<std::string> names;
    for (uint32_t rail = 0; rail < npusPerServer; ++rail)
    {
        for (uint32_t c = 0; c < switchesPerRail; ++c)
        {
            std::vector<uint32_t> group;
            for (uint32_t s = c * perSwitch; s < (c + 1) * perSwitch; ++s)
            {
                group.push_back(fabric.GetNpuNode(s * npusPerServer + rail));
            }
            groups.push_back(group);
            names.push_back("rail" + std::to_string(rail) +
                            (switchesPerRail > 1 ? "-" + std::to_string(c) : ""));
        }
    }
    ClosSpec clos;
    clos.tiers = 2;
    clos.hostsPerLeaf = perSwitch;
    clos.spines = spec.spines;
    clos.hostLink = spec.nicLink;
    clos.leafLink = spec.spineLink;
    if (spec.spines == 0 && switchesPerRail > 1)
    {
        throw InputError(where + ": rails of several switches need spines");
    }
    // Rail-only: each rail switch stands alone; AddClos would refuse many spineless leaves.
    if (spec.spines == 0)
    {
        for (size_t i = 0; i < groups.size(); ++i)
        {
            AddClos(fabric, {groups[i]}, clos, dimension, "rail", {names[i]});
        }
        return;
    }
    AddClos(fabric, groups, clos, dimension, "rail", names);
}

uint64_t
RailBisectionBps(uint32_t npusPerServer, const RailSpec& spec)
{
    const uint32_t perSwitch = ServersPerRailSwitch(spec);
    if (spec.servers % 2 != 0 || perSwitch == 0)
    {
        return 0;
    }
    const uint64_t half = spec.servers / 2;
    const uint64_t nics = half * npusPerServer * spec.nicLink.rateBps;
    if (perSwitch == spec.servers)
    {
        return nics;
    }
    if (half % perSwitch == 0)
    {
        const uint64_t uplinks =
            half / perSwitch * npusPerServer * spec.spines * spec.spineLink.rateBps;
        return std::min(nics, uplinks);
    }
    return 0;
}

Fabric
BuildRailOptimized(const std::string& name,
                   uint32_t npusPerServer,
                   const LinkSettings& scaleUpLink,
                   const RailSpec& spec)
{
    Fabric fabric(name);
    const uint64_t npus = static_cast<uint64_t>(spec.servers) * npusPerServer;
    if (npus == 0 || npus > (1ULL << 24))
    {
        throw InputError("fabric '" + name + "': servers x NPUs per server must be in [1, 2^24]");
    }
    for (uint64_t i = 0; i < npus; ++i)
    {
        fabric.AddNpu();
    }
    if (npusPerServer >= 2)
    {
        AddDimensionLinks(
            fabric,
            {DimensionSpec{
                DimensionTopology::Switch, npusPerServer, scaleUpLink, "scale-up", std::nullopt}});
    }
    const auto railDimension = static_cast<int32_t>(fabric.GetDimensions().size());
    fabric.AddDimension(FabricDimension{"rail", "Rail", spec.servers, std::nullopt});
    AddRails(fabric, npusPerServer, spec, railDimension);
    fabric.SetNpuForwarding(spec.spines == 0);
    fabric.SetStructuralBisection(RailBisectionBps(npusPerServer, spec));
    return fabric;
}

} // namespace ns3
