/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-trace.h"

#include "ns3/et-reader.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtTrace");

namespace
{

/**
 * Count the messages of a trace file without parsing them, so that the node array can
 * be allocated once at its final size: growing it by doubling would need up to twice
 * the memory at the last reallocation.
 * \param path the .et file
 * \return the complete messages before the end of the file or the first framing error
 */
uint64_t
CountMessages(const std::string& path)
{
    uint64_t count = 0;
    try
    {
        EtFrameReader frames(path);
        std::string_view message;
        while (frames.Next(message))
        {
            ++count;
        }
    }
    catch (const InputError&)
    {
        // Reported with its context by the reading pass that follows.
    }
    return count;
}

} // namespace

EtTrace
EtTrace::Load(const std::string& path, const EtLoadOptions& options)
{
    uint64_t messages = CountMessages(path);
    EtReader reader(path);
    EtTrace trace;
    trace.m_nodes.reserve(messages > 0 ? messages - 1 : 0);
    trace.m_path = path;
    trace.m_metadata = reader.GetMetadata();
    trace.m_strings = reader.GetStringPool();
    EtNode node;
    while (reader.ReadNode(node))
    {
        trace.m_nodes.push_back(std::move(node));
    }
    trace.m_index = EtNodeIndex(trace.m_nodes, path);
    trace.m_graph = EtDependencyGraph(trace.m_nodes, trace.m_index, options.useCtrlDeps, path);
    NS_LOG_INFO(path << ": " << trace.m_nodes.size() << " nodes, " << trace.m_graph.GetEdgeCount()
                     << " dependencies, " << trace.m_graph.GetDanglingCtrlDepCount()
                     << " dangling ctrl_deps");
    return trace;
}

const std::string&
EtTrace::GetPath() const
{
    return m_path;
}

const ChakraProtoMsg::GlobalMetadata&
EtTrace::GetMetadata() const
{
    return m_metadata;
}

uint32_t
EtTrace::GetNodeCount() const
{
    return static_cast<uint32_t>(m_nodes.size());
}

const EtNode&
EtTrace::GetNode(uint32_t index) const
{
    return m_nodes[index];
}

const std::vector<EtNode>&
EtTrace::GetNodes() const
{
    return m_nodes;
}

std::optional<uint32_t>
EtTrace::FindNode(uint64_t id) const
{
    return m_index.Find(id);
}

const EtDependencyGraph&
EtTrace::GetGraph() const
{
    return m_graph;
}

uint64_t
EtTrace::GetDanglingCtrlDepCount() const
{
    return m_graph.GetDanglingCtrlDepCount();
}

} // namespace ns3
