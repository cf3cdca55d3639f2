/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_TRACE_H
#define MLFABRIC_ET_TRACE_H

#include "ns3/et-dependency-graph.h"
#include "ns3/et-node-index.h"
#include "ns3/et-node.h"
#include "ns3/et-string-pool.h"
#include "ns3/et_def.pb.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-chakra
 * How a trace is read.
 */
struct EtLoadOptions
{
    /** Treat ctrl_deps that name a node of the file as dependencies, like data_deps. */
    bool useCtrlDeps{false};
};

/**
 * \ingroup mlfabric-chakra
 * One rank's Chakra trace in memory, validated, ready for replay.
 *
 * Holds compact EtNodes in file order (no protobuf messages), an id index and the
 * checked dependency graph; about 190 bytes per node for a typical trace. Nodes are
 * addressed by position (0 .. GetNodeCount() - 1), which is what the graph uses.
 */
class EtTrace
{
  public:
    /**
     * Read and validate `path`.
     * \param path the .et file, plain or gzip
     * \param options dependency options
     * \return the trace
     * \throws InputError naming the file and, where one is concerned, the node: file
     *         missing or unreadable, truncated, bad length varint, unparsable message,
     *         unusable attribute, duplicate node id, data dependency on a node that is
     *         not in the file, dependency cycle
     */
    static EtTrace Load(const std::string& path, const EtLoadOptions& options = EtLoadOptions());

    /** \return the file name */
    const std::string& GetPath() const;
    /** \return the file's GlobalMetadata */
    const ChakraProtoMsg::GlobalMetadata& GetMetadata() const;
    /** \return the number of nodes */
    uint32_t GetNodeCount() const;
    /** \param index a position below GetNodeCount() \return the node there */
    const EtNode& GetNode(uint32_t index) const;
    /** \return every node, in file order */
    const std::vector<EtNode>& GetNodes() const;
    /** \param id a node id \return its position, if the trace has it */
    std::optional<uint32_t> FindNode(uint64_t id) const;
    /** \return the dependency graph over node positions */
    const EtDependencyGraph& GetGraph() const;
    /** \return ctrl_deps entries that name nodes absent from the file (not an error) */
    uint64_t GetDanglingCtrlDepCount() const;

  private:
    EtTrace() = default;

    std::string m_path;                        //!< file name
    ChakraProtoMsg::GlobalMetadata m_metadata; //!< message 0
    std::shared_ptr<EtStringPool> m_strings;   //!< storage of the nodes' strings
    std::vector<EtNode> m_nodes;               //!< nodes in file order
    EtNodeIndex m_index;                       //!< id to position
    EtDependencyGraph m_graph;                 //!< checked dependencies
};

} // namespace ns3

#endif /* MLFABRIC_ET_TRACE_H */
