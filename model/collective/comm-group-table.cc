/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "comm-group-table.h"

#include "ns3/collective-config-json.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/parallelism-kind.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CommGroupTable");

namespace
{

/** Members of one group from a JSON array, checked against the world size. */
std::vector<uint32_t>
ReadRanks(const nlohmann::json& list, uint32_t worldSize, const std::string& where)
{
    if (!list.is_array())
    {
        throw InputError(where + ": expected a list of ranks, got " + ConfigJson::Describe(list));
    }
    std::vector<uint32_t> ranks;
    for (const auto& item : list)
    {
        if (!item.is_number_integer() || item < 0 || item >= worldSize)
        {
            throw InputError(where + ": rank " + ConfigJson::Describe(item) +
                             " is not an integer in [0, " + std::to_string(worldSize) + ")");
        }
        ranks.push_back(item.get<uint32_t>());
    }
    std::vector<uint32_t> sorted = ranks;
    std::sort(sorted.begin(), sorted.end());
    auto dup = std::adjacent_find(sorted.begin(), sorted.end());
    if (dup != sorted.end())
    {
        throw InputError(where + ": rank " + std::to_string(*dup) + " is listed twice");
    }
    return ranks;
}

/** \return true for "1", "2", ... "999999999": no sign, no leading zero (ASTRA-sim reads
 * the id as a number, so "01" would be group 1 there but a different pg_name here) */
bool
IsPositiveDecimal(const std::string& s)
{
    if (s.empty() || s.size() > 9 || s[0] == '0' ||
        !std::all_of(
            s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    {
        return false;
    }
    return std::stoul(s) > 0;
}

/** The JSON inside "['<json>']", the form ASTRA-sim strips two characters from each end of. */
std::string
UnwrapPythonList(const std::string& value)
{
    const auto first = value.find_first_not_of(" \t\r\n");
    const auto last = value.find_last_not_of(" \t\r\n");
    if (first == std::string::npos)
    {
        return "";
    }
    std::string s = value.substr(first, last - first + 1);
    const bool wrapped = s.size() >= 4 && s[0] == '[' && (s[1] == '\'' || s[1] == '"') &&
                         s[s.size() - 1] == ']' && s[s.size() - 2] == s[1];
    return wrapped ? s.substr(2, s.size() - 4) : s;
}

} // namespace

CommGroupTable::CommGroupTable(uint32_t worldSize)
    : m_worldSize(worldSize)
{
}

bool
CommGroupTable::IsNoFile(const std::string& path)
{
    return path.empty() || path.find("empty") != std::string::npos;
}

void
CommGroupTable::LoadFile(const std::string& path)
{
    LoadJson(ConfigJson::ReadFile(path), path);
}

void
CommGroupTable::LoadJson(const std::string& text, const std::string& source)
{
    const ConfigJson doc = ConfigJson::Parse(text, source);
    if (!doc.Root().is_object())
    {
        throw InputError(source + ": a communicator-group file must be a JSON object "
                                  "{\"<group id>\": [ranks], ...}");
    }
    for (const auto& item : doc.Root().items())
    {
        const std::string where = doc.Where(item.key());
        if (!IsPositiveDecimal(item.key()))
        {
            throw InputError(where + ": group ids are decimal integers >= 1 without leading "
                                     "zeros (0 is the default group of all ranks)");
        }
        auto ranks = ReadRanks(item.value(), m_worldSize, where);
        if (ranks.empty())
        {
            throw InputError(where + ": the group has no ranks");
        }
        Add(item.key(), std::move(ranks), where);
    }
}

const std::map<std::string, std::shared_ptr<const CommGroup>>&
CommGroupTable::GetGroups() const
{
    return m_groups;
}

void
CommGroupTable::AddProcessGroups(const std::string& value, const std::string& where)
{
    nlohmann::json groups;
    try
    {
        groups = nlohmann::json::parse(UnwrapPythonList(value));
    }
    catch (const nlohmann::json::exception&)
    {
        // parse_error, or out_of_range for a number beyond a double (1e400)
        throw InputError(where + ": process-group metadata is not a JSON list of groups");
    }
    if (!groups.is_array())
    {
        throw InputError(where + ": process-group metadata is not a JSON list of groups");
    }
    for (const auto& group : groups)
    {
        if (!group.is_object() || !group.contains("pg_name") || !group["pg_name"].is_string() ||
            !group.contains("ranks"))
        {
            throw InputError(where + ": process group " + ConfigJson::Describe(group) +
                             " lacks a string pg_name or a ranks list");
        }
        const std::string name = group["pg_name"].get<std::string>();
        auto ranks = ReadRanks(group["ranks"], m_worldSize, where + ": pg_name \"" + name + "\"");
        if (ranks.empty())
        {
            ranks.resize(m_worldSize);
            for (uint32_t r = 0; r < m_worldSize; ++r)
            {
                ranks[r] = r;
            }
        }
        Add(name, std::move(ranks), where);
        if (group.contains("pg_desc") && group["pg_desc"].is_string())
        {
            const std::string kind = ParallelismKindOf(group["pg_desc"].get<std::string>());
            if (!kind.empty())
            {
                SetKind(name, kind);
            }
        }
    }
}

void
CommGroupTable::SetKind(const std::string& name, const std::string& kind)
{
    auto it = m_groups.find(name);
    if (it == m_groups.end())
    {
        return;
    }
    it->second = std::make_shared<const CommGroup>(name, it->second->GetRanks(), kind);
}

void
CommGroupTable::LoadKinds(const std::string& json, const std::string& where)
{
    nlohmann::json kinds;
    try
    {
        kinds = nlohmann::json::parse(json);
    }
    catch (const nlohmann::json::exception&)
    {
        throw InputError(where + ": comm_group_kinds is not a JSON object");
    }
    if (!kinds.is_object())
    {
        throw InputError(where + ": comm_group_kinds is not a JSON object");
    }
    for (const auto& item : kinds.items())
    {
        if (!item.value().is_string())
        {
            throw InputError(where + ": comm_group_kinds: the kind of group \"" + item.key() +
                             "\" is not a string");
        }
        SetKind(item.key(), item.value().get<std::string>());
    }
}

void
CommGroupTable::Add(const std::string& name, std::vector<uint32_t> ranks, const std::string& where)
{
    auto group = std::make_shared<const CommGroup>(name, std::move(ranks));
    auto it = m_groups.find(name);
    if (it != m_groups.end())
    {
        if (it->second->GetRanks() != group->GetRanks())
        {
            throw InputError(where + ": group \"" + name +
                             "\" is defined again with different ranks");
        }
        return;
    }
    m_groups.emplace(name, std::move(group));
}

std::shared_ptr<const CommGroup>
CommGroupTable::Lookup(const std::string& pgName, const std::string& where) const
{
    auto it = m_groups.find(pgName);
    if (it != m_groups.end())
    {
        return it->second;
    }
    if (pgName.empty() || pgName == "0")
    {
        return nullptr;
    }
    throw InputError(where + ": pg_name \"" + pgName + "\" names no communicator group");
}

} // namespace ns3
