/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-info-groups.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtInfoGroups");

EtCommGroups
ReadEtCommGroups(const std::string& path, uint32_t rankCount)
{
    std::ifstream file(path);
    if (!file)
    {
        throw InputError(path + ": cannot open the communicator-group file");
    }
    nlohmann::json json;
    try
    {
        json = nlohmann::json::parse(file);
    }
    catch (const nlohmann::json::exception& e)
    {
        throw InputError(path + ": not JSON (" + std::string(e.what()) + ")");
    }
    if (!json.is_object())
    {
        throw InputError(path + ": expected an object {\"<group id>\": [ranks], ...}");
    }
    EtCommGroups groups;
    for (const auto& [id, members] : json.items())
    {
        const std::string where = path + ": group \"" + id + "\"";
        if (id == "0" || id.empty())
        {
            throw InputError(where + ": id 0 is reserved for the world group; use ids from 1");
        }
        if (!members.is_array() || members.empty())
        {
            throw InputError(where + ": expected a non-empty array of ranks");
        }
        std::vector<uint32_t> ranks;
        for (const auto& member : members)
        {
            if (!member.is_number_unsigned() || member.get<uint64_t>() >= rankCount)
            {
                throw InputError(where + ": " + member.dump() + " is not a rank below " +
                                 std::to_string(rankCount));
            }
            ranks.push_back(member.get<uint32_t>());
        }
        std::sort(ranks.begin(), ranks.end());
        if (std::adjacent_find(ranks.begin(), ranks.end()) != ranks.end())
        {
            throw InputError(where + ": lists a rank twice");
        }
        groups.emplace(id, std::move(ranks));
    }
    return groups;
}

} // namespace ns3
