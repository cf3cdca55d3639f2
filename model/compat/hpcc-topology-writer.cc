/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-topology-writer.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccTopologyWriter");

namespace
{

std::string
FormatRate(uint64_t bps)
{
    return bps % 1000000000ULL == 0 ? std::to_string(bps / 1000000000ULL) + "Gbps"
                                    : std::to_string(bps) + "bps";
}

std::string
FormatDelay(int64_t ps)
{
    return ps % 1000 == 0 ? std::to_string(ps / 1000) + "ns" : std::to_string(ps) + "ps";
}

} // namespace

void
WriteHpccTopology(const Fabric& fabric, std::ostream& out)
{
    std::vector<uint32_t> id(fabric.GetNodeCount(), 0);
    std::vector<uint32_t> switches;
    uint32_t next = fabric.GetNpuCount();
    for (uint32_t node = 0; node < fabric.GetNodeCount(); ++node)
    {
        if (fabric.IsNpu(node))
        {
            id[node] = fabric.GetNode(node).rank;
        }
        else
        {
            id[node] = next++;
            switches.push_back(id[node]);
        }
    }
    out << fabric.GetNodeCount() << ' ' << switches.size() << ' ' << fabric.GetLinkCount() << '\n';
    for (size_t i = 0; i < switches.size(); ++i)
    {
        out << (i == 0 ? "" : " ") << switches[i];
    }
    out << '\n';
    out.precision(std::numeric_limits<double>::max_digits10);
    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        const FabricLink& link = fabric.GetLink(l);
        out << id[link.nodeA] << ' ' << id[link.nodeB] << ' ' << FormatRate(link.settings.rateBps)
            << ' ' << FormatDelay(link.settings.delayPs) << ' ' << link.settings.lossProbability
            << '\n';
    }
}

void
WriteHpccTopology(const Fabric& fabric, const std::string& path)
{
    std::ofstream out(path);
    if (!out)
    {
        throw InputError(path + ": cannot write: " + std::strerror(errno));
    }
    WriteHpccTopology(fabric, out);
    if (!out)
    {
        throw InputError(path + ": write failed: " + std::strerror(errno));
    }
}

} // namespace ns3
