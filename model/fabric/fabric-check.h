/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FABRIC_CHECK_H
#define MLFABRIC_FABRIC_CHECK_H

#include "ns3/fabric.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * Largest fabric a file may describe. A few numbers of a description (dimension sizes,
 * spines, cores) expand into a whole fabric, so readers check the size a description
 * implies before building it. Fuzzing builds (FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION,
 * libFuzzer's convention) lower the limits so that every input is read in milliseconds.
 */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
constexpr uint64_t kMaxFabricNpus = uint64_t{1} << 12;  //!< NPUs
constexpr uint64_t kMaxFabricLinks = uint64_t{1} << 14; //!< links
#else
constexpr uint64_t kMaxFabricNpus = uint64_t{1} << 24;  //!< NPUs
constexpr uint64_t kMaxFabricLinks = uint64_t{1} << 26; //!< links
#endif

/**
 * \ingroup mlfabric-fabric
 * Check the size a fabric description implies against kMaxFabricNpus and
 * kMaxFabricLinks. Counts are doubles so that products of large sizes cannot overflow.
 *
 * Throws InputError "<where>: describes <n> NPUs and <l> links, more than the limit of
 * ...".
 * \param npus NPUs the description implies
 * \param links links it implies
 * \param where file, line and key of the description
 */
void CheckFabricSize(double npus, double links, const std::string& where);

/**
 * \ingroup mlfabric-fabric
 * Check that a fabric can carry traffic: at least two NPUs and one connected graph.
 *
 * Throws InputError naming \p source, the fabric and, for a disconnected graph, a node
 * that cannot reach NPU 0.
 * \param fabric the fabric
 * \param source file or builder the fabric came from, for messages
 */
void CheckFabric(const Fabric& fabric, const std::string& source);

/**
 * \ingroup mlfabric-fabric
 * Whether NPUs must forward for every NPU to reach every other one: true unless one
 * connected network of switches touches every NPU.
 * \param fabric the fabric
 * \return true if NPUs have to carry transit traffic
 */
bool NpusNeedForwarding(const Fabric& fabric);

} // namespace ns3

#endif /* MLFABRIC_FABRIC_CHECK_H */
