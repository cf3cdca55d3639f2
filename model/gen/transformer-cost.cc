/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "transformer-cost.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TransformerCost");

TransformerCost::TransformerCost(const TransformerConfig& c)
{
    const uint64_t b = c.microBatch;
    const uint64_t s = c.seq;
    const uint64_t h = c.hidden;
    const uint64_t f = c.FfnSize();
    const uint64_t a = c.heads;
    const uint64_t v = c.vocab;
    const uint64_t p = c.precision;
    const uint64_t t = c.tp;
    const uint64_t k = c.topK;
    const uint64_t e = c.experts;
    const uint64_t tokens = b * s;

    attention.flops = (8 * tokens * h * h + 4 * b * s * s * h) / t;
    // Input and output activations, Q/K/V and context shards, scores written and read.
    attention.bytes =
        p * (4 * h * h / t + 2 * tokens * h + 4 * tokens * h / t + 2 * b * a / t * s * s);
    scores.flops = 4 * b * s * s * h / t;
    scores.bytes = p * (3 * tokens * h / t + 2 * b * a / t * s * s);
    mlp.flops = 4 * tokens * h * f / t;
    mlp.bytes = p * (2 * h * f / t + 2 * tokens * h + 2 * tokens * f / t);
    experts.flops = k * mlp.flops + 2 * tokens * h * e;
    experts.bytes = p * (e / c.ep * 2 * h * f / t + 2 * k * tokens * h + 2 * k * tokens * f / t);
    embedding.flops = tokens * h;
    embedding.bytes = p * 2 * tokens * h;
    head.flops = 2 * tokens * h * v / t;
    head.bytes = p * (h * v / t + tokens * h + tokens * v / t);

    attentionParams = (4 * h * h + 3 * h) / t + 3 * h;
    mlpParams = (2 * h * f + f) / t + 3 * h;
    routerParams = h * e + 2 * h;
    expertParams = e / c.ep * ((2 * h * f + f) / t + h);
    embeddingParams = v * h / t + s * h;
    headParams = v * h / t + 2 * h;

    activationBytes = tokens * h * p;
    activationShardBytes = activationBytes / t;
    pipelineBytes = c.sequenceParallel ? activationShardBytes : activationBytes;
    allToAllBytes = k * tokens * h * p / t;
}

ComputeWork
BackwardOf(const ComputeWork& forward)
{
    return {2 * forward.flops, 2 * forward.bytes};
}

ComputeWork
OptimizerStepOf(uint64_t params)
{
    return {12 * params, 32 * params};
}

} // namespace ns3
