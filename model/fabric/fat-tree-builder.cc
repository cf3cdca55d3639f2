/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fat-tree-builder.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FatTreeBuilder");

ClosSpec
MakeFatTreeClosSpec(const FatTreeSpec& spec)
{
    if (spec.k < 2 || spec.k % 2 != 0 || spec.k > 256)
    {
        throw InputError("fat-tree: k must be even and in [2, 256] (got " + std::to_string(spec.k) +
                         ")");
    }
    if (spec.oversubscription == 0 || spec.oversubscription > 64)
    {
        throw InputError("fat-tree: oversubscription must be in [1, 64] (got " +
                         std::to_string(spec.oversubscription) + ")");
    }
    const uint32_t half = spec.k / 2;
    ClosSpec clos;
    clos.tiers = 3;
    clos.hostsPerLeaf = spec.oversubscription * half;
    clos.leavesPerPod = half;
    clos.aggsPerPod = half;
    clos.cores = half * half;
    clos.hostLink = spec.hostLink;
    clos.leafLink = spec.aggLink;
    clos.coreLink = spec.coreLink;
    return clos;
}

uint32_t
GetFatTreeHosts(const FatTreeSpec& spec)
{
    return spec.oversubscription * spec.k * spec.k * spec.k / 4;
}

Fabric
BuildFatTree(const std::string& name, const FatTreeSpec& spec)
{
    const ClosSpec clos = MakeFatTreeClosSpec(spec);
    const uint32_t hosts = GetFatTreeHosts(spec);
    Fabric fabric(name);
    for (uint32_t i = 0; i < hosts; ++i)
    {
        fabric.AddNpu();
    }
    fabric.AddDimension(FabricDimension{"scale-out", "FatTree", hosts, std::nullopt});
    AddClosOverNpus(fabric, clos, 0);
    fabric.SetNpuForwarding(false);
    fabric.SetStructuralBisection(ClosBisectionBps(hosts, clos));
    return fabric;
}

} // namespace ns3
