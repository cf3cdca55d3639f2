/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-info-groups.h"

#include "ns3/comm-group-table.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtInfoGroups");

EtCommGroups
ReadEtCommGroups(const std::string& path, uint32_t rankCount)
{
    // The replay's reader, so that et-info accepts exactly the files a replay accepts.
    CommGroupTable table(rankCount);
    table.LoadFile(path);
    EtCommGroups groups;
    for (const auto& [name, group] : table.GetGroups())
    {
        groups.emplace(name, group->GetRanks());
    }
    NS_LOG_INFO(path << ": " << groups.size() << " communicator groups");
    return groups;
}

} // namespace ns3
