/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "group-decomposition.h"

#include "ns3/log.h"

#include <algorithm>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GroupDecomposition");

std::string
DimensionsText(const std::vector<uint32_t>& fabricDims)
{
    std::string text;
    for (size_t d = 0; d < fabricDims.size(); ++d)
    {
        text += (d ? "x" : "") + std::to_string(fabricDims[d]);
    }
    return text;
}

GroupDecomposition
DecomposeGroup(const std::vector<uint32_t>& sortedRanks, const std::vector<uint32_t>& fabricDims)
{
    GroupDecomposition out;
    std::vector<std::set<uint32_t>> used(fabricDims.size());
    uint64_t product = 1;
    uint32_t stride = 1;
    for (size_t d = 0; d < fabricDims.size(); ++d)
    {
        for (uint32_t rank : sortedRanks)
        {
            used[d].insert((rank / stride) % fabricDims[d]);
        }
        product *= used[d].size();
        stride *= fabricDims[d];
    }
    // The members are a subset of the product of their coordinate sets; equal sizes
    // make them the whole product.
    if (product != sortedRanks.size())
    {
        std::string shape;
        for (size_t d = 0; d < used.size(); ++d)
        {
            shape += (d ? "x" : "") + std::to_string(used[d].size());
        }
        out.reason = "its " + std::to_string(sortedRanks.size()) +
                     " ranks are no sub-grid of the fabric's dimensions " +
                     DimensionsText(fabricDims) + " (their coordinates span " + shape + " = " +
                     std::to_string(product) + " NPUs)";
        return out;
    }
    out.subGrid = true;
    stride = 1;
    for (size_t d = 0; d < fabricDims.size(); ++d)
    {
        CollectiveTopology::Dimension dim;
        dim.size = static_cast<uint32_t>(used[d].size());
        dim.stride = stride;
        dim.span = fabricDims[d];
        dim.coordinates.assign(used[d].begin(), used[d].end());
        out.dimensions.push_back(std::move(dim));
        stride *= fabricDims[d];
    }
    return out;
}

} // namespace ns3
