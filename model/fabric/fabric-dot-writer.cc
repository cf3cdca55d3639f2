/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-dot-writer.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricDotWriter");

namespace
{

/** Rate as a short label: "400G", "2.5G", "100M". */
std::string
RateLabel(uint64_t bps)
{
    std::ostringstream text;
    if (bps >= 1000000000ULL)
    {
        text << static_cast<double>(bps) / 1e9 << "G";
    }
    else
    {
        text << static_cast<double>(bps) / 1e6 << "M";
    }
    return text.str();
}

/** Escape a name for a quoted DOT identifier. */
std::string
Quote(const std::string& name)
{
    std::string quoted = "\"";
    for (char c : name)
    {
        if (c == '"' || c == '\\')
        {
            quoted += '\\';
        }
        quoted += c;
    }
    return quoted + "\"";
}

} // namespace

void
WriteFabricDot(const Fabric& fabric, std::ostream& out)
{
    static const char* colours[] = {
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
    out << "graph " << Quote(fabric.GetName()) << " {\n";
    out << "  graph [rankdir=BT, splines=false, nodesep=0.15, ranksep=1.2];\n";
    out << "  node [fontsize=9, height=0.3];\n";
    out << "  edge [fontsize=7];\n";
    std::map<uint32_t, std::vector<uint32_t>> tiers;
    for (uint32_t node = 0; node < fabric.GetNodeCount(); ++node)
    {
        tiers[fabric.GetNode(node).tier].push_back(node);
    }
    for (const auto& [tier, nodes] : tiers)
    {
        out << "  { rank=same;";
        for (uint32_t node : nodes)
        {
            out << ' ' << Quote(fabric.GetNode(node).name) << ';';
        }
        out << " }\n";
    }
    for (uint32_t node = 0; node < fabric.GetNodeCount(); ++node)
    {
        const FabricNode& n = fabric.GetNode(node);
        out << "  " << Quote(n.name);
        if (n.kind == FabricNodeKind::Npu)
        {
            out << " [shape=ellipse, style=filled, fillcolor=\"#fff2cc\"];\n";
        }
        else
        {
            out << " [shape=box, style=filled, fillcolor=\"#dae8fc\", tooltip=" << Quote(n.role)
                << "];\n";
        }
    }
    // Labels on every link only while they stay readable.
    const bool labels = fabric.GetLinkCount() <= 200;
    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        const FabricLink& link = fabric.GetLink(l);
        out << "  " << Quote(fabric.GetNode(link.nodeA).name) << " -- "
            << Quote(fabric.GetNode(link.nodeB).name) << " [color=\""
            << (link.dimension < 0 ? "#555555" : colours[link.dimension % 6]) << "\"";
        if (labels)
        {
            out << ", label=" << Quote(RateLabel(link.settings.rateBps));
        }
        out << "];\n";
    }
    out << "}\n";
}

void
WriteFabricDot(const Fabric& fabric, const std::string& path)
{
    std::ofstream out(path);
    if (!out)
    {
        throw InputError(path + ": cannot write: " + std::strerror(errno));
    }
    WriteFabricDot(fabric, out);
    if (!out)
    {
        throw InputError(path + ": write failed: " + std::strerror(errno));
    }
}

} // namespace ns3
