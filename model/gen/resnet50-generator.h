/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_RESNET50_GENERATOR_H
#define MLFABRIC_RESNET50_GENERATOR_H

#include "ns3/device-model.h"
#include "ns3/gen-workload.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-gen
 * Parameters of data-parallel ResNet-50 training.
 */
struct ResNet50Config
{
    uint32_t npus{8};       //!< data-parallel ranks
    uint64_t batch{32};     //!< images per rank per iteration
    uint32_t precision{4};  //!< bytes per gradient, weight and activation element
    uint32_t iterations{1}; //!< training iterations
    DeviceModel device;     //!< compute timing

    /** \throws InputError naming the parameter: npus below 2, batch, precision or iterations 0 */
    void Validate() const;
};

/**
 * \ingroup mlfabric-gen
 * Generate data-parallel ResNet-50 training, as the ASTRA-sim 1.0 workload of the
 * HOTI'22 RoCE congestion-control study lays it out: per iteration and rank, the
 * forward pass of the 54 layers of ResNet50Layers, then the backward pass from the
 * classifier down, each layer computing its weight gradient, then its input gradient
 * (none for the stem). Each weight gradient is all-reduced over all ranks as soon as it
 * is computed, weights × precision bytes, 102,011,648 bytes per iteration in fp32; a
 * layer's next forward waits for its all-reduce.
 *
 * \param config the parameters, validated here
 * \return the workload; one group, "1", of all ranks
 * \throws InputError for invalid parameters
 */
GenWorkload GenerateResNet50(const ResNet50Config& config);

} // namespace ns3

#endif /* MLFABRIC_RESNET50_GENERATOR_H */
