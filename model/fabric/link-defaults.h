/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_LINK_DEFAULTS_H
#define MLFABRIC_LINK_DEFAULTS_H

#include "ns3/link-settings.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * ECN thresholds that apply from a link rate upward.
 */
struct EcnRateEntry
{
    uint64_t rateBps{0}; //!< smallest link rate the entry applies to
    EcnSettings ecn;     //!< thresholds for that rate class
};

/**
 * \ingroup mlfabric-fabric
 * Settings a link gets unless its description says otherwise.
 *
 * ECN thresholds come from a table by link rate, if the description gives one: a link
 * takes the entry with the largest rate not above its own (the smallest entry if it is
 * slower than all). Without a table, and without PFC priorities, links leave ECN and
 * PFC unset: the packet-level run fills them (its ECN map, its switches' default
 * lossless priorities).
 */
class LinkDefaults
{
  public:
    /** No ECN table, PFC priorities unset, no loss. */
    LinkDefaults() = default;

    /**
     * Replace the ECN table. Throws InputError if it is empty.
     * \param table entries in any order
     */
    void SetEcnTable(std::vector<EcnRateEntry> table);
    /** \return the ECN table, sorted by rate; empty if none was set */
    const std::vector<EcnRateEntry>& GetEcnTable() const;

    /** \param priorities bit p set: PFC on priority p */
    void SetPfcPriorities(uint8_t priorities);
    /** \param probability per-packet loss probability */
    void SetLossProbability(double probability);

    /** \param rateBps a link rate \return the ECN thresholds for it; unset without a table */
    std::optional<EcnSettings> GetEcn(uint64_t rateBps) const;

    /**
     * \param rateBps line rate, bit/s
     * \param delayPs propagation delay, ps
     * \return settings with every default applied
     */
    LinkSettings Make(uint64_t rateBps, int64_t delayPs) const;

  private:
    std::vector<EcnRateEntry> m_ecnTable;   //!< sorted by rate
    std::optional<uint8_t> m_pfcPriorities; //!< PFC priorities of every link
    double m_lossProbability{0};            //!< loss of every link
};

} // namespace ns3

#endif /* MLFABRIC_LINK_DEFAULTS_H */
