/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-nccl-dimensions.h"

namespace ns3
{

std::vector<NcclDimension>
ReplayNcclDimensions(const Fabric& fabric, const std::vector<uint32_t>& physicalDimensions)
{
    const auto& dims = fabric.GetDimensions();
    if (dims.size() != physicalDimensions.size())
    {
        return {};
    }
    std::vector<uint64_t> sums(dims.size(), 0);
    for (uint32_t rank = 0; rank < fabric.GetNpuCount(); ++rank)
    {
        for (const auto& port : fabric.GetPorts(fabric.GetNpuNode(rank)))
        {
            const FabricLink& link = fabric.GetLink(port.link);
            if (link.dimension >= 0 && link.dimension < static_cast<int32_t>(dims.size()))
            {
                sums[link.dimension] += link.settings.rateBps;
            }
        }
    }
    std::vector<NcclDimension> out(dims.size());
    const double npus = std::max<uint32_t>(fabric.GetNpuCount(), 1);
    for (size_t d = 0; d < dims.size(); ++d)
    {
        out[d].npuGBps = static_cast<double>(sums[d]) / npus / 8e9;
        out[d].scaleUp = dims[d].scaleUp.has_value();
        // A rail is one switch joining the NPUs of one local index in every server.
        out[d].oneSwitch = dims[d].topology == "Switch" || dims[d].topology == "Rail";
        out[d].switchTree = dims[d].topology == "Clos" || dims[d].topology == "FatTree";
    }
    return out;
}

} // namespace ns3
