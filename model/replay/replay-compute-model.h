/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_COMPUTE_MODEL_H
#define MLFABRIC_REPLAY_COMPUTE_MODEL_H

#include "ns3/et-node.h"
#include "ns3/system-config.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * How long a compute node runs.
 *
 * By default a node replays its measured `duration_micros` (times 1000 ns; ASTRA-sim
 * charges 1 ns for a duration of 0). With the roofline on (the system JSON's
 * roofline-enabled), a device node that carries `num_ops` runs for
 * num_ops / min(peak, bandwidth x intensity), intensity = num_ops / tensor_size:
 * peak-perf in TFLOPS (10^3 operations per ns) and local-mem-bw in GB/s with
 * GB = 10^9 B (bytes per ns), truncated to whole ns as ASTRA-sim does. A roofline node
 * with `tensor_size` 0 takes no time. Host-side nodes always replay their duration.
 */
class ReplayComputeModel
{
  public:
    ReplayComputeModel() = default;

    /**
     * The model of a system configuration. Throws InputError naming the file when the
     * roofline is on without a positive peak-perf and local-mem-bw.
     * \param config the system JSON
     * \return the model
     */
    static ReplayComputeModel FromSystem(const SystemConfig& config);

    /**
     * \param node a COMP_NODE (or a node replayed by its duration)
     * \return its run time, ns
     */
    uint64_t GetDurationNs(const EtNode& node) const;

    /**
     * \param node a node
     * \return true if the roofline decides its time
     */
    bool UsesRoofline(const EtNode& node) const;

    /**
     * \param numOps operations
     * \param tensorBytes bytes touched
     * \return the roofline time, ns (0 for tensorBytes 0)
     */
    uint64_t RooflineNs(uint64_t numOps, uint64_t tensorBytes) const;

    /** \return true if the roofline is on */
    bool
    IsRooflineEnabled() const
    {
        return m_roofline;
    }

  private:
    bool m_roofline{false};    //!< roofline-enabled
    double m_peakOpsPerNs{0};  //!< peak-perf, operations per ns
    double m_memBytesPerNs{0}; //!< local-mem-bw, bytes per ns
};

} // namespace ns3

#endif /* MLFABRIC_REPLAY_COMPUTE_MODEL_H */
