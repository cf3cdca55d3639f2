/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "torus-builder.h"

#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/multi-dim-builder.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TorusBuilder");

Fabric
BuildTorus(const std::string& name, const std::vector<uint32_t>& sizes, const LinkSettings& link)
{
    if (sizes.size() != 2 && sizes.size() != 3)
    {
        throw InputError("torus '" + name + "': needs 2 or 3 sizes (got " +
                         std::to_string(sizes.size()) + ")");
    }
    static const char* axes[] = {"x", "y", "z"};
    std::vector<DimensionSpec> dims;
    for (size_t d = 0; d < sizes.size(); ++d)
    {
        dims.push_back(
            DimensionSpec{DimensionTopology::Ring, sizes[d], link, axes[d], std::nullopt});
    }
    return BuildMultiDim(name, dims);
}

} // namespace ns3
