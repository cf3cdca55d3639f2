/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_TRANSFORMER_COST_H
#define MLFABRIC_TRANSFORMER_COST_H

#include "ns3/gen-rank-trace.h"
#include "ns3/transformer-config.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-gen
 * What one rank of a GPT-like training job computes, holds and sends, per block of the
 * model, from the closed forms of Megatron-LM (Narayanan et al., SC'21).
 *
 * With T = b·s tokens per micro-batch, h hidden, f feed-forward, a heads, V vocabulary,
 * p bytes per element, E experts, k experts per token, and TP degree t, the forward
 * pass of one micro-batch on one TP rank costs:
 *
 * | block     | FLOPs                                | parameters per rank              |
 * |-----------|--------------------------------------|----------------------------------|
 * | attention | (8·T·h² + 4·b·s²·h) / t              | (4h² + 3h) / t + 3h              |
 * | MLP       | 4·T·h·f / t                          | (2hf + f) / t + 3h               |
 * | MoE MLP   | 4·T·k·h·f / t + 2·T·h·E (router)     | h·E + 2h, and (E/ep)·((2hf+f)/t + h) expert
 * | | embedding | T·h (position add)                   | V·h / t + s·h                    | | LM
 * head   | 2·T·h·V / t                          | V·h / t + 2h                     |
 *
 * The attention scores alone (softmax(QKᵀ)·V, rerun by selective recomputation) cost
 * 4·b·s²·h / t FLOPs and touch Q, K, V and the two score tensors.
 *
 * (the 3h replicated per block are a row-parallel bias and one LayerNorm; the dense
 * layer totals (4h² + 2hf + 3h + f)/t + 6h). A backward pass costs twice its forward:
 * input and weight gradients. Bytes touched (`tensor_size`) count each matrix
 * product's inputs, weights and outputs once, p bytes per element.
 */
struct TransformerCost
{
    /** \param config a validated configuration */
    explicit TransformerCost(const TransformerConfig& config);

    ComputeWork attention; //!< forward of the attention block
    ComputeWork mlp;       //!< forward of the dense MLP block
    ComputeWork experts;   //!< forward of the MoE block on one rank (router included)
    ComputeWork embedding; //!< forward of the embedding (first stage)
    ComputeWork head;      //!< forward of the LM head and loss (last stage)
    ComputeWork scores;    //!< softmax(QKᵀ)·V alone: what selective recomputation reruns

    uint64_t attentionParams; //!< parameters of one attention block on one rank
    uint64_t mlpParams;       //!< parameters of one dense MLP block on one rank
    uint64_t routerParams;    //!< non-expert parameters of one MoE block (router, LayerNorm)
    uint64_t expertParams;    //!< parameters of the experts one rank holds in one MoE block
    uint64_t embeddingParams; //!< parameters of the embedding on one rank
    uint64_t headParams;      //!< parameters of the final LayerNorm and LM head on one rank

    uint64_t activationBytes;      //!< b·s·h·p: a TP all-reduce or reduce-scatter
    uint64_t activationShardBytes; //!< b·s·h·p / t: a sequence-parallel all-gather input
    uint64_t pipelineBytes;        //!< one pipeline send: activation, sharded under SP
    uint64_t allToAllBytes;        //!< one MoE dispatch or combine: T·k·h·p / t
};

/**
 * \ingroup mlfabric-gen
 * \param forward work of a forward pass
 * \return work of its backward pass: twice the FLOPs and bytes
 */
ComputeWork BackwardOf(const ComputeWork& forward);

/**
 * \ingroup mlfabric-gen
 * \param params parameters updated by one rank
 * \return work of an Adam step on them: 12 FLOPs and 32 bytes (four fp32 states read
 *         and written) per parameter
 */
ComputeWork OptimizerStepOf(uint64_t params);

} // namespace ns3

#endif /* MLFABRIC_TRANSFORMER_COST_H */
