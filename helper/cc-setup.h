/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CC_SETUP_H
#define MLFABRIC_CC_SETUP_H

#include "ns3/ecn-threshold-map.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class RoceNetwork;

/**
 * \ingroup mlfabric-helper
 * One parameter of a congestion-control scheme, as a command line gives it:
 * --ns3::CcHpcc::TargetUtilization=0.9 is {"hpcc", "TargetUtilization", "0.9"}.
 */
struct CcParameter
{
    std::string scheme;    //!< short name of the scheme, e.g. "hpcc"
    std::string attribute; //!< attribute name, e.g. "TargetUtilization"
    std::string value;     //!< value as text, e.g. "0.9"
};

/**
 * \ingroup mlfabric-helper
 * The congestion control of a run: scheme, peer preset, ECN thresholds and parameters.
 */
struct CcSettings
{
    std::string scheme; //!< short name; empty: the preset's scheme, or "none" without one
    std::string preset; //!< a peer preset (CcPresetNames()); empty: none
    std::string ecnMap; //!< ECN map text; empty: the preset's map, else the peers' default
    std::vector<CcParameter> parameters; //!< set after the preset, so they override it
    uint64_t hostRateBps{0};             //!< rate the preset scales with; 0: the fastest NIC port
};

/**
 * \ingroup mlfabric-helper
 * What InstallCongestionControl installed.
 */
struct CcInstallation
{
    std::string scheme;                //!< short name of the scheme every NIC runs
    EcnThresholdMap ecnMap;            //!< the thresholds switch egress ports got
    uint64_t hostRateBps{0};           //!< the rate presets were scaled with
    std::vector<std::string> warnings; //!< printed on stderr as "warning: ..." lines
};

/**
 * \ingroup mlfabric-helper
 * Pick the congestion-control parameters out of a command line.
 *
 * Arguments of the form `--ns3::<TypeId>::<Attribute>=<value>` whose TypeId is a scheme
 * of the registry are checked against the attribute's range and returned; all other
 * arguments are left alone.
 * \param argc argument count
 * \param argv argument vector
 * \return the parameters, in command-line order
 * \throws InputError "--ns3::CcHpcc::TargetUtilization: ..." naming the range
 */
std::vector<CcParameter> CcParametersFromArguments(int argc, char** argv);

/**
 * \ingroup mlfabric-helper
 * \param settings the settings
 * \return the scheme that runs: the given one, else the preset's, else "none"
 * \throws InputError for an unknown scheme or preset
 */
std::string ResolveCcScheme(const CcSettings& settings);

/**
 * \ingroup mlfabric-helper
 * \param settings the settings
 * \param scheme the scheme that runs
 * \param hostRateBps the host link rate, bit/s
 * \return the ECN map: the given text, else the preset's map for the scheme and host
 *         rate, else EcnThresholdMap::PeerDefault()
 * \throws InputError for malformed text or an unknown preset
 */
EcnThresholdMap ResolveEcnMap(const CcSettings& settings,
                              const std::string& scheme,
                              uint64_t hostRateBps);

/**
 * \ingroup mlfabric-helper
 * Check the settings without touching any attribute: the scheme and preset names, the
 * ECN map text and every parameter.
 * \param settings the settings
 * \throws InputError naming what is wrong
 */
void CheckCcSettings(const CcSettings& settings);

/**
 * \ingroup mlfabric-helper
 * Give switch egress ports the ECN thresholds of their line rate: those whose link
 * sets no thresholds of its own, or every port with \p overrideLinks.
 * \param net an installed network
 * \param map the thresholds per rate (at least one entry)
 * \param overrideLinks replace the links' own thresholds too
 */
void ApplyEcnMap(RoceNetwork& net, const EcnThresholdMap& map, bool overrideLinks);

/**
 * \ingroup mlfabric-helper
 * Install congestion control on a built network, before its queue pairs are opened.
 *
 * Sets, in this order, the preset's parameter defaults (scaled with the host rate),
 * the given parameters, the scheme on every NIC (and as the default of NICs created
 * later), and the ECN thresholds of switch egress ports: an ECN map given as text
 * (--ecn) sets every port; a preset's map or the peers' default only those whose link
 * leaves its thresholds unset, so that a fabric file's own thresholds hold. Queue pairs opened
 * afterwards run the scheme with these parameters. A preset also gives NICs whose
 * RdmaNic::CnpInterval is still the built-in value the preset's (CcPresetCnpInterval).
 * DCQCN with an alpha interval not above a NIC's CNP interval is a warning on stderr.
 * \param net a network whose links are all added
 * \param settings the settings
 * \return what was installed
 * \throws InputError as CheckCcSettings
 */
CcInstallation InstallCongestionControl(RoceNetwork& net, const CcSettings& settings);

} // namespace ns3

#endif /* MLFABRIC_CC_SETUP_H */
