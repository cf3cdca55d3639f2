/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Fabric");

Fabric::Fabric(const std::string& name)
    : m_name(name)
{
}

void
Fabric::CheckNode(uint32_t node, const char* what) const
{
    if (node >= m_nodes.size())
    {
        throw InputError("fabric '" + m_name + "': " + what + " " + std::to_string(node) +
                         " is not a node (there are " + std::to_string(m_nodes.size()) + ")");
    }
}

uint32_t
Fabric::AddNode(FabricNode node)
{
    if (node.name.empty())
    {
        throw InputError("fabric '" + m_name + "': a node needs a name");
    }
    const auto id = static_cast<uint32_t>(m_nodes.size());
    if (!m_names.emplace(node.name, id).second)
    {
        throw InputError("fabric '" + m_name + "': two nodes are named '" + node.name + "'");
    }
    boost::add_vertex(m_graph);
    m_nodes.push_back(std::move(node));
    m_ports.emplace_back();
    return id;
}

uint32_t
Fabric::AddNpu(const std::string& name)
{
    FabricNode node;
    node.kind = FabricNodeKind::Npu;
    node.rank = static_cast<uint32_t>(m_npuNodes.size());
    node.name = name.empty() ? "npu" + std::to_string(node.rank) : name;
    node.role = "npu";
    node.tier = 0;
    const uint32_t id = AddNode(std::move(node));
    m_npuNodes.push_back(id);
    return id;
}

uint32_t
Fabric::AddSwitch(const std::string& name,
                  const std::string& role,
                  uint32_t tier,
                  int32_t dimension)
{
    FabricNode node;
    node.kind = FabricNodeKind::Switch;
    node.name = name;
    node.role = role;
    node.tier = tier;
    node.dimension = dimension;
    node.bufferBytes = m_defaultSwitchBuffer;
    node.forwards = true;
    return AddNode(std::move(node));
}

uint32_t
Fabric::AddLink(uint32_t a, uint32_t b, const LinkSettings& settings, int32_t dimension)
{
    CheckNode(a, "link end");
    CheckNode(b, "link end");
    if (a == b)
    {
        throw InputError("fabric '" + m_name + "': link from '" + m_nodes[a].name + "' to itself");
    }
    if (settings.rateBps == 0)
    {
        throw InputError("fabric '" + m_name + "': link '" + m_nodes[a].name + "' - '" +
                         m_nodes[b].name + "' has rate 0");
    }
    if (settings.delayPs < 0)
    {
        throw InputError("fabric '" + m_name + "': link '" + m_nodes[a].name + "' - '" +
                         m_nodes[b].name + "' has a negative delay");
    }
    const auto id = static_cast<uint32_t>(m_links.size());
    FabricLink link;
    link.nodeA = a;
    link.portA = static_cast<uint32_t>(m_ports[a].size());
    link.nodeB = b;
    link.portB = static_cast<uint32_t>(m_ports[b].size());
    link.settings = settings;
    link.dimension = dimension;
    m_ports[a].push_back(FabricPort{id, b, link.portB});
    m_ports[b].push_back(FabricPort{id, a, link.portA});
    m_links.push_back(link);
    boost::add_edge(a, b, id, m_graph);
    return id;
}

void
Fabric::AddDimension(const FabricDimension& dimension)
{
    m_dimensions.push_back(dimension);
}

void
Fabric::SetDefaultSwitchBuffer(uint64_t bytes)
{
    m_defaultSwitchBuffer = bytes;
}

void
Fabric::SetSwitchBuffer(uint32_t node, uint64_t bytes)
{
    CheckNode(node, "switch");
    m_nodes[node].bufferBytes = bytes;
}

void
Fabric::SetNpuForwarding(bool forwards)
{
    for (uint32_t id : m_npuNodes)
    {
        m_nodes[id].forwards = forwards;
    }
}

void
Fabric::SetStructuralBisection(uint64_t bps)
{
    m_structuralBisection = bps;
}

const std::string&
Fabric::GetName() const
{
    return m_name;
}

void
Fabric::SetName(const std::string& name)
{
    m_name = name;
}

uint32_t
Fabric::GetNodeCount() const
{
    return static_cast<uint32_t>(m_nodes.size());
}

uint32_t
Fabric::GetNpuCount() const
{
    return static_cast<uint32_t>(m_npuNodes.size());
}

uint32_t
Fabric::GetSwitchCount() const
{
    return GetNodeCount() - GetNpuCount();
}

uint32_t
Fabric::GetLinkCount() const
{
    return static_cast<uint32_t>(m_links.size());
}

const FabricNode&
Fabric::GetNode(uint32_t node) const
{
    CheckNode(node, "node");
    return m_nodes[node];
}

uint32_t
Fabric::GetNpuNode(uint32_t rank) const
{
    if (rank >= m_npuNodes.size())
    {
        throw InputError("fabric '" + m_name + "': no NPU " + std::to_string(rank) +
                         " (there are " + std::to_string(m_npuNodes.size()) + ")");
    }
    return m_npuNodes[rank];
}

bool
Fabric::IsNpu(uint32_t node) const
{
    return GetNode(node).kind == FabricNodeKind::Npu;
}

uint32_t
Fabric::FindNode(const std::string& name) const
{
    auto it = m_names.find(name);
    return it == m_names.end() ? kNoNode : it->second;
}

uint32_t
Fabric::GetPortCount(uint32_t node) const
{
    CheckNode(node, "node");
    return static_cast<uint32_t>(m_ports[node].size());
}

const FabricPort&
Fabric::GetPort(uint32_t node, uint32_t port) const
{
    CheckNode(node, "node");
    if (port >= m_ports[node].size())
    {
        throw InputError("fabric '" + m_name + "': node '" + m_nodes[node].name + "' has no port " +
                         std::to_string(port));
    }
    return m_ports[node][port];
}

const std::vector<FabricPort>&
Fabric::GetPorts(uint32_t node) const
{
    CheckNode(node, "node");
    return m_ports[node];
}

const FabricLink&
Fabric::GetLink(uint32_t link) const
{
    if (link >= m_links.size())
    {
        throw InputError("fabric '" + m_name + "': no link " + std::to_string(link));
    }
    return m_links[link];
}

const ScaleUpSettings*
Fabric::GetLinkScaleUp(uint32_t link) const
{
    const int32_t d = GetLink(link).dimension;
    if (d < 0 || static_cast<size_t>(d) >= m_dimensions.size() || !m_dimensions[d].scaleUp)
    {
        return nullptr;
    }
    return &*m_dimensions[d].scaleUp;
}

const std::vector<FabricDimension>&
Fabric::GetDimensions() const
{
    return m_dimensions;
}

uint64_t
Fabric::GetStructuralBisection() const
{
    return m_structuralBisection;
}

uint64_t
Fabric::GetDefaultSwitchBuffer() const
{
    return m_defaultSwitchBuffer;
}

void
Fabric::SetRelayBuffer(uint64_t bytes)
{
    m_relayBuffer = bytes;
}

uint64_t
Fabric::GetRelayBuffer() const
{
    return m_relayBuffer;
}

const Fabric::Graph&
Fabric::GetGraph() const
{
    return m_graph;
}

} // namespace ns3
