/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_EFFECTIVE_SETTINGS_H
#define MLFABRIC_EFFECTIVE_SETTINGS_H

#include "ns3/path-settings.h"
#include "ns3/roce-switch.h"
#include "ns3/scale-up-settings.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
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
 * Switches that admit to their shared buffer alike (SharedBufferMmu).
 */
struct BufferAdmission
{
    double alpha{0};               //!< ingress dynamic threshold (Alpha)
    double lossyEgressAlpha{0};    //!< egress threshold of lossy traffic; 0 = none
    uint64_t headroomPoolBytes{0}; //!< shared headroom pool; 0 = per-queue headroom
    uint32_t switches{0};          //!< how many
};

/**
 * \ingroup mlfabric-helper
 * The link-level flow control of one fabric dimension as installed.
 */
struct DimensionFlowControl
{
    std::string name;                       //!< dimension name; "(no dimension)" for links without
    std::optional<ScaleUpSettings> scaleUp; //!< credits and framing; unset: RoCE links
    bool pfc{false};                        //!< RoCE links with a lossless priority
    uint32_t links{0};                      //!< links of the dimension
};

/**
 * \ingroup mlfabric-helper
 * Congestion control of one class of NIC ports.
 */
struct CcPortClass
{
    std::string portClass; //!< "RoCE" or "scale-up"
    std::string scheme;    //!< TypeId name of the queue pairs' congestion control
    uint32_t ports{0};     //!< NIC ports of the class
};

/**
 * \ingroup mlfabric-helper
 * The relays of NPUs that forward (NpuRelay), as installed.
 */
struct RelaySettings
{
    uint32_t npus{0};            //!< NPUs whose relay is configured (they may forward)
    uint64_t bufferBytes{0};     //!< largest relay buffer
    uint8_t lossless{0};         //!< priorities some relay ingress port holds back by PFC
    bool ecnMarking{false};      //!< relays mark at all (NpuRelay::EcnEnabled)
    std::vector<EcnClass> ecn;   //!< relay egress ports by rate, then thresholds
    uint32_t localWeight{1};     //!< the NPUs' own data's share of a port (NpuRelay::LocalWeight)
    uint32_t transitWeight{1};   //!< relayed data's share (NpuRelay::TransitWeight)
    uint32_t handOvers{0};       //!< relays with both credit (scale-up) and RoCE ports
    uint32_t stagedHandOvers{0}; //!< of those, relays that stage (NpuRelay::StageHandOvers)
};

/**
 * \ingroup mlfabric-helper
 * What a packet-level run really uses for PFC and ECN, read back from the installed
 * ports (so it shows the fabric file's settings, the defaults and the ECN map as they
 * combined).
 */
struct EffectiveSettings
{
    std::vector<LosslessGroup> lossless;  //!< by priority set, ascending
    bool ecnMarking{false};               //!< switches mark at all (RoceSwitch::EcnEnabled)
    std::vector<EcnClass> ecn;            //!< by rate, then thresholds
    bool ecnAtEnqueue{false};             //!< some switch marks on arrival (EcnMarkPoint)
    std::string ecnPriorities;            //!< RoceSwitch::EcnPriorityThresholds, if set
    std::vector<BufferAdmission> buffers; //!< switch buffer admission, by settings
    std::vector<DimensionFlowControl> flowControl; //!< per dimension, in order
    std::vector<CcPortClass> congestionControl;    //!< per NIC port class
    uint32_t scaleUpAckInterval{0};                //!< packets per ACK on all-scale-up queue pairs
    RelaySettings relays;                          //!< NPU relays (none on switch-only paths)
    PathSettings paths;                            //!< load balancing and transport
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
 * \return four lines: "lossless priorities: 3 (34 ports)", the ECN classes (then the
 *         switch buffers' admission when there are switches), the flow
 *         control per dimension and the congestion control per NIC port class, a fifth
 *         for NPU relays when there are any, then the load balancing and transport
 */
std::string FormatEffectiveSettings(const EffectiveSettings& s);

/**
 * \ingroup mlfabric-helper
 * \param s effective settings
 * \return {"lossless_priorities": [{"priorities": [3], "ports": 34}], "ecn_marking": true,
 *         "ecn": [{"rate_bps", "kmin_bytes", "kmax_bytes", "pmax", "source", "ports"}],
 *         "ecn_mark_point": "dequeue" or "enqueue", "ecn_priorities": text,
 *         "switch_buffers": [{"alpha", "lossy_egress_alpha", "headroom_pool_bytes",
 *         "switches"}],
 *         "flow_control": [{"dimension", "kind" ("credit", "pfc" or "none"), "links", and
 *         for credits "vc_buffer_bytes", "credit_latency_ps", "switch_latency_ps",
 *         "payload_bytes", "header_bytes", "flit_bytes"}],
 *         "congestion_control": [{"port_class", "scheme", "ports"}],
 *         "npu_relays": {"npus", "buffer_bytes", "pfc_priorities", "ecn_marking", "ecn",
 *         "local_weight", "transit_weight", "scale_up_to_roce", "scale_up_to_roce_staged"},
 *         "paths": PathSettingsToJson}
 */
nlohmann::json EffectiveSettingsToJson(const EffectiveSettings& s);

} // namespace ns3

#endif /* MLFABRIC_EFFECTIVE_SETTINGS_H */
