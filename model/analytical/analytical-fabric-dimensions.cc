/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "analytical-fabric-dimensions.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AnalyticalFabricDimensions");

AnalyticalTopology
MakeAnalyticalTopology(const std::vector<DimensionSpec>& dimensions, double goodputFraction)
{
    if (!(goodputFraction > 0 && goodputFraction <= 1))
    {
        throw InputError("analytical topology: goodput fraction " +
                         std::to_string(goodputFraction) + " is not in (0, 1]");
    }
    std::vector<AnalyticalDimension> out;
    for (const auto& spec : dimensions)
    {
        AnalyticalDimension dim;
        switch (spec.topology)
        {
        case DimensionTopology::Ring:
            dim.block = AnalyticalBlock::Ring;
            break;
        case DimensionTopology::FullyConnected:
            dim.block = AnalyticalBlock::FullyConnected;
            break;
        case DimensionTopology::Switch:
            dim.block = AnalyticalBlock::Switch;
            break;
        }
        dim.npus = spec.npus;
        const double bytesPerSecond =
            static_cast<double>(spec.link.rateBps) / 8.0 * goodputFraction;
        dim.bandwidthGBps = bytesPerSecond / static_cast<double>(1U << 30);
        dim.latencyNs = static_cast<double>(spec.link.delayPs) / 1000.0;
        out.push_back(dim);
    }
    return AnalyticalTopology(std::move(out));
}

} // namespace ns3
