/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_INPUT_PATH_H
#define MLFABRIC_HPCC_INPUT_PATH_H

#include "ns3/hpcc-config.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-compat
 * An input file named by a configuration key, found on disk.
 */
struct HpccInputPath
{
    std::string path; //!< the file to open
    std::string note; //!< how it was found when not where the key says; else empty
};

/**
 * \ingroup mlfabric-compat
 * Find the file an input key (TOPOLOGY_FILE, FLOW_FILE) names.
 *
 * An override (a command-line path) is used as it is. Otherwise the key's value is
 * tried as given when absolute, then relative to the configuration's folder, then
 * relative to the working directory (the simulator's own convention: it runs from its
 * simulation folder, so its configs say mix/...), then as the bare file name in the
 * configuration's folder; the last two come with a note saying where it was found.
 * \param config the configuration
 * \param key the key
 * \param override a path that replaces the key's value; empty for none
 * \param option the command-line option that overrides the key, for the message
 * \return the file
 * \throws InputError naming the key's line and every place tried when nothing is found
 */
HpccInputPath ResolveHpccInput(const HpccConfig& config,
                               const std::string& key,
                               const std::string& override,
                               const std::string& option);

} // namespace ns3

#endif /* MLFABRIC_HPCC_INPUT_PATH_H */
