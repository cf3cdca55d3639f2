/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_EFFECTIVE_SETTINGS_H
#define MLFABRIC_EFFECTIVE_SETTINGS_H

#include "ns3/roce-switch.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class RoceNetwork;

/**
 * \ingroup mlfabric-helper
 * Ports that share one set of lossless priorities.
 */
struct LosslessGroup
{
    uint8_t priorities{0}; //!< bit p set: priority p is lossless
    uint32_t ports{0};     //!< NIC and switch ports with exactly this set
};

/**
 * \ingroup mlfabric-helper
 * Switch egress ports of one link rate that mark with the same thresholds.
 */
struct EcnClass
{
    uint64_t rateBps{0};  //!< the ports' line rate
    EcnThresholds ecn;    //!< their thresholds
    bool fromLink{false}; //!< set by the fabric's links (else by the ECN map)
    uint32_t ports{0};    //!< how many
};

/**
 * \ingroup mlfabric-helper
 * The relays of NPUs that forward (NpuRelay), as installed.
 */
struct RelaySettings
{
    uint32_t npus{0};          //!< NPUs whose relay is configured (they may forward)
    uint64_t bufferBytes{0};   //!< largest relay buffer
    uint8_t lossless{0};       //!< priorities some relay ingress port holds back by PFC
    bool ecnMarking{false};    //!< relays mark at all (NpuRelay::EcnEnabled)
    std::vector<EcnClass> ecn; //!< relay egress ports by rate, then thresholds
    uint32_t localWeight{1};   //!< the NPUs' own data's share of a port (NpuRelay::LocalWeight)
    uint32_t transitWeight{1}; //!< relayed data's share (NpuRelay::TransitWeight)
};

/**
 * \ingroup mlfabric-helper
 * What a packet-level run really uses for PFC and ECN, read back from the installed
 * ports (so it shows the fabric file's settings, the defaults and the ECN map as they
 * combined).
 */
struct EffectiveSettings
{
    std::vector<LosslessGroup> lossless; //!< by priority set, ascending
    bool ecnMarking{false};              //!< switches mark at all (RoceSwitch::EcnEnabled)
    std::vector<EcnClass> ecn;           //!< by rate, then thresholds
    RelaySettings relays;                //!< NPU relays (none on switch-only paths)
};

/**
 * \ingroup mlfabric-helper
 * \param net an installed network, congestion control and ECN map applied
 * \return its effective settings
 */
EffectiveSettings CollectEffectiveSettings(const RoceNetwork& net);

/**
 * \ingroup mlfabric-helper
 * \param s effective settings
 * \return two lines: "lossless priorities: 3 (34 ports)" and the ECN classes, and a
 *         third for NPU relays when there are any
 */
std::string FormatEffectiveSettings(const EffectiveSettings& s);

/**
 * \ingroup mlfabric-helper
 * \param s effective settings
 * \return {"lossless_priorities": [{"priorities": [3], "ports": 34}], "ecn_marking": true,
 *         "ecn": [{"rate_bps", "kmin_bytes", "kmax_bytes", "pmax", "source", "ports"}],
 *         "npu_relays": {"npus", "buffer_bytes", "pfc_priorities", "ecn_marking", "ecn",
 *         "local_weight", "transit_weight"}}
 */
nlohmann::json EffectiveSettingsToJson(const EffectiveSettings& s);

} // namespace ns3

#endif /* MLFABRIC_EFFECTIVE_SETTINGS_H */
