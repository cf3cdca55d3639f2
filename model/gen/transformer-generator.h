/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_TRANSFORMER_GENERATOR_H
#define MLFABRIC_TRANSFORMER_GENERATOR_H

#include "ns3/gen-workload.h"
#include "ns3/transformer-config.h"

namespace ns3
{

/**
 * \ingroup mlfabric-gen
 * Generate the training iterations of a GPT-like model under TP × PP × DP (× EP).
 *
 * Each rank runs the layers of its pipeline stage for its 1/TP share, through the 1F1B
 * schedule of OneFOneBSchedule over M = global batch / (micro-batch × DP)
 * micro-batches. On every micro-batch, per layer:
 *  - forward: attention, TP collective, MLP (or MoE: all-to-all dispatch, experts,
 *    all-to-all combine over the EP group), TP collective; backward mirrors it;
 *  - TP collective: an all-reduce of b·s·h·p bytes; with sequence parallelism an
 *    all-gather (b·s·h·p / TP per rank) before and a reduce-scatter (b·s·h·p) after
 *    each block;
 *  - the first stage's embedding adds one TP collective per micro-batch, and so does
 *    the last stage's LM head, so a stage runs (4·L/PP + [first] + [last]) × M TP
 *    all-reduces (or as many all-gathers and as many reduce-scatters);
 *  - between stages: the activation (COMM_SEND / COMM_RECV, comm_tag =
 *    2 × (iteration × M + micro-batch), + 1 for the gradient going back) and its
 *    gradient, b·s·h·p bytes (divided by TP under sequence parallelism).
 * The data-parallel reduction runs during the last micro-batch's backward (see
 * GradientSync); expert gradients are reduced over the replicas holding the same
 * experts. Under FSDP each layer's parameters are all-gathered before its forward and
 * its backward, and its gradients reduce-scattered after its backward, on every
 * micro-batch. An optimizer step ends each iteration; the next iteration starts after
 * it and, for a sharded optimizer, after the parameter all-gathers.
 *
 * Recomputation reruns, before each layer's backward, its whole forward with its TP and
 * EP collectives (full) or the attention scores (selective). With an HBM capacity, each
 * stage's MemoryFootprint must fit; with memory expansion, what does not (PlanOffload)
 * becomes MEM_LOAD / MEM_STORE nodes: the optimizer state loaded before and stored
 * after each step, and a share of each micro-batch's activations stored after its
 * forward (off the stream) and loaded when its backward begins (the stream waits).
 *
 * \param config the parameters, validated here
 * \return the workload, groups named in the comm-group file in the order TP, DP,
 *         expert DP, EP
 * \throws InputError for invalid parameters, and naming --hbm for a configuration
 *         that does not fit
 */
GenWorkload GenerateTransformer(const TransformerConfig& config);

} // namespace ns3

#endif /* MLFABRIC_TRANSFORMER_GENERATOR_H */
