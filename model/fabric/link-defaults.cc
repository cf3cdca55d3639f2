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

namespace
{

/** One row of the built-in table: rate in Gb/s, thresholds in KB. */
EcnRateEntry
Row(uint64_t gbps, uint64_t kminKb, uint64_t kmaxKb)
{
    return EcnRateEntry{gbps * 1000000000ULL, EcnSettings{kminKb * 1000, kmaxKb * 1000, 0.2}};
}

} // namespace

LinkDefaults::LinkDefaults()
    : m_ecnTable{Row(25, 100, 400),
                 Row(40, 200, 800),
                 Row(100, 400, 1600),
                 Row(200, 600, 2400),
                 Row(400, 800, 3200),
                 Row(2400, 800, 3200)}
{
}

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

EcnSettings
LinkDefaults::GetEcn(uint64_t rateBps) const
{
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
