/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "routing-table.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoutingTable");

std::string
GetRoutingAlgorithmName(RoutingAlgorithm algorithm)
{
    return algorithm == RoutingAlgorithm::ShortestPath ? "shortest" : "dimension-order";
}

bool
ParseRoutingAlgorithm(const std::string& name, RoutingAlgorithm& algorithm)
{
    if (name == "shortest")
    {
        algorithm = RoutingAlgorithm::ShortestPath;
        return true;
    }
    if (name == "dimension-order")
    {
        algorithm = RoutingAlgorithm::DimensionOrder;
        return true;
    }
    return false;
}

size_t
RoutingTable::SetHash::operator()(const std::vector<uint32_t>& ports) const
{
    // FNV-1a over the port numbers.
    uint64_t hash = 1469598103934665603ULL;
    for (uint32_t port : ports)
    {
        hash = (hash ^ port) * 1099511628211ULL;
    }
    return static_cast<size_t>(hash);
}

RoutingTable::RoutingTable(uint32_t nodes, uint32_t npus, RoutingAlgorithm algorithm)
    : m_nodes(nodes)
    , m_npus(npus)
    , m_algorithm(algorithm)
    , m_entrySet(static_cast<uint64_t>(nodes) * npus, 0)
    , m_hops(static_cast<uint64_t>(nodes) * npus, kUnreachable)
    , m_setStart{0, 0}
{
    m_setIds.emplace(std::vector<uint32_t>{}, 0);
}

void
RoutingTable::Set(uint32_t node,
                  uint32_t dstRank,
                  const std::vector<uint32_t>& ports,
                  uint32_t hops)
{
    if (node >= m_nodes || dstRank >= m_npus)
    {
        throw InputError("routing table: no entry for node " + std::to_string(node) + " and NPU " +
                         std::to_string(dstRank));
    }
    if (hops >= kUnreachable)
    {
        throw InputError("routing table: route from node " + std::to_string(node) + " to NPU " +
                         std::to_string(dstRank) + " is longer than " +
                         std::to_string(kUnreachable - 1) + " hops");
    }
    auto found = m_setIds.find(ports);
    uint32_t set = 0;
    if (found != m_setIds.end())
    {
        set = found->second;
    }
    else
    {
        set = static_cast<uint32_t>(m_setStart.size() - 1);
        m_setIds.emplace(ports, set);
        m_setPorts.insert(m_setPorts.end(), ports.begin(), ports.end());
        m_setStart.push_back(static_cast<uint32_t>(m_setPorts.size()));
    }
    m_entrySet[Index(node, dstRank)] = set;
    m_hops[Index(node, dstRank)] = static_cast<uint16_t>(hops);
}

RoutingAlgorithm
RoutingTable::GetAlgorithm() const
{
    return m_algorithm;
}

uint32_t
RoutingTable::GetNodeCount() const
{
    return m_nodes;
}

uint32_t
RoutingTable::GetNpuCount() const
{
    return m_npus;
}

uint32_t
RoutingTable::GetDistinctSetCount() const
{
    return static_cast<uint32_t>(m_setStart.size() - 1);
}

uint64_t
RoutingTable::GetMemoryBytes() const
{
    return m_entrySet.size() * sizeof(uint32_t) + m_hops.size() * sizeof(uint16_t) +
           m_setStart.size() * sizeof(uint32_t) + m_setPorts.size() * sizeof(uint32_t);
}

} // namespace ns3
