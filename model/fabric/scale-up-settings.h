/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_SCALE_UP_SETTINGS_H
#define MLFABRIC_SCALE_UP_SETTINGS_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * How the links of a scale-up dimension (NVLink/NVSwitch, TPU ICI, Infinity Fabric
 * class) differ from RoCE: link-level credit flow control per virtual channel instead
 * of PFC, their own packet framing, the scale-up switch's latency, and no RoCE
 * congestion control on the queue pairs that stay inside the domain.
 *
 * The defaults are NVLink-class: vendors do not publish NVLink 3-5 flit formats,
 * credit sizes or hop latencies; 16-byte flits are implied for NVLink 1/2, 256 B is
 * the largest UALink request, and 150 ns is UALink's switch port-to-port bound at
 * 25.6 Tb/s (doc/fabrics.md gives the sources). Credit updates every 4 KiB freed or
 * 50 ns are an assumption, chosen so that the extra credit wait (at most 50 ns) keeps
 * a 128 KiB channel out of credit stalls up to about 4 Tb/s.
 */
struct ScaleUpSettings
{
    uint64_t creditBytes{128 * 1024}; //!< receive buffer granted per virtual channel
    int64_t creditReturnPs{0};        //!< credit return latency beyond the cable's delay
    uint32_t creditBatchBytes{4096};  //!< freed buffer returned in updates of this much
    int64_t creditIntervalPs{50'000}; //!< or at the latest this long after it was freed
    int64_t switchLatencyPs{150'000}; //!< scale-up switch port-to-port latency
    uint32_t payloadBytes{256};       //!< largest payload of one packet
    uint32_t headerBytes{16};         //!< header of every packet
    uint32_t flitBytes{16};           //!< packets are whole flits
};

} // namespace ns3

#endif /* MLFABRIC_SCALE_UP_SETTINGS_H */
