/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_MEMORY_FOOTPRINT_H
#define MLFABRIC_MEMORY_FOOTPRINT_H

#include "ns3/transformer-config.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-gen
 * What one device of a pipeline stage holds in memory while it trains, in bytes.
 *
 * With P parameters on the device, p bytes per element, d data-parallel replicas:
 *  - weights p·P; under FSDP p·P/d plus the largest unit gathered for a pass;
 *  - gradients p·P; under ZeRO or FSDP p·P/d (ZeRO-2);
 *  - optimizer state of mixed-precision Adam, 12·P (fp32 master weights and two fp32
 *    moments); under ZeRO or FSDP 12·P/d;
 *  - activations: per layer and micro-batch, with T = s·b tokens, h hidden, f
 *    feed-forward, a heads, t TP degree (Korthikanti et al., MLSys'23, generalised to
 *    p bytes per element and 1-byte dropout masks):
 *    T·h·(4p + 2) replicated across TP (LayerNorm inputs, block inputs, dropout masks;
 *    divided by t under sequence parallelism) + (4p·T·h + 2p·T·f) / t (Q, K, V,
 *    projection input, MLP hidden) + (2p + 1)·a·s·T / t (softmax, its dropout mask and
 *    output; dropped by selective recomputation); full recomputation keeps only p·T·h
 *    per layer (divided by t under sequence parallelism). For p = 2 and f = 4h this is
 *    s·b·h·(10 + 24/t + 5·a·s/(h·t)). Stage i of P holds min(P − i, M) micro-batches
 *    under 1F1B. Embedding and LM-head activations are not counted.
 */
struct MemoryFootprint
{
    uint32_t stage{0};                        //!< pipeline stage of the device
    uint64_t parameters{0};                   //!< parameters the device trains
    uint64_t weightsBytes{0};                 //!< weights resident
    uint64_t gradientsBytes{0};               //!< gradients resident
    uint64_t optimizerBytes{0};               //!< optimizer state resident
    uint64_t activationBytesPerLayer{0};      //!< one layer, one micro-batch
    uint64_t activationBytesPerMicroBatch{0}; //!< the stage's layers, one micro-batch
    uint32_t inFlightMicroBatches{0};         //!< micro-batches held at once under 1F1B
    uint64_t activationsBytes{0};             //!< in-flight micro-batches' activations

    /** \return weights + gradients + optimizer state + activations */
    uint64_t TotalBytes() const;
};

/**
 * \ingroup mlfabric-gen
 * \param config a validated configuration
 * \param stage a pipeline stage, below config.pp
 * \return the footprint of one device of that stage
 */
MemoryFootprint StageFootprint(const TransformerConfig& config, uint32_t stage);

/**
 * \ingroup mlfabric-gen
 * \param config a validated configuration
 * \return the footprint of the stage that needs the most memory (the first of equals)
 */
MemoryFootprint DeviceFootprint(const TransformerConfig& config);

/**
 * \ingroup mlfabric-gen
 * What a device keeps in HBM and what it moves to remote (expansion) memory.
 *
 * The optimizer state goes first: it is needed only by the optimizer step, which loads
 * it before and stores it after. If that is not enough, a share of every micro-batch's
 * activations goes too: stored after its forward pass, loaded back before its backward
 * pass, with room in HBM for the one micro-batch being loaded. The share is the least
 * that fits, rounded up to whole bytes per micro-batch.
 */
struct OffloadPlan
{
    uint64_t hbmBytes{0};                       //!< capacity; 0 = not checked
    bool fits{true};                            //!< everything fits in HBM
    bool feasible{true};                        //!< fits, or fits with the offload below
    uint64_t optimizerOffloadBytes{0};          //!< optimizer state in remote memory
    uint64_t activationOffloadPerMicroBatch{0}; //!< bytes stored and loaded per micro-batch
    uint64_t residentBytes{0};                  //!< peak HBM use with the offload
    std::string reason;                         //!< why it is infeasible, when it is
};

/**
 * \ingroup mlfabric-gen
 * \param footprint a device's footprint
 * \param hbmBytes its HBM capacity; 0: not checked, everything fits
 * \param expansion whether remote memory may take what does not fit
 * \return the plan; feasible is false when it does not fit (without expansion) or
 *         even weights, gradients and one micro-batch's activations do not (with it)
 */
OffloadPlan PlanOffload(const MemoryFootprint& footprint, uint64_t hbmBytes, bool expansion);

/**
 * \ingroup mlfabric-gen
 * \param bytes a size
 * \return it in GB (10^9 B) with two decimals, e.g. "80.00 GB"
 */
std::string FormatGigabytes(uint64_t bytes);

} // namespace ns3

#endif /* MLFABRIC_MEMORY_FOOTPRINT_H */
