/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gen-comm-groups.h"

#include "ns3/assert.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GenCommGroups");

namespace
{

/** \return \p kinds ("dp+ep") with \p kind added, in sorted order */
std::string
AddKind(const std::string& kinds, const std::string& kind)
{
    std::set<std::string> all{kind};
    std::stringstream in(kinds);
    for (std::string part; std::getline(in, part, '+');)
    {
        all.insert(part);
    }
    std::string text;
    for (const std::string& k : all)
    {
        text += (text.empty() ? "" : "+") + k;
    }
    return text;
}

} // namespace

std::string
GenCommGroups::Register(std::vector<uint32_t> ranks, const std::string& kind)
{
    const std::string id = RegisterRanks(std::move(ranks));
    if (!kind.empty())
    {
        auto& kinds = m_kinds[id];
        kinds = kinds.empty() ? kind : AddKind(kinds, kind);
    }
    return id;
}

std::string
GenCommGroups::KindsJson() const
{
    if (m_kinds.empty())
    {
        return "";
    }
    std::string text = "{";
    for (const auto& [id, kind] : m_kinds)
    {
        text += (text.size() > 1 ? ", \"" : "\"") + id + "\": \"" + kind + "\"";
    }
    return text + "}";
}

std::string
GenCommGroups::RegisterRanks(std::vector<uint32_t> ranks)
{
    std::sort(ranks.begin(), ranks.end());
    NS_ASSERT_MSG(!ranks.empty() && std::adjacent_find(ranks.begin(), ranks.end()) == ranks.end(),
                  "a group needs distinct ranks");
    auto it = m_idOf.find(ranks);
    if (it != m_idOf.end())
    {
        return it->second;
    }
    const std::string id = std::to_string(m_groups.size() + 1);
    m_idOf.emplace(ranks, id);
    m_groups.emplace(id, std::move(ranks));
    return id;
}

const std::map<std::string, std::vector<uint32_t>>&
GenCommGroups::GetGroups() const
{
    return m_groups;
}

std::string
GenCommGroups::ToJson() const
{
    // std::map orders "10" before "2"; list the ids in the order they were given.
    std::ostringstream out;
    out << "{";
    for (uint64_t id = 1; id <= m_groups.size(); ++id)
    {
        const auto& ranks = m_groups.at(std::to_string(id));
        out << (id == 1 ? "\n" : ",\n") << "  \"" << id << "\": [";
        for (size_t i = 0; i < ranks.size(); ++i)
        {
            out << (i == 0 ? "" : ", ") << ranks[i];
        }
        out << "]";
    }
    out << "\n}\n";
    return out.str();
}

void
GenCommGroups::Write(const std::string& path) const
{
    std::ofstream file(path, std::ios::trunc);
    file << ToJson();
    file.close();
    if (!file)
    {
        throw InputError(path + ": cannot write the communicator-group file");
    }
}

} // namespace ns3
