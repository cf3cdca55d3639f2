/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CC_REGISTRY_H
#define MLFABRIC_CC_REGISTRY_H

#include "ns3/congestion-ops.h"
#include "ns3/ptr.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-cc
 * \return the short names of the congestion-control schemes, as given to --cc:
 *         none, dcqcn, dcqcn-hpccns3, dcqcn-window, hpcc, timely, dctcp, swift, nscc
 */
std::vector<std::string> CcSchemeNames();

/**
 * \ingroup mlfabric-cc
 * \param scheme a short name, e.g. "hpcc"
 * \return its TypeId name, e.g. "ns3::CcHpcc"
 * \throws InputError "unknown congestion control 'x' (known: ...)"
 */
std::string CcTypeIdName(const std::string& scheme);

/**
 * \ingroup mlfabric-cc
 * Create one instance (for one queue pair) with the current attribute defaults.
 * \param scheme a short name
 * \return the instance, not yet initialised
 * \throws InputError for an unknown name
 */
Ptr<RdmaCongestionOps> CreateCongestionOps(const std::string& scheme);

/**
 * \ingroup mlfabric-cc
 * Check a parameter of a scheme: it must exist and the value must parse and lie in
 * the attribute's range.
 * \param scheme a short name
 * \param attribute the attribute name, e.g. "TargetUtilization"
 * \param value the value as text, e.g. "0.9", "55us", "40Mb/s"
 * \throws InputError naming the scheme, the attribute and the allowed range
 */
void CheckCcParameter(const std::string& scheme,
                      const std::string& attribute,
                      const std::string& value);

/**
 * \ingroup mlfabric-cc
 * Check a parameter (see CheckCcParameter) and make it the default of every instance
 * created afterwards.
 * \param scheme a short name
 * \param attribute the attribute name
 * \param value the value as text
 * \throws InputError as CheckCcParameter
 */
void SetCcParameter(const std::string& scheme,
                    const std::string& attribute,
                    const std::string& value);

} // namespace ns3

#endif /* MLFABRIC_CC_REGISTRY_H */
