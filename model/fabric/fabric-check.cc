/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-check.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <boost/graph/connected_components.hpp>
#include <boost/graph/filtered_graph.hpp>

#include <iomanip>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricCheck");

void
CheckFabric(const Fabric& fabric, const std::string& source)
{
    const std::string where = source + ": fabric '" + fabric.GetName() + "'";
    if (fabric.GetNpuCount() < 2)
    {
        throw InputError(where + ": needs at least 2 NPUs (has " +
                         std::to_string(fabric.GetNpuCount()) + ")");
    }
    const auto& graph = fabric.GetGraph();
    std::vector<uint32_t> component(boost::num_vertices(graph));
    const auto count = boost::connected_components(graph, component.data());
    if (count > 1)
    {
        const uint32_t home = component[fabric.GetNpuNode(0)];
        for (uint32_t node = 0; node < fabric.GetNodeCount(); ++node)
        {
            if (component[node] != home)
            {
                throw InputError(where + ": graph is disconnected (" + std::to_string(count) +
                                 " parts): '" + fabric.GetNode(node).name + "' cannot reach '" +
                                 fabric.GetNode(fabric.GetNpuNode(0)).name + "'");
            }
        }
    }
}

void
CheckFabricSize(double npus, double links, const std::string& where)
{
    if (npus <= static_cast<double>(kMaxFabricNpus) &&
        links <= static_cast<double>(kMaxFabricLinks))
    {
        return;
    }
    std::ostringstream message;
    message << std::fixed << std::setprecision(0) << where << ": describes " << npus << " NPUs and "
            << links << " links, more than the limit of " << kMaxFabricNpus << " NPUs and "
            << kMaxFabricLinks << " links";
    throw InputError(message.str());
}

namespace
{

/** Keeps the switches of a fabric graph. */
struct SwitchesOnly
{
    const Fabric* fabric{nullptr}; //!< the fabric

    /** \param v vertex \return true for a switch */
    bool
    operator()(Fabric::Graph::vertex_descriptor v) const
    {
        return !fabric->IsNpu(static_cast<uint32_t>(v));
    }
};

} // namespace

bool
NpusNeedForwarding(const Fabric& fabric)
{
    const auto& graph = fabric.GetGraph();
    boost::filtered_graph<Fabric::Graph, boost::keep_all, SwitchesOnly> switches(
        graph, boost::keep_all(), SwitchesOnly{&fabric});
    std::vector<uint32_t> component(boost::num_vertices(graph), 0);
    boost::connected_components(switches, component.data());

    // Components of switches touched by every NPU seen so far.
    std::set<uint32_t> common;
    for (uint32_t rank = 0; rank < fabric.GetNpuCount(); ++rank)
    {
        std::set<uint32_t> touched;
        for (const auto& port : fabric.GetPorts(fabric.GetNpuNode(rank)))
        {
            if (!fabric.IsNpu(port.peer))
            {
                touched.insert(component[port.peer]);
            }
        }
        if (rank == 0)
        {
            common = touched;
            continue;
        }
        std::set<uint32_t> both;
        for (uint32_t c : touched)
        {
            if (common.count(c) != 0)
            {
                both.insert(c);
            }
        }
        common.swap(both);
        if (common.empty())
        {
            return true;
        }
    }
    return common.empty();
}

} // namespace ns3
