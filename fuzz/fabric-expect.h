/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FABRIC_EXPECT_H
#define MLFABRIC_FABRIC_EXPECT_H

namespace ns3
{

class Fabric;

/**
 * \ingroup mlfabric-fuzz
 * Abort unless a fabric a reader returned keeps the promises of a checked fabric: at
 * least two NPUs, links between two distinct nodes, rates of at least 1 bit/s, delays
 * that are not negative, loss probabilities and ECN pmax in [0, 1], kmin <= kmax.
 * \param fabric the reader's result
 */
void ExpectValidFabric(const Fabric& fabric);

} // namespace ns3

#endif /* MLFABRIC_FABRIC_EXPECT_H */
