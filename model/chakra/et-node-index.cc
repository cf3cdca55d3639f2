/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-node-index.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtNodeIndex");

EtNodeIndex::EtNodeIndex(const std::vector<EtNode>& nodes, std::string_view path)
{
    if (nodes.size() > std::numeric_limits<uint32_t>::max())
    {
        std::ostringstream message;
        message << path << ": " << nodes.size() << " nodes exceed the limit of 2^32 - 1 per file";
        throw InputError(message.str());
    }
    m_entries.reserve(nodes.size());
    for (uint32_t i = 0; i < nodes.size(); ++i)
    {
        m_entries.push_back({nodes[i].id, i});
    }
    auto byId = [](const Entry& a, const Entry& b)
    {
        return a.id < b.id || (a.id == b.id && a.index < b.index);
    };
    // Producers usually write ids in ascending order; sorting is then skipped.
    if (!std::is_sorted(m_entries.begin(), m_entries.end(), byId))
    {
        std::sort(m_entries.begin(), m_entries.end(), byId);
    }
    auto sameId = [](const Entry& a, const Entry& b)
    {
        return a.id == b.id;
    };
    auto duplicate = std::adjacent_find(m_entries.begin(), m_entries.end(), sameId);
    if (duplicate != m_entries.end())
    {
        std::ostringstream message;
        message << path << ": node " << duplicate->id << ": duplicate node id (at positions "
                << duplicate->index + 1 << " and " << (duplicate + 1)->index + 1 << " of the file)";
        throw InputError(message.str());
    }
}

std::optional<uint32_t>
EtNodeIndex::Find(uint64_t id) const
{
    auto found = std::lower_bound(m_entries.begin(),
                                  m_entries.end(),
                                  id,
                                  [](const Entry& entry, uint64_t key) { return entry.id < key; });
    if (found == m_entries.end() || found->id != id)
    {
        return std::nullopt;
    }
    return found->index;
}

} // namespace ns3
