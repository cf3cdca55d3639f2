/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CC_OPTIONS_H
#define MLFABRIC_CC_OPTIONS_H

#include "ns3/cc-setup.h"

#include <vector>

namespace ns3
{

class ExampleCli;

/**
 * \ingroup mlfabric-helper
 * Declare the congestion-control options of an example:
 * --cc=none|dcqcn|dcqcn-hpccns3|hpcc|timely|dctcp|swift|nscc|all, --cc-preset=NAME and
 * --ecn=MAP. Scheme parameters are ns-3 attributes (--ns3::CcHpcc::TargetUtilization=0.9).
 * \param cli the command line, before Parse
 */
void AddCcOptions(ExampleCli& cli);

/**
 * \ingroup mlfabric-helper
 * Read the congestion-control options after ExampleCli::Parse.
 *
 * Without --cc the preset's scheme runs, or none without a preset; --cc=all gives one
 * run per scheme, in CcSchemeNames() order. Every run shares the preset, the ECN map
 * and the parameters.
 * \param cli the parsed command line
 * \param parameters the scheme parameters, from CcParametersFromArguments (call it
 *        before Parse so that a value out of range is reported with its range)
 * \return one settings per run
 * \throws InputError naming the option (--cc, --cc-preset or --ecn) and the problem
 */
std::vector<CcSettings> GetCcOptions(const ExampleCli& cli,
                                     const std::vector<CcParameter>& parameters);

} // namespace ns3

#endif /* MLFABRIC_CC_OPTIONS_H */
