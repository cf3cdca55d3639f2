/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "analytical-fabric-dimensions.h"

#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/multi-dim-builder.h"
#include "ns3/scale-up-framing.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AnalyticalFabricDimensions");

namespace
{

/** ASTRA-sim's GB: 2^30 bytes. */
constexpr double kGigabyte = 1073741824.0;

AnalyticalBlock
BlockOf(DimensionTopology topology)
{
    switch (topology)
    {
    case DimensionTopology::FullyConnected:
        return AnalyticalBlock::FullyConnected;
    case DimensionTopology::Switch:
        return AnalyticalBlock::Switch;
    case DimensionTopology::Ring:
        break;
    }
    return AnalyticalBlock::Ring;
}

DimensionTopology
TopologyOf(AnalyticalBlock block)
{
    switch (block)
    {
    case AnalyticalBlock::FullyConnected:
        return DimensionTopology::FullyConnected;
    case AnalyticalBlock::Switch:
        return DimensionTopology::Switch;
    case AnalyticalBlock::Ring:
        break;
    }
    return DimensionTopology::Ring;
}

/** The dimensions' link settings, or an empty vector and \p why set. */
std::vector<const LinkSettings*>
DimensionLinks(const Fabric& fabric, std::string& why)
{
    const std::string where = "fabric '" + fabric.GetName() + "'";
    const auto& dims = fabric.GetDimensions();
    if (dims.empty())
    {
        why = where + " has no dimension structure (no Ring, FullyConnected or Switch "
                      "dimensions)";
        return {};
    }
    uint64_t product = 1;
    for (size_t d = 0; d < dims.size(); ++d)
    {
        DimensionTopology topology;
        if (!ParseDimensionTopology(dims[d].topology, topology))
        {
            why = where + ": dimension " + std::to_string(d) + " (" + dims[d].name + ") is " +
                  dims[d].topology + ", not Ring, FullyConnected or Switch";
            return {};
        }
        product *= dims[d].size;
    }
    if (product != fabric.GetNpuCount())
    {
        why = where + ": the dimension sizes multiply to " + std::to_string(product) +
              ", not to its " + std::to_string(fabric.GetNpuCount()) + " NPUs";
        return {};
    }
    std::vector<const LinkSettings*> settings(dims.size(), nullptr);
    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        const FabricLink& link = fabric.GetLink(l);
        const std::string name = "link '" + fabric.GetNode(link.nodeA).name + "' - '" +
                                 fabric.GetNode(link.nodeB).name + "'";
        if (link.dimension < 0 || static_cast<size_t>(link.dimension) >= dims.size())
        {
            why = where + ": " + name + " belongs to no dimension";
            return {};
        }
        const LinkSettings*& first = settings[link.dimension];
        if (!first)
        {
            first = &link.settings;
        }
        else if (first->rateBps != link.settings.rateBps || first->delayPs != link.settings.delayPs)
        {
            why = where + ": " + name + " differs in rate or delay from the other links of " +
                  "dimension " + std::to_string(link.dimension) + " (" + dims[link.dimension].name +
                  ")";
            return {};
        }
    }
    for (size_t d = 0; d < dims.size(); ++d)
    {
        if (!settings[d])
        {
            why =
                where + ": dimension " + std::to_string(d) + " (" + dims[d].name + ") has no links";
            return {};
        }
    }
    return settings;
}

} // namespace

bool
HasAnalyticalDimensions(const Fabric& fabric, std::string* why)
{
    std::string reason;
    const bool has = !DimensionLinks(fabric, reason).empty();
    if (!has && why)
    {
        *why = reason;
    }
    return has;
}

AnalyticalTopology
MakeAnalyticalTopology(const Fabric& fabric, double goodputFraction)
{
    if (!(goodputFraction > 0 && goodputFraction <= 1))
    {
        throw InputError("fabric '" + fabric.GetName() + "': goodput fraction " +
                         std::to_string(goodputFraction) + " is not in (0, 1]");
    }
    std::string why;
    const auto links = DimensionLinks(fabric, why);
    if (links.empty())
    {
        throw InputError(why);
    }
    std::vector<AnalyticalDimension> out;
    for (size_t d = 0; d < links.size(); ++d)
    {
        const FabricDimension& meta = fabric.GetDimensions()[d];
        DimensionTopology topology;
        ParseDimensionTopology(meta.topology, topology);
        AnalyticalDimension dim;
        dim.block = BlockOf(topology);
        dim.npus = meta.size;
        // Divisions by powers of two: exact, so a file's 50 GB/s comes back as 50.
        // A scale-up dimension's own framing replaces the RoCE goodput fraction.
        const double fraction = meta.scaleUp ? ScaleUpGoodput(*meta.scaleUp) : goodputFraction;
        const double bytesPerSecond = static_cast<double>(links[d]->rateBps) / 8.0 * fraction;
        dim.bandwidthGBps = bytesPerSecond / kGigabyte;
        dim.latencyNs = static_cast<double>(links[d]->delayPs) / 1000.0;
        if (meta.scaleUp && dim.block == AnalyticalBlock::Switch)
        {
            // Two hops cross the dimension's switch once: half its latency on each.
            dim.latencyNs += static_cast<double>(meta.scaleUp->switchLatencyPs) / 2000.0;
        }
        out.push_back(dim);
    }
    try
    {
        return AnalyticalTopology(std::move(out));
    }
    catch (const InputError& e)
    {
        throw InputError("fabric '" + fabric.GetName() + "': " + e.what());
    }
}

Fabric
MakeDimensionFabric(const AnalyticalTopology& topology, const std::string& name)
{
    std::vector<DimensionSpec> specs;
    for (const auto& dim : topology.GetDimensions())
    {
        DimensionSpec spec;
        spec.topology = TopologyOf(dim.block);
        spec.npus = dim.npus;
        spec.link.rateBps =
            static_cast<uint64_t>(std::llround(dim.bandwidthGBps * kGigabyte * 8.0));
        spec.link.delayPs = static_cast<int64_t>(std::llround(dim.latencyNs * 1000.0));
        specs.push_back(spec);
    }
    return BuildMultiDim(name, specs);
}

} // namespace ns3
