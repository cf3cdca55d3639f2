/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_LINK_SETTINGS_H
#define MLFABRIC_LINK_SETTINGS_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * RED/ECN marking on a switch egress queue: no marks below kmin bytes, probability
 * rising linearly to pmax at kmax, every packet marked above kmax.
 */
struct EcnSettings
{
    uint64_t kminBytes{0}; //!< lower threshold
    uint64_t kmaxBytes{0}; //!< upper threshold
    double pmax{0};        //!< marking probability at kmax
};

/**
 * \ingroup mlfabric-fabric
 * Parameters of one full-duplex link; both directions are alike.
 */
struct LinkSettings
{
    uint64_t rateBps{0};       //!< line rate per direction, bit/s
    int64_t delayPs{0};        //!< propagation delay, picoseconds
    double lossProbability{0}; //!< per-packet loss probability on the wire
    EcnSettings ecn;           //!< marking at switch egress queues of this link
    uint8_t pfcPriorities{0};  //!< bit p set: PFC (lossless) on priority p
};

} // namespace ns3

#endif /* MLFABRIC_LINK_SETTINGS_H */
