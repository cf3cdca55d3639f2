/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_DEVICE_MODEL_H
#define MLFABRIC_DEVICE_MODEL_H

#include "ns3/gen-rank-trace.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-gen
 * The accelerator a generated workload runs on, reduced to a roofline.
 *
 * A compute node lasts max(flops / (peak × efficiency), bytes / memory bandwidth):
 * large matrix products are bound by arithmetic, element-wise work by memory. The
 * figures also travel in the trace (`num_ops`, `tensor_size`) so that a replay with
 * its own roofline can recompute the time.
 */
struct DeviceModel
{
    double peakTflops{312.0};  //!< dense peak, TFLOP/s (A100 bf16: 312)
    double efficiency{0.5};    //!< fraction of the peak that kernels reach, (0, 1]
    double memoryGBps{2039.0}; //!< memory bandwidth, GB/s with GB = 10^9 B

    /** \throws InputError naming --peak-tflops, --efficiency or --mem-bw if out of range */
    void Validate() const;
    /**
     * \param work operations and bytes of a node
     * \return its duration in whole microseconds, rounded to the nearest and at least 1
     *         for any non-zero work (ASTRA-sim reads 0 as 1 ns)
     */
    uint64_t DurationMicros(const ComputeWork& work) const;
};

} // namespace ns3

#endif /* MLFABRIC_DEVICE_MODEL_H */
