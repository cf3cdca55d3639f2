/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "multi-dim-builder.h"

#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/mixed-radix.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MultiDimBuilder");

std::string
GetDimensionTopologyName(DimensionTopology topology)
{
    switch (topology)
    {
    case DimensionTopology::Ring:
        return "Ring";
    case DimensionTopology::FullyConnected:
        return "FullyConnected";
    case DimensionTopology::Switch:
        return "Switch";
    }
    return "?";
}

bool
ParseDimensionTopology(const std::string& name, DimensionTopology& topology)
{
    for (auto t :
         {DimensionTopology::Ring, DimensionTopology::FullyConnected, DimensionTopology::Switch})
    {
        if (name == GetDimensionTopologyName(t))
        {
            topology = t;
            return true;
        }
    }
    return false;
}

namespace
{

/** Connect one group (NPU node ids in coordinate order) of dimension \p index. */
void
ConnectGroup(Fabric& fabric,
             const std::vector<uint32_t>& group,
             const DimensionSpec& spec,
             const std::string& dimName,
             int32_t index,
             uint64_t groupNumber)
{
    const auto n = static_cast<uint32_t>(group.size());
    switch (spec.topology)
    {
    case DimensionTopology::Ring:
        // Two NPUs share one link; a longer ring closes back to the first.
        for (uint32_t i = 0; i < (n == 2 ? 1 : n); ++i)
        {
            fabric.AddLink(group[i], group[(i + 1) % n], spec.link, index);
        }
        break;
    case DimensionTopology::FullyConnected:
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t j = i + 1; j < n; ++j)
            {
                fabric.AddLink(group[i], group[j], spec.link, index);
            }
        }
        break;
    case DimensionTopology::Switch:
    {
        const uint32_t sw =
            fabric.AddSwitch(dimName + "-sw" + std::to_string(groupNumber), dimName, 1, index);
        for (uint32_t npu : group)
        {
            fabric.AddLink(npu, sw, spec.link, index);
        }
        break;
    }
    }
}

} // namespace

void
AddDimensionLinks(Fabric& fabric, const std::vector<DimensionSpec>& dims)
{
    std::vector<uint32_t> sizes;
    for (size_t d = 0; d < dims.size(); ++d)
    {
        const std::string where =
            "fabric '" + fabric.GetName() + "': dimension " + std::to_string(d);
        if (dims[d].npus < 2)
        {
            throw InputError(where + ": npus must be at least 2 (got " +
                             std::to_string(dims[d].npus) + ")");
        }
        if (dims[d].link.rateBps == 0)
        {
            throw InputError(where + ": bandwidth must be > 0");
        }
        sizes.push_back(dims[d].npus);
    }
    const MixedRadix radix(sizes);
    const uint32_t npus = fabric.GetNpuCount();
    if (radix.GetProduct() == 0 || npus % radix.GetProduct() != 0)
    {
        throw InputError("fabric '" + fabric.GetName() + "': " + std::to_string(npus) +
                         " NPUs are not a multiple of the dimension sizes' product " +
                         std::to_string(radix.GetProduct()));
    }
    const auto first = static_cast<int32_t>(fabric.GetDimensions().size());
    for (uint32_t d = 0; d < dims.size(); ++d)
    {
        const int32_t index = first + static_cast<int32_t>(d);
        const std::string name =
            dims[d].name.empty() ? "dim" + std::to_string(index) : dims[d].name;
        fabric.AddDimension(FabricDimension{
            name, GetDimensionTopologyName(dims[d].topology), dims[d].npus, dims[d].scaleUp});
        uint64_t groupNumber = 0;
        for (uint32_t rank = 0; rank < npus; ++rank)
        {
            if (radix.GetCoordinate(rank, d) != 0)
            {
                continue;
            }
            std::vector<uint32_t> group;
            for (uint32_t i = 0; i < dims[d].npus; ++i)
            {
                group.push_back(
                    fabric.GetNpuNode(static_cast<uint32_t>(radix.WithCoordinate(rank, d, i))));
            }
            ConnectGroup(fabric, group, dims[d], name, index, groupNumber++);
        }
    }
}

uint64_t
MultiDimBisectionBps(const std::vector<DimensionSpec>& dims)
{
    if (dims.empty() || dims.back().npus % 2 != 0)
    {
        return 0;
    }
    uint64_t npus = 1;
    for (const auto& dim : dims)
    {
        npus *= dim.npus;
    }
    const DimensionSpec& last = dims.back();
    const uint64_t n = last.npus;
    uint64_t crossing = 0;
    switch (last.topology)
    {
    case DimensionTopology::Ring:
        crossing = n == 2 ? 1 : 2;
        break;
    case DimensionTopology::FullyConnected:
        crossing = (n / 2) * (n / 2);
        break;
    case DimensionTopology::Switch:
        crossing = n / 2;
        break;
    }
    return npus / n * crossing * last.link.rateBps;
}

Fabric
BuildMultiDim(const std::string& name, const std::vector<DimensionSpec>& dims)
{
    if (dims.empty())
    {
        throw InputError("fabric '" + name + "': needs at least one dimension");
    }
    uint64_t npus = 1;
    for (const auto& dim : dims)
    {
        npus *= std::max<uint32_t>(dim.npus, 1);
        if (npus > (1ULL << 24))
        {
            throw InputError("fabric '" + name + "': more than 2^24 NPUs");
        }
    }
    Fabric fabric(name);
    for (uint64_t i = 0; i < npus; ++i)
    {
        fabric.AddNpu();
    }
    AddDimensionLinks(fabric, dims);
    fabric.SetNpuForwarding(true);

    fabric.SetStructuralBisection(MultiDimBisectionBps(dims));
    return fabric;
}

} // namespace ns3
