/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ECN_THRESHOLD_MAP_H
#define MLFABRIC_ECN_THRESHOLD_MAP_H

#include "ns3/attribute-helper.h"

#include <cstdint>
#include <iostream>
#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-cc
 * RED-style ECN marking parameters of one egress port.
 */
struct EcnMapEntry
{
    uint64_t kminBytes{0}; //!< queue length where marking starts
    uint64_t kmaxBytes{0}; //!< queue length from which every packet is marked
    double pmax{0};        //!< marking probability at Kmax
};

/**
 * \ingroup mlfabric-cc
 * ECN marking thresholds per link rate (the peers' KMIN_MAP, KMAX_MAP, PMAX_MAP).
 *
 * A port of rate r uses the entry of the largest defined rate not above r; ports
 * slower than every defined rate use the slowest entry. Text form, as parsed and
 * printed: "25Gbps:100KB/400KB/0.2,100Gbps:400KB/1600KB/0.2"; rates and sizes in
 * mlfabric's unit grammar (doc/units.md), each with its unit.
 */
class EcnThresholdMap
{
  public:
    /** An empty map; Lookup needs at least one entry. */
    EcnThresholdMap() = default;

    /**
     * \return the union of the maps the HPCC ns-3 simulator (mix/config.txt: 25, 50,
     *         100 G) and the ASTRA-sim ns-3 backend (config.txt: 25, 40, 100, 200, 400,
     *         2400 G) ship, Pmax 0.2 everywhere
     */
    static EcnThresholdMap PeerDefault();

    /**
     * \param text the text form
     * \return the map
     * \throws InputError naming the bad entry and what is wrong with it
     */
    static EcnThresholdMap Parse(const std::string& text);

    /**
     * Define or replace the entry of a rate.
     * \param rateBps the link rate, bit/s
     * \param entry its thresholds
     * \throws InputError if the rate is 0, Kmin > Kmax or Pmax is outside [0, 1]
     */
    void Set(uint64_t rateBps, const EcnMapEntry& entry);

    /**
     * \param rateBps a port's link rate, bit/s
     * \return the entry of the largest defined rate not above it, or the slowest entry
     */
    EcnMapEntry Lookup(uint64_t rateBps) const;

    /** \return the number of defined rates */
    std::size_t GetN() const;

    /** \return the text form */
    std::string ToString() const;

    /** \param other another map \return true if both define the same entries */
    bool operator==(const EcnThresholdMap& other) const;

  private:
    std::map<uint64_t, EcnMapEntry> m_entries; //!< by rate, bit/s
};

/**
 * \ingroup mlfabric-cc
 * \param os the stream
 * \param map the map
 * \return the stream, after the text form
 */
std::ostream& operator<<(std::ostream& os, const EcnThresholdMap& map);

/**
 * \ingroup mlfabric-cc
 * Read the text form; sets failbit on malformed text.
 * \param is the stream
 * \param map the map to fill
 * \return the stream
 */
std::istream& operator>>(std::istream& is, EcnThresholdMap& map);

/**
 * \ingroup mlfabric-cc
 * EcnThresholdMapValue and MakeEcnThresholdMapChecker(): the map as an ns-3 attribute.
 */
ATTRIBUTE_HELPER_HEADER(EcnThresholdMap);

} // namespace ns3

#endif /* MLFABRIC_ECN_THRESHOLD_MAP_H */
