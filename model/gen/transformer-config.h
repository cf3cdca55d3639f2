/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_TRANSFORMER_CONFIG_H
#define MLFABRIC_TRANSFORMER_CONFIG_H

#include "ns3/device-model.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-gen
 * How data-parallel replicas keep their parameters in step.
 */
enum class DpSharding
{
    NONE, //!< replicated model: bucketed gradient all-reduce
    ZERO, //!< sharded optimizer (ZeRO-2, Megatron's distributed optimizer): bucketed
          //!< gradient reduce-scatter, then parameter all-gather after the step
    FSDP, //!< sharded parameters (ZeRO-3): per layer, all-gather before forward and
          //!< before backward, reduce-scatter of its gradients after backward
};

/**
 * \ingroup mlfabric-gen
 * \param text none, zero or fsdp
 * \return the sharding
 * \throws InputError naming --sharding otherwise
 */
DpSharding ParseDpSharding(const std::string& text);
/**
 * \ingroup mlfabric-gen
 * \param sharding a sharding \return none, zero or fsdp
 */
std::string ToString(DpSharding sharding);

/**
 * \ingroup mlfabric-gen
 * Which activations the backward pass recomputes instead of keeping them from the
 * forward pass (Korthikanti et al., "Reducing Activation Recomputation in Large
 * Transformer Models", MLSys'23).
 */
enum class Recompute
{
    NONE,      //!< every activation is kept
    SELECTIVE, //!< the attention scores, softmax and its dropout are recomputed
    FULL,      //!< only each layer's input is kept; the whole forward is rerun
};

/**
 * \ingroup mlfabric-gen
 * \param text none, selective or full
 * \return the recomputation
 * \throws InputError naming --recompute otherwise
 */
Recompute ParseRecompute(const std::string& text);
/**
 * \ingroup mlfabric-gen
 * \param recompute a recomputation \return none, selective or full
 */
std::string ToString(Recompute recompute);

/**
 * \ingroup mlfabric-gen
 * When offloaded activations move between HBM and remote memory.
 */
enum class OffloadOverlap
{
    SERIAL,   //!< one store per micro-batch after its forward (off the stream), one load
              //!< when its backward begins, which the backward waits for
    PREFETCH, //!< per layer: a store after the layer's forward (off the stream) and a
              //!< load issued when the backward of the layer above begins, so that it
              //!< overlaps that layer's backward; each layer waits only for its own load
};

/**
 * \ingroup mlfabric-gen
 * \param text serial or prefetch
 * \return the overlap
 * \throws InputError naming --offload-overlap otherwise
 */
OffloadOverlap ParseOffloadOverlap(const std::string& text);
/**
 * \ingroup mlfabric-gen
 * \param overlap an overlap \return serial or prefetch
 */
std::string ToString(OffloadOverlap overlap);

/**
 * \ingroup mlfabric-gen
 * A GPT-like decoder-only model and how its training is parallelized.
 */
struct TransformerConfig
{
    uint32_t npus{8};                      //!< ranks, = tp × pp × dp
    uint32_t tp{2};                        //!< tensor-parallel degree
    uint32_t pp{2};                        //!< pipeline stages
    uint32_t dp{2};                        //!< data-parallel degree
    uint32_t ep{1};                        //!< expert-parallel degree (divides dp)
    uint32_t layers{4};                    //!< transformer layers
    uint64_t hidden{1024};                 //!< hidden size h
    uint64_t ffn{0};                       //!< feed-forward size f; 0 = 4h
    uint64_t heads{16};                    //!< attention heads a
    uint64_t seq{512};                     //!< sequence length s
    uint64_t microBatch{1};                //!< sequences per micro-batch b
    uint64_t globalBatch{8};               //!< sequences per iteration, over all replicas
    uint64_t vocab{51200};                 //!< vocabulary size V
    uint32_t precision{2};                 //!< bytes per activation, weight and gradient element
    uint32_t experts{0};                   //!< experts per MoE layer; 0 = dense model
    uint32_t topK{2};                      //!< experts each token is routed to
    bool sequenceParallel{false};          //!< TP reduce-scatter / all-gather instead of all-reduce
    DpSharding sharding{DpSharding::NONE}; //!< data-parallel scheme
    uint64_t bucketBytes{25ull << 20};     //!< gradient bucket capacity
    uint32_t iterations{1};                //!< training iterations
    Recompute recompute{Recompute::NONE};  //!< activation recomputation
    uint64_t hbmBytes{0};                  //!< device memory capacity; 0 = not checked
    bool memoryExpansion{false};           //!< offload what does not fit to remote memory
    OffloadOverlap offloadOverlap{OffloadOverlap::SERIAL}; //!< how activation offload overlaps
    DeviceModel device;                                    //!< compute timing

    /**
     * \throws InputError naming the parameter: tp × pp × dp different from npus, layers
     *         not divisible by pp, any size of 0, heads not dividing hidden, tp not
     *         dividing heads, ffn or vocab, global batch not a multiple of micro-batch ×
     *         dp, sequence parallelism with seq not divisible by tp, ep without experts,
     *         experts not divisible by ep, top-k above experts, fsdp with experts,
     *         memory expansion without an HBM capacity, prefetch without memory
     *         expansion; and
     *         sizes beyond the bounds that keep FLOP counts in 64 bits (hidden 65536,
     *         ffn 262144, seq and micro-batch × seq 2^20, vocab 2^21, experts 4096,
     *         top-k 16, layers 65536)
     */
    void Validate() const;
    /** \return f: ffn, or 4 × hidden when ffn is 0 */
    uint64_t FfnSize() const;
    /** \return M = global batch / (micro-batch × dp), micro-batches per replica */
    uint32_t MicroBatches() const;
    /** \return layers / pp */
    uint32_t LayersPerStage() const;
};

} // namespace ns3

#endif /* MLFABRIC_TRANSFORMER_CONFIG_H */
