/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "bisection.h"

#include "ns3/log.h"

#include <boost/graph/push_relabel_max_flow.hpp>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Bisection");

namespace
{

/** Directed flow network with the edge maps the max-flow algorithm needs. */
using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
using FlowGraph = boost::adjacency_list<
    boost::vecS,
    boost::vecS,
    boost::directedS,
    boost::no_property,
    boost::property<
        boost::edge_capacity_t,
        int64_t,
        boost::property<boost::edge_residual_capacity_t,
                        int64_t,
                        boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>;

/** Add an arc of \p capacity and its zero-capacity reverse. */
void
AddArc(FlowGraph& g, uint32_t from, uint32_t to, int64_t capacity)
{
    auto forward = boost::add_edge(from, to, g).first;
    auto backward = boost::add_edge(to, from, g).first;
    boost::put(boost::edge_capacity, g, forward, capacity);
    boost::put(boost::edge_capacity, g, backward, 0);
    boost::put(boost::edge_reverse, g, forward, backward);
    boost::put(boost::edge_reverse, g, backward, forward);
}

} // namespace

uint64_t
ComputeRankHalvesCut(const Fabric& fabric)
{
    const uint32_t nodes = fabric.GetNodeCount();
    const uint32_t source = nodes;
    const uint32_t sink = nodes + 1;
    FlowGraph g(nodes + 2);
    int64_t total = 0;
    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        const FabricLink& link = fabric.GetLink(l);
        const auto rate = static_cast<int64_t>(link.settings.rateBps);
        AddArc(g, link.nodeA, link.nodeB, rate);
        AddArc(g, link.nodeB, link.nodeA, rate);
        total += rate;
    }
    // More than every link together: the source and sink arcs never limit the flow.
    const int64_t unlimited = total + 1;
    const uint32_t half = fabric.GetNpuCount() / 2;
    for (uint32_t rank = 0; rank < fabric.GetNpuCount(); ++rank)
    {
        const uint32_t node = fabric.GetNpuNode(rank);
        if (rank < half)
        {
            AddArc(g, source, node, unlimited);
        }
        else
        {
            AddArc(g, node, sink, unlimited);
        }
    }
    const int64_t flow = boost::push_relabel_max_flow(g, source, sink);
    return static_cast<uint64_t>(flow);
}

} // namespace ns3
