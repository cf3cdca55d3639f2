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
 * ECN thresholds come from a table by link rate: a link takes the entry with the
 * largest rate not above its own (the smallest entry if it is slower than all). The
 * built-in table is the per-rate map of ASTRA-sim's ns-3 configuration (Kmin/Kmax in
 * KB of 1000 bytes, Pmax 0.2): 25G 100/400, 40G 200/800, 100G 400/1600, 200G 600/2400,
 * 400G 800/3200, 2400G 800/3200.
 */
class LinkDefaults
{
  public:
    /** Built-in table; PFC on every priority; no loss. */
    LinkDefaults();

    /**
     * Replace the ECN table. Throws InputError if it is empty.
     * \param table entries in any order
     */
    void SetEcnTable(std::vector<EcnRateEntry> table);
    /** \return the ECN table, sorted by rate */
    const std::vector<EcnRateEntry>& GetEcnTable() const;

    /** \param priorities bit p set: PFC on priority p */
    void SetPfcPriorities(uint8_t priorities);
    /** \param probability per-packet loss probability */
    void SetLossProbability(double probability);

    /** \param rateBps a link rate \return the ECN thresholds for it */
    EcnSettings GetEcn(uint64_t rateBps) const;

    /**
     * \param rateBps line rate, bit/s
     * \param delayPs propagation delay, ps
     * \return settings with every default applied
     */
    LinkSettings Make(uint64_t rateBps, int64_t delayPs) const;

  private:
    std::vector<EcnRateEntry> m_ecnTable; //!< sorted by rate
    uint8_t m_pfcPriorities{0xFF};        //!< PFC priorities of every link
    double m_lossProbability{0};          //!< loss of every link
};

} // namespace ns3

#endif /* MLFABRIC_LINK_DEFAULTS_H */
