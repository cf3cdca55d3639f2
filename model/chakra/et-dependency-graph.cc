/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-dependency-graph.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <optional>
#include <sstream>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtDependencyGraph");

namespace
{
/** A cycle longer than this is shown by its first nodes only. */
constexpr size_t kCycleShown = 10;
} // namespace

template <typename Visit>
void
EtDependencyGraph::ForEachParent(const EtNode& node, const EtNodeIndex& index, Visit visit) const
{
    for (uint64_t id : node.dataDeps)
    {
        visit(*index.Find(id)); // present: checked by the constructor
    }
    if (m_useCtrlDeps)
    {
        for (uint64_t id : node.ctrlDeps)
        {
            if (auto parent = index.Find(id))
            {
                visit(*parent);
            }
        }
    }
}

EtDependencyGraph::EtDependencyGraph(const std::vector<EtNode>& nodes,
                                     const EtNodeIndex& index,
                                     bool useCtrlDeps,
                                     std::string_view path)
    : m_useCtrlDeps(useCtrlDeps)
{
    const uint32_t n = static_cast<uint32_t>(nodes.size());
    m_parentCount.assign(n, 0);
    m_childStart.assign(uint64_t{n} + 1, 0);

    // Pass 1: check every dependency and count each parent's children.
    for (uint32_t i = 0; i < n; ++i)
    {
        const EtNode& node = nodes[i];
        for (uint64_t id : node.dataDeps)
        {
            auto parent = index.Find(id);
            if (!parent)
            {
                std::ostringstream message;
                message << path << ": node " << node.id << ": data dependency on node " << id
                        << ", which is not in the file";
                throw InputError(message.str());
            }
            ++m_childStart[*parent + 1];
            ++m_parentCount[i];
        }
        for (uint64_t id : node.ctrlDeps)
        {
            auto parent = index.Find(id);
            if (!parent)
            {
                ++m_danglingCtrlDeps;
                NS_LOG_LOGIC(path << ": node " << node.id << ": ctrl dependency on absent node "
                                  << id);
            }
            else if (useCtrlDeps)
            {
                ++m_childStart[*parent + 1];
                ++m_parentCount[i];
            }
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        m_childStart[i + 1] += m_childStart[i];
    }

    // Pass 2: place each child after its parent's earlier children.
    m_children.resize(m_childStart[n]);
    std::vector<uint64_t> next(m_childStart.begin(), m_childStart.end() - 1);
    for (uint32_t i = 0; i < n; ++i)
    {
        ForEachParent(nodes[i], index, [&](uint32_t parent) { m_children[next[parent]++] = i; });
    }
    next = std::vector<uint64_t>();

    if (m_danglingCtrlDeps > 0)
    {
        NS_LOG_WARN(path << ": " << m_danglingCtrlDeps
                         << " ctrl_deps name nodes that are not in the file; ignored");
    }
    CheckAcyclic(nodes, index, path);
}

void
EtDependencyGraph::CheckAcyclic(const std::vector<EtNode>& nodes,
                                const EtNodeIndex& index,
                                std::string_view path) const
{
    const uint32_t n = static_cast<uint32_t>(nodes.size());
    std::vector<uint32_t> waiting(m_parentCount);
    std::vector<uint32_t> ready;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (waiting[i] == 0)
        {
            ready.push_back(i);
        }
    }
    uint64_t done = 0;
    while (!ready.empty())
    {
        uint32_t i = ready.back();
        ready.pop_back();
        ++done;
        for (uint32_t child : GetChildren(i))
        {
            if (--waiting[child] == 0)
            {
                ready.push_back(child);
            }
        }
    }
    if (done == n)
    {
        return;
    }

    // Every node left waits for a parent that is also left; walking from parent to
    // parent must therefore come back to a node already seen, which lies on a cycle.
    uint32_t start = 0;
    while (waiting[start] == 0)
    {
        ++start;
    }
    std::vector<uint32_t> walk;
    std::unordered_map<uint32_t, size_t> positionInWalk;
    uint32_t current = start;
    while (positionInWalk.find(current) == positionInWalk.end())
    {
        positionInWalk[current] = walk.size();
        walk.push_back(current);
        std::optional<uint32_t> blocker;
        ForEachParent(nodes[current],
                      index,
                      [&](uint32_t parent)
                      {
                          if (!blocker && waiting[parent] > 0)
                          {
                              blocker = parent;
                          }
                      });
        current = *blocker;
    }
    size_t cycleBegin = positionInWalk[current];
    std::ostringstream message;
    message << path << ": node " << nodes[current].id << ": dependency cycle: ";
    size_t shown = 0;
    for (size_t k = cycleBegin; k < walk.size() && shown < kCycleShown; ++k, ++shown)
    {
        message << nodes[walk[k]].id << " depends on ";
    }
    if (walk.size() - cycleBegin > kCycleShown)
    {
        message << "... ";
    }
    message << nodes[current].id << " (" << walk.size() - cycleBegin << " nodes)";
    throw InputError(message.str());
}

EtIndexRange
EtDependencyGraph::GetChildren(uint32_t index) const
{
    const uint32_t* base = m_children.data();
    return {base + m_childStart[index], base + m_childStart[index + 1]};
}

uint32_t
EtDependencyGraph::GetParentCount(uint32_t index) const
{
    return m_parentCount[index];
}

std::vector<uint32_t>
EtDependencyGraph::GetRoots() const
{
    std::vector<uint32_t> roots;
    for (uint32_t i = 0; i < m_parentCount.size(); ++i)
    {
        if (m_parentCount[i] == 0)
        {
            roots.push_back(i);
        }
    }
    return roots;
}

uint64_t
EtDependencyGraph::GetEdgeCount() const
{
    return m_children.size();
}

bool
EtDependencyGraph::UsesCtrlDeps() const
{
    return m_useCtrlDeps;
}

uint64_t
EtDependencyGraph::GetDanglingCtrlDepCount() const
{
    return m_danglingCtrlDeps;
}

} // namespace ns3
