/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_RANK_FILES_H
#define MLFABRIC_ET_RANK_FILES_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-chakra
 * \param prefix workload prefix, e.g. "traces/all_reduce/all_reduce"
 * \param rank a rank
 * \return the rank's trace file, `<prefix>.<rank>.et` (ASTRA-sim's naming)
 */
std::string EtRankFilePath(const std::string& prefix, uint32_t rank);

/**
 * \ingroup mlfabric-chakra
 * Count the ranks of a workload from the files present.
 *
 * \param prefix workload prefix
 * \return N such that `<prefix>.0.et` .. `<prefix>.<N-1>.et` all exist
 * \throws InputError naming the first missing file if there is none, or if a rank
 *         below the highest one found is missing
 */
uint32_t DiscoverEtRankCount(const std::string& prefix);

/**
 * \ingroup mlfabric-chakra
 * \param prefix workload prefix
 * \param rankCount the ranks expected
 * \throws InputError naming the first missing `<prefix>.<rank>.et`, rank < rankCount
 */
void CheckEtRankFiles(const std::string& prefix, uint32_t rankCount);

} // namespace ns3

#endif /* MLFABRIC_ET_RANK_FILES_H */
