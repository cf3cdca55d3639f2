/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "analytical-topology.h"

#include "ns3/analytical-fabric-dimensions.h"
#include "ns3/astra-network-reader.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AnalyticalTopology");

AnalyticalTopology::AnalyticalTopology(std::vector<AnalyticalDimension> dimensions)
    : m_dimensions(std::move(dimensions))
{
    if (m_dimensions.empty())
    {
        throw InputError("analytical topology: no dimensions");
    }
    uint64_t npus = 1;
    for (size_t d = 0; d < m_dimensions.size(); ++d)
    {
        const AnalyticalDimension& dim = m_dimensions[d];
        const std::string where = "analytical topology: dimension " + std::to_string(d);
        if (dim.npus < 2)
        {
            throw InputError(where + ": npus_count must be larger than 1");
        }
        if (!(dim.bandwidthGBps > 0))
        {
            throw InputError(where + ": bandwidth must be > 0");
        }
        if (!(dim.latencyNs >= 0))
        {
            throw InputError(where + ": latency must be >= 0");
        }
        m_strides.push_back(static_cast<uint32_t>(npus));
        npus *= dim.npus;
        if (npus > (1ULL << 31))
        {
            throw InputError("analytical topology: more than 2^31 NPUs");
        }
    }
    m_npus = static_cast<uint32_t>(npus);
}

AnalyticalTopology
AnalyticalTopology::LoadYaml(const std::string& path)
{
    // The fabric's one ASTRA-sim reader; the dimensions are read back from the fabric.
    return MakeAnalyticalTopology(ReadAstraNetwork(path));
}

std::vector<uint32_t>
AnalyticalTopology::GetNpusPerDimension() const
{
    std::vector<uint32_t> sizes;
    for (const auto& d : m_dimensions)
    {
        sizes.push_back(d.npus);
    }
    return sizes;
}

uint32_t
AnalyticalTopology::FirstDifferingDimension(uint32_t src, uint32_t dst) const
{
    for (uint32_t d = 0; d < m_dimensions.size(); ++d)
    {
        if (GetCoordinate(src, d) != GetCoordinate(dst, d))
        {
            return d;
        }
    }
    return static_cast<uint32_t>(m_dimensions.size());
}

} // namespace ns3
