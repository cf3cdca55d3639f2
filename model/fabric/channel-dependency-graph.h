/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CHANNEL_DEPENDENCY_GRAPH_H
#define MLFABRIC_CHANNEL_DEPENDENCY_GRAPH_H

#include "ns3/fabric.h"
#include "ns3/routing-table.h"

#include <boost/graph/adjacency_list.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * Channel dependency graph of a routing: which link directions wait on which.
 *
 * A channel is one direction of one link (channel 2l goes from link l's nodeA to
 * nodeB, 2l+1 back). Channel c1 depends on c2 when some route from an NPU enters a node
 * on c1 and may leave it on c2. Routes are followed from every NPU to every NPU through
 * the ECMP sets, so entries no route uses add nothing. Under PFC a cycle in this graph is
 * a deadlock risk: every channel of the cycle can be paused by the next one.
 */
class ChannelDependencyGraph
{
  public:
    /** The dependency graph: vertex = channel, edge = dependency. */
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

    /**
     * Build the graph and look for a cycle. Throws InputError when the fabric is too
     * large for the analysis (more than 2^32 (node, in-port, out-port) triples).
     * \param fabric the fabric
     * \param routing its routing tables
     */
    ChannelDependencyGraph(const Fabric& fabric, const RoutingTable& routing);

    /** \param link link id \param fromA direction \return the channel id */
    static uint32_t
    GetChannel(uint32_t link, bool fromA)
    {
        return 2 * link + (fromA ? 0 : 1);
    }

    /** \return number of channels (twice the links) */
    uint32_t GetChannelCount() const;
    /** \return number of dependencies */
    uint64_t GetDependencyCount() const;
    /** \return true if some dependencies form a cycle */
    bool IsCyclic() const;
    /** \return channels of one cycle, each depending on the one before and the first on the
     *  last; empty if acyclic */
    const std::vector<uint32_t>& GetCycle() const;
    /** \param channel a channel \return "from->to" with node names */
    std::string DescribeChannel(uint32_t channel) const;
    /** \return the cycle as "a->b, b->c, ..." or an empty string */
    std::string DescribeCycle() const;
    /** \return the graph */
    const Graph& GetGraph() const;

  private:
    /** Collect the dependencies of every route. */
    void Build(const RoutingTable& routing);
    /** Depth-first search for one cycle. */
    void FindCycle();

    const Fabric& m_fabric;        //!< the fabric
    Graph m_graph;                 //!< channels and dependencies
    uint64_t m_dependencies{0};    //!< edge count
    std::vector<uint32_t> m_cycle; //!< one cycle, if any
};

} // namespace ns3

#endif /* MLFABRIC_CHANNEL_DEPENDENCY_GRAPH_H */
