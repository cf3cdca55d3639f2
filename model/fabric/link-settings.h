/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_LINK_SETTINGS_H
#define MLFABRIC_LINK_SETTINGS_H

#include <cstdint>
#include <optional>

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
 *
 * ECN and PFC are optional: a link that leaves them unset takes the run's own choice
 * at packet level (the ECN map of the congestion control, the switches' default
 * lossless priorities), so that only what a description states overrides it.
 */
struct LinkSettings
{
    uint64_t rateBps{0};                  //!< line rate per direction, bit/s
    int64_t delayPs{0};                   //!< propagation delay, picoseconds
    double lossProbability{0};            //!< per-packet loss probability on the wire
    std::optional<EcnSettings> ecn;       //!< marking at switch egress queues; unset: the map's
    std::optional<uint8_t> pfcPriorities; //!< bit p set: PFC (lossless) on priority p; unset:
                                          //!< the switches' default
};

} // namespace ns3

#endif /* MLFABRIC_LINK_SETTINGS_H */
