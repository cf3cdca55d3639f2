/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "channel-dependency-graph.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <boost/graph/depth_first_search.hpp>

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChannelDependencyGraph");

namespace
{

/** Thrown inside the depth-first search to stop it at the first back edge. */
struct CycleFound
{
    uint32_t from; //!< tail of the back edge
    uint32_t to;   //!< head of the back edge, an ancestor of from
};

/** Records the search tree and stops at the first back edge. */
class CycleVisitor : public boost::default_dfs_visitor
{
  public:
    /** \param parent vertex -> parent in the search tree */
    explicit CycleVisitor(std::vector<uint32_t>& parent)
        : m_parent(parent)
    {
    }

    /** \param e a tree edge \param g the graph */
    template <class Edge, class G>
    void
    tree_edge(Edge e, const G& g)
    {
        m_parent[boost::target(e, g)] = static_cast<uint32_t>(boost::source(e, g));
    }

    /** \param e a back edge \param g the graph */
    template <class Edge, class G>
    void
    back_edge(Edge e, const G& g)
    {
        throw CycleFound{static_cast<uint32_t>(boost::source(e, g)),
                         static_cast<uint32_t>(boost::target(e, g))};
    }

  private:
    std::vector<uint32_t>& m_parent; //!< search tree
};

} // namespace

ChannelDependencyGraph::ChannelDependencyGraph(const Fabric& fabric, const RoutingTable& routing)
    : m_fabric(fabric)
    , m_graph(2 * fabric.GetLinkCount())
{
    Build(routing);
    FindCycle();
}

void
ChannelDependencyGraph::Build(const RoutingTable& routing)
{
    const uint32_t nodes = m_fabric.GetNodeCount();
    // A dependency is a (node, in-port, out-port) triple; one bit each removes repeats.
    std::vector<uint64_t> tripleBase(nodes + 1, 0);
    for (uint32_t v = 0; v < nodes; ++v)
    {
        const uint64_t degree = m_fabric.GetPortCount(v);
        tripleBase[v + 1] = tripleBase[v] + degree * degree;
    }
    if (tripleBase[nodes] > (1ULL << 32))
    {
        throw InputError("fabric '" + m_fabric.GetName() +
                         "': too many port pairs for the channel dependency analysis");
    }
    std::vector<bool> seen(tripleBase[nodes], false);

    std::vector<std::vector<uint32_t>> byHops;
    std::vector<char> active(nodes, 0);
    std::vector<std::vector<uint32_t>> inPorts(nodes);
    for (uint32_t dst = 0; dst < routing.GetNpuCount(); ++dst)
    {
        for (auto& level : byHops)
        {
            level.clear();
        }
        for (uint32_t v = 0; v < nodes; ++v)
        {
            const uint32_t hops = routing.GetHops(v, dst);
            if (hops == RoutingTable::kUnreachable || hops == 0)
            {
                continue;
            }
            if (byHops.size() <= hops)
            {
                byHops.resize(hops + 1);
            }
            byHops[hops].push_back(v);
            active[v] = m_fabric.IsNpu(v) ? 1 : 0;
            inPorts[v].clear();
        }
        // Farthest first: every hop lands one level nearer, so a node's in-ports are
        // complete when its level comes.
        for (size_t level = byHops.size(); level-- > 1;)
        {
            for (uint32_t v : byHops[level])
            {
                if (active[v] == 0)
                {
                    continue;
                }
                const auto& ports = m_fabric.GetPorts(v);
                for (uint32_t out : routing.GetEgressPorts(v, dst))
                {
                    const uint32_t next = ports[out].peer;
                    if (routing.GetHops(next, dst) != 0)
                    {
                        active[next] = 1;
                        inPorts[next].push_back(ports[out].peerPort);
                    }
                    for (uint32_t in : inPorts[v])
                    {
                        const uint64_t bit = tripleBase[v] + uint64_t{in} * ports.size() + out;
                        if (seen[bit])
                        {
                            continue;
                        }
                        seen[bit] = true;
                        const FabricLink& inLink = m_fabric.GetLink(ports[in].link);
                        const FabricLink& outLink = m_fabric.GetLink(ports[out].link);
                        // In on a link toward v, out on a link away from v.
                        const uint32_t from =
                            GetChannel(ports[in].link, inLink.nodeB == v && inLink.portB == in);
                        const uint32_t to =
                            GetChannel(ports[out].link, outLink.nodeA == v && outLink.portA == out);
                        boost::add_edge(from, to, m_graph);
                        ++m_dependencies;
                    }
                }
            }
        }
    }
}

void
ChannelDependencyGraph::FindCycle()
{
    std::vector<uint32_t> parent(boost::num_vertices(m_graph), 0);
    std::vector<boost::default_color_type> color(boost::num_vertices(m_graph));
    try
    {
        boost::depth_first_search(
            m_graph,
            boost::visitor(CycleVisitor(parent))
                .color_map(boost::make_iterator_property_map(
                    color.begin(), boost::get(boost::vertex_index, m_graph))));
    }
    catch (const CycleFound& found)
    {
        // Walk the tree from the back edge's tail up to its head, then close the loop.
        for (uint32_t c = found.from; c != found.to; c = parent[c])
        {
            m_cycle.push_back(c);
        }
        m_cycle.push_back(found.to);
        std::reverse(m_cycle.begin(), m_cycle.end());
    }
}

uint32_t
ChannelDependencyGraph::GetChannelCount() const
{
    return static_cast<uint32_t>(boost::num_vertices(m_graph));
}

uint64_t
ChannelDependencyGraph::GetDependencyCount() const
{
    return m_dependencies;
}

bool
ChannelDependencyGraph::IsCyclic() const
{
    return !m_cycle.empty();
}

const std::vector<uint32_t>&
ChannelDependencyGraph::GetCycle() const
{
    return m_cycle;
}

std::string
ChannelDependencyGraph::DescribeChannel(uint32_t channel) const
{
    const FabricLink& link = m_fabric.GetLink(channel / 2);
    const bool fromA = channel % 2 == 0;
    const std::string& a = m_fabric.GetNode(link.nodeA).name;
    const std::string& b = m_fabric.GetNode(link.nodeB).name;
    return fromA ? a + "->" + b : b + "->" + a;
}

std::string
ChannelDependencyGraph::DescribeCycle() const
{
    std::string text;
    for (uint32_t channel : m_cycle)
    {
        text += (text.empty() ? "" : ", ") + DescribeChannel(channel);
    }
    return text;
}

const ChannelDependencyGraph::Graph&
ChannelDependencyGraph::GetGraph() const
{
    return m_graph;
}

} // namespace ns3
