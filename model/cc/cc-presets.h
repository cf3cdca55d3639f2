/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CC_PRESETS_H
#define MLFABRIC_CC_PRESETS_H

#include "ns3/ecn-threshold-map.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-cc
 * Host link rate the presets assume unless told otherwise: 100 Gb/s.
 */
constexpr uint64_t kCcPresetDefaultHostRateBps = 100000000000ULL;

/**
 * \ingroup mlfabric-cc
 * \return the preset names: "hpcc-ns3" (the run.py presets of the HPCC ns-3
 *         simulator) and "astra-sim-ns3" (the config.txt of the ASTRA-sim ns-3 backend)
 */
std::vector<std::string> CcPresetNames();

/**
 * \ingroup mlfabric-cc
 * Set, with Config::SetDefault, the congestion-control parameters a peer simulator
 * ships, so that its published results can be compared. Every scheme the peer has is
 * set; the others keep their defaults.
 *
 * hpcc-ns3 follows run.py (whose rates scale with the host rate bw):
 * dcqcn-hpccns3 from its "dcqcn" (alpha 1 us, decrease 4 us, timer 300 us, g 1/256,
 * F 1, R_AI 5 bw/25 Mb/s, R_HAI 50 bw/25 Mb/s); dcqcn from its "dcqcn_paper" (alpha
 * and decrease slots 50 us, timer 55 us, same g, F and steps), its slotted alpha
 * expressed in the paper's model by DcqcnPaperEquivalentOf: CNP interval 50 us
 * (CcPresetCnpInterval), K 100 us, g 1/256; hpcc from "hp" (eta 0.95, maxStage 0,
 * AI 10 bw/25 Mb/s, fast react); timely from "timely" (AI 10 bw/10 Mb/s, HAI
 * 50 bw/10 Mb/s); dctcp from "dctcp" (g 1/16, AI 615 Mb/s); min rate 1000 Mb/s.
 * astra-sim-ns3 follows its config.txt: alpha 1 us, decrease 4 us, timer 900 us,
 * g 1/256, F 1, R_AI 50 Mb/s, R_HAI 100 Mb/s, eta 0.95, maxStage 0, DCTCP AI
 * 1000 Mb/s, min rate 100 Mb/s; its single DCQCN sets both flavours, the paper's
 * with CNP interval 4 us, K 5 us and g = 1 - (255/256)^4 (DcqcnPaperEquivalentOf).
 *
 * \param preset a preset name
 * \param hostRateBps the host (NIC) link rate, bit/s, for rates that scale with it
 * \throws InputError for an unknown preset
 */
void ApplyCcPreset(const std::string& preset, uint64_t hostRateBps = kCcPresetDefaultHostRateBps);

/**
 * \ingroup mlfabric-cc
 * \param preset a preset name
 * \return the receivers' CNP interval (RdmaNic::CnpInterval) under which the preset's
 *         paper DCQCN reproduces the peer: the decrease slot of the peer's DCQCN
 *         (hpcc-ns3 50 us, astra-sim-ns3 4 us)
 * \throws InputError for an unknown preset
 */
Time CcPresetCnpInterval(const std::string& preset);

/**
 * \ingroup mlfabric-cc
 * \param preset a preset name
 * \return the scheme the peer runs unless told otherwise: "hpcc" for hpcc-ns3
 *         (run.py --cc hp), "none" for astra-sim-ns3 (CC_MODE 12 matches no scheme)
 * \throws InputError for an unknown preset
 */
std::string CcPresetScheme(const std::string& preset);

/**
 * \ingroup mlfabric-cc
 * \param preset a preset name
 * \param scheme the scheme that will run (hpcc-ns3 gives DCTCP step marking)
 * \param hostRateBps the host link rate, bit/s
 * \return the ECN thresholds the peer ships: hpcc-ns3 defines the host rate and four
 *         times it, Kmin/Kmax 100/400 KB per 25 Gb/s with Pmax 0.2 (dctcp: Kmin = Kmax
 *         = 30 KB per 10 Gb/s, Pmax 1); astra-sim-ns3 its fixed map for 25 to 2400 G
 * \throws InputError for an unknown preset or scheme
 */
EcnThresholdMap CcPresetEcnMap(const std::string& preset,
                               const std::string& scheme,
                               uint64_t hostRateBps = kCcPresetDefaultHostRateBps);

} // namespace ns3

#endif /* MLFABRIC_CC_PRESETS_H */
