/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_DEPENDENCY_GRAPH_H
#define MLFABRIC_ET_DEPENDENCY_GRAPH_H

#include "ns3/et-node-index.h"
#include "ns3/et-node.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-chakra
 * A contiguous run of node positions, usable in range-for.
 */
struct EtIndexRange
{
    const uint32_t* first{nullptr}; //!< first position
    const uint32_t* last{nullptr};  //!< past the last position

    /** \return first */
    const uint32_t*
    begin() const
    {
        return first;
    }

    /** \return last */
    const uint32_t*
    end() const
    {
        return last;
    }

    /** \return number of positions */
    uint64_t
    size() const
    {
        return last - first;
    }
};

/**
 * \ingroup mlfabric-chakra
 * The dependency DAG of one rank's trace, by node position, checked on construction.
 *
 * Edges are the `data_deps`, and also the `ctrl_deps` when asked: PyTorch-converted
 * traces put the caller op in `ctrl_deps`, often a node that is not in the file, while
 * STG and some generators use them as real ordering edges. A `data_deps` id missing
 * from the file is an error; a `ctrl_deps` id missing from the file is counted (see
 * GetDanglingCtrlDepCount) and otherwise ignored, whichever edges are in use.
 *
 * A replay keeps a countdown per node starting at GetParentCount, issues the nodes
 * that reach zero, and on completion decrements the countdown of GetChildren. Children
 * are stored in one flat array (4 bytes per edge, 8 per node).
 */
class EtDependencyGraph
{
  public:
    EtDependencyGraph() = default;
    /**
     * \param nodes the trace's nodes, in file order
     * \param index their ids
     * \param useCtrlDeps whether ctrl_deps that name a node are edges too
     * \param path file name, for errors
     * \throws InputError naming the file and node for a data_deps id that is not in the
     *         file, and for a dependency cycle (listing the nodes on it)
     */
    EtDependencyGraph(const std::vector<EtNode>& nodes,
                      const EtNodeIndex& index,
                      bool useCtrlDeps,
                      std::string_view path);

    /** \param index a node position \return positions of the nodes that depend on it */
    EtIndexRange GetChildren(uint32_t index) const;
    /** \param index a node position \return number of edges into it */
    uint32_t GetParentCount(uint32_t index) const;
    /** \return positions of the nodes without dependencies, in file order */
    std::vector<uint32_t> GetRoots() const;
    /** \return number of edges */
    uint64_t GetEdgeCount() const;
    /** \return true if ctrl_deps are edges */
    bool UsesCtrlDeps() const;
    /** \return ctrl_deps entries naming a node that is not in the file */
    uint64_t GetDanglingCtrlDepCount() const;

  private:
    /**
     * Throw if the edges contain a cycle (Kahn's algorithm).
     * \param nodes the trace's nodes
     * \param index their ids
     * \param path file name, for errors
     */
    void CheckAcyclic(const std::vector<EtNode>& nodes,
                      const EtNodeIndex& index,
                      std::string_view path) const;
    /**
     * \param node a node
     * \param index the trace's ids
     * \param visit called with the position of each parent the edges use
     */
    template <typename Visit>
    void ForEachParent(const EtNode& node, const EtNodeIndex& index, Visit visit) const;

    std::vector<uint64_t> m_childStart;  //!< children of node i: m_children[start[i], start[i+1])
    std::vector<uint32_t> m_children;    //!< child positions, grouped by parent
    std::vector<uint32_t> m_parentCount; //!< edges into each node
    bool m_useCtrlDeps{false};           //!< ctrl_deps are edges
    uint64_t m_danglingCtrlDeps{0};      //!< ctrl_deps naming absent nodes
};

} // namespace ns3

#endif /* MLFABRIC_ET_DEPENDENCY_GRAPH_H */
