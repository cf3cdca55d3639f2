/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "link-defaults.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinkDefaults");

void
LinkDefaults::SetEcnTable(std::vector<EcnRateEntry> table)
{
    if (table.empty())
    {
        throw InputError("ECN table: needs at least one entry");
    }
    std::sort(table.begin(),
              table.end(),
              [](const EcnRateEntry& x, const EcnRateEntry& y) { return x.rateBps < y.rateBps; });
    m_ecnTable = std::move(table);
}

const std::vector<EcnRateEntry>&
LinkDefaults::GetEcnTable() const
{
    return m_ecnTable;
}

void
LinkDefaults::SetPfcPriorities(uint8_t priorities)
{
    m_pfcPriorities = priorities;
}

void
LinkDefaults::SetLossProbability(double probability)
{
    m_lossProbability = probability;
}

std::optional<EcnSettings>
LinkDefaults::GetEcn(uint64_t rateBps) const
{
    if (m_ecnTable.empty())
    {
        return std::nullopt;
    }
    const EcnRateEntry* chosen = &m_ecnTable.front();
    for (const auto& entry : m_ecnTable)
    {
        if (entry.rateBps <= rateBps)
        {
            chosen = &entry;
        }
    }
    return chosen->ecn;
}

LinkSettings
LinkDefaults::Make(uint64_t rateBps, int64_t delayPs) const
{
    LinkSettings settings;
    settings.rateBps = rateBps;
    settings.delayPs = delayPs;
    settings.lossProbability = m_lossProbability;
    settings.ecn = GetEcn(rateBps);
    settings.pfcPriorities = m_pfcPriorities;
    return settings;
}

} // namespace ns3
