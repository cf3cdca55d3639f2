/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "memory-footprint.h"

#include "ns3/log.h"
#include "ns3/transformer-cost.h"

#include <algorithm>
#include <cstdio>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MemoryFootprint");

namespace
{

/** \return ceil(n / d) */
uint64_t
CeilDiv(uint64_t n, uint64_t d)
{
    return (n + d - 1) / d;
}

/** \return bytes of one layer's activations for one micro-batch on one TP rank */
uint64_t
LayerActivationBytes(const TransformerConfig& c)
{
    const uint64_t p = c.precision;
    const uint64_t t = c.tp;
    const uint64_t tokens = c.microBatch * c.seq;
    const uint64_t h = c.hidden;
    const uint64_t f = c.FfnSize();
    const uint64_t replicated = tokens * h * (4 * p + 2);
    const uint64_t split = (4 * p * tokens * h + 2 * p * tokens * f) / t;
    const uint64_t scores = (2 * p + 1) * c.heads * c.seq * tokens / t;
    switch (c.recompute)
    {
    case Recompute::FULL:
        return c.sequenceParallel ? p * tokens * h / t : p * tokens * h;
    case Recompute::SELECTIVE:
        return (c.sequenceParallel ? replicated / t : replicated) + split;
    default:
        return (c.sequenceParallel ? replicated / t : replicated) + split + scores;
    }
}

} // namespace

uint64_t
MemoryFootprint::TotalBytes() const
{
    return weightsBytes + gradientsBytes + optimizerBytes + activationsBytes;
}

MemoryFootprint
StageFootprint(const TransformerConfig& c, uint32_t stage)
{
    const TransformerCost cost(c);
    const bool first = stage == 0;
    const bool last = stage + 1 == c.pp;
    const bool moe = c.experts > 0;
    const uint64_t layerParams = cost.attentionParams + (moe ? cost.routerParams : cost.mlpParams);
    const uint64_t layers = c.LayersPerStage();
    const uint64_t dense =
        layers * layerParams + (first ? cost.embeddingParams : 0) + (last ? cost.headParams : 0);
    const uint64_t expert = moe ? layers * cost.expertParams : 0;
    const uint64_t p = c.precision;
    const uint64_t dp = c.dp;
    const uint64_t expertDp = moe ? c.dp / c.ep : 1;

    MemoryFootprint f;
    f.stage = stage;
    f.parameters = dense + expert;
    switch (c.sharding)
    {
    case DpSharding::FSDP:
    {
        uint64_t unit = layerParams;
        unit = std::max(unit, first ? cost.embeddingParams : 0);
        unit = std::max(unit, last ? cost.headParams : 0);
        f.weightsBytes = CeilDiv(p * dense, dp) + p * unit;
        f.gradientsBytes = CeilDiv(p * dense, dp);
        f.optimizerBytes = CeilDiv(12 * dense, dp);
        break;
    }
    case DpSharding::ZERO:
        f.weightsBytes = p * f.parameters;
        f.gradientsBytes = CeilDiv(p * dense, dp) + CeilDiv(p * expert, expertDp);
        f.optimizerBytes = CeilDiv(12 * dense, dp) + CeilDiv(12 * expert, expertDp);
        break;
    default:
        f.weightsBytes = p * f.parameters;
        f.gradientsBytes = p * f.parameters;
        f.optimizerBytes = 12 * f.parameters;
        break;
    }
    f.activationBytesPerLayer = LayerActivationBytes(c);
    f.activationBytesPerMicroBatch = layers * f.activationBytesPerLayer;
    f.inFlightMicroBatches = std::min(c.pp - stage, c.MicroBatches());
    f.activationsBytes = f.inFlightMicroBatches * f.activationBytesPerMicroBatch;
    return f;
}

MemoryFootprint
DeviceFootprint(const TransformerConfig& c)
{
    MemoryFootprint worst = StageFootprint(c, 0);
    for (uint32_t s = 1; s < c.pp; ++s)
    {
        MemoryFootprint f = StageFootprint(c, s);
        if (f.TotalBytes() > worst.TotalBytes())
        {
            worst = f;
        }
    }
    return worst;
}

OffloadPlan
PlanOffload(const MemoryFootprint& f, uint64_t hbm, bool expansion)
{
    OffloadPlan plan;
    plan.hbmBytes = hbm;
    plan.residentBytes = f.TotalBytes();
    if (hbm == 0 || f.TotalBytes() <= hbm)
    {
        return plan;
    }
    plan.fits = false;
    const std::string need = "stage " + std::to_string(f.stage) + " needs " +
                             FormatGigabytes(f.TotalBytes()) + " per device, HBM holds " +
                             FormatGigabytes(hbm);
    if (!expansion)
    {
        plan.feasible = false;
        plan.reason = need + " (no memory expansion)";
        return plan;
    }
    plan.optimizerOffloadBytes = f.optimizerBytes;
    const uint64_t base = f.weightsBytes + f.gradientsBytes;
    plan.residentBytes = base + f.activationsBytes;
    if (plan.residentBytes <= hbm)
    {
        return plan;
    }
    // Keep one − x of each of the m in-flight micro-batches and room for the x bytes of
    // the one being loaded: base + m·(one − x) + x ≤ HBM, so x ≥ excess / (m − 1).
    const uint64_t one = f.activationBytesPerMicroBatch;
    const uint64_t m = f.inFlightMicroBatches;
    const uint64_t excess = plan.residentBytes - hbm;
    if (base + one > hbm || m < 2 || CeilDiv(excess, m - 1) > one)
    {
        plan.feasible = false;
        plan.reason = need +
                      "; even with the optimizer state and all activations but one "
                      "micro-batch's in remote memory it needs " +
                      FormatGigabytes(base + one);
        return plan;
    }
    plan.activationOffloadPerMicroBatch = CeilDiv(excess, m - 1);
    const uint64_t kept = one - plan.activationOffloadPerMicroBatch;
    plan.residentBytes = base + f.inFlightMicroBatches * kept + plan.activationOffloadPerMicroBatch;
    return plan;
}

std::string
FormatGigabytes(uint64_t bytes)
{
    char text[64];
    std::snprintf(text, sizeof(text), "%.2f GB", static_cast<double>(bytes) / 1e9);
    return text;
}

} // namespace ns3
