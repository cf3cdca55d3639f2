/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_OUTPUT_PATH_H
#define MLFABRIC_HPCC_OUTPUT_PATH_H

#include "ns3/hpcc-config.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Where an output file of an HPCC configuration (FCT_OUTPUT_FILE, PFC_OUTPUT_FILE,
 * QLEN_MON_FILE) is written.
 *
 * Without \p outDir it is the path the configuration gives, opened as the HPCC simulator
 * opens it: a relative path is relative to the working directory. With \p outDir it is
 * the configured file name inside \p outDir. The file's folder must exist (the simulator
 * does not create it either): otherwise an InputError names the key, where the
 * configuration set it, and the folder.
 *
 * \param config the configuration
 * \param key the configuration key, e.g. "FCT_OUTPUT_FILE"
 * \param configured the key's value (or its default)
 * \param outDir the --out-dir folder, or empty
 * \return the path to write
 */
std::string HpccOutputPath(const HpccConfig& config,
                           const std::string& key,
                           const std::string& configured,
                           const std::string& outDir);

} // namespace ns3

#endif /* MLFABRIC_HPCC_OUTPUT_PATH_H */
