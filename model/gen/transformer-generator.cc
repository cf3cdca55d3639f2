/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "transformer-generator.h"

#include "ns3/gen-names.h"
#include "ns3/gradient-sync.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/memory-footprint.h"
#include "ns3/one-f-one-b.h"
#include "ns3/parallel-layout.h"
#include "ns3/transformer-cost.h"

#include <map>
#include <optional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TransformerGenerator");

namespace
{

/** The communicator groups of one rank: pg_name and size of each. */
struct RankGroups
{
    std::string tp;           //!< tensor-parallel group
    std::string dp;           //!< data-parallel group
    std::string expertDp;     //!< replicas holding the same experts
    std::string ep;           //!< expert-parallel group
    uint32_t tpSize{1};       //!< ranks in tp
    uint32_t dpSize{1};       //!< ranks in dp
    uint32_t expertDpSize{1}; //!< ranks in expertDp
    uint32_t epSize{1};       //!< ranks in ep
};

/**
 * Builds one rank's iterations. Nodes on the device stream (compute and the blocking
 * TP, EP and FSDP collectives) are chained in program order; sends, receives and
 * data-parallel reductions hang off the stream so that they overlap with it.
 */
class TransformerRank
{
  public:
    TransformerRank(const TransformerConfig& config,
                    const TransformerCost& cost,
                    const ParallelLayout& layout,
                    const RankGroups& groups,
                    GenRankTrace& trace)
        : m_config(config)
        , m_cost(cost)
        , m_groups(groups)
        , m_trace(trace)
        , m_stage(layout.CoordinatesOf(trace.GetRank()).pp)
        , m_microBatches(config.MicroBatches())
        , m_layers(config.LayersPerStage())
        , m_firstStage(m_stage == 0)
        , m_lastStage(m_stage + 1 == config.pp)
        , m_moe(config.experts > 0)
        , m_offload(
              PlanOffload(StageFootprint(config, m_stage), config.hbmBytes, config.memoryExpansion))
    {
        ParallelCoordinates c = layout.CoordinatesOf(trace.GetRank());
        if (!m_firstStage)
        {
            c.pp = m_stage - 1;
            m_previousStage = layout.RankOf(c);
        }
        if (!m_lastStage)
        {
            c.pp = m_stage + 1;
            m_nextStage = layout.RankOf(c);
        }
    }

    /** \param iteration index of the iteration to append */
    void
    RunIteration(uint32_t iteration)
    {
        m_iteration = iteration;
        const bool sharded = m_config.sharding == DpSharding::ZERO;
        const std::string it = "i" + std::to_string(iteration);
        m_dense.emplace(
            m_trace, m_groups.dp, m_groups.dpSize, sharded, m_config.bucketBytes, it + ".dp");
        m_expert.emplace(m_trace,
                         m_groups.expertDp,
                         m_groups.expertDpSize,
                         sharded,
                         m_config.bucketBytes,
                         it + ".expert_dp");
        m_fsdpReductions.clear();
        for (const auto& step : OneFOneBSchedule(m_stage, m_config.pp, m_microBatches))
        {
            m_prefix = it + ".mb" + std::to_string(step.microBatch) + ".";
            if (step.forward)
            {
                Forward(step.microBatch);
            }
            else
            {
                Backward(step.microBatch, step.microBatch + 1 == m_microBatches);
            }
        }
        Step(it);
    }

  private:
    /** \return the dependencies of the next node on the device stream */
    std::vector<GenNodeRef>
    StreamDeps()
    {
        std::vector<GenNodeRef> deps = {m_tail};
        deps.insert(deps.end(), m_startDeps.begin(), m_startDeps.end());
        m_startDeps.clear();
        return deps;
    }

    /** Append a compute node to the stream. \return its id */
    uint64_t
    Compute(const std::string& name, const ComputeWork& work)
    {
        m_tail = m_trace.AddCompute(
            m_prefix + name, work, m_config.device.DurationMicros(work), StreamDeps());
        return *m_tail;
    }

    /** Append the forward of one layer's blocks to the stream (its compute and its TP
     * and EP collectives), named `<layer>.<block>.<pass>`. */
    void
    LayerForward(const std::string& layer, const std::string& pass)
    {
        TpGather(layer + ".attn." + pass);
        Compute(layer + ".attn." + pass, m_cost.attention);
        TpReduce(layer + ".attn." + pass);
        TpGather(layer + ".mlp." + pass);
        if (m_moe)
        {
            AllToAll(layer + ".moe.dispatch." + pass);
            Compute(layer + ".experts." + pass, m_cost.experts);
            AllToAll(layer + ".moe.combine." + pass);
        }
        else
        {
            Compute(layer + ".mlp." + pass, m_cost.mlp);
        }
        TpReduce(layer + ".mlp." + pass);
    }

    /** Before a layer's backward: rerun what the forward did not keep. */
    void
    Recompute(const std::string& layer)
    {
        if (m_config.recompute == Recompute::FULL)
        {
            LayerForward(layer, "recompute");
        }
        else if (m_config.recompute == Recompute::SELECTIVE)
        {
            Compute(layer + ".attn.scores.recompute", m_cost.scores);
        }
    }

    /** Append a blocking collective to the stream. */
    void
    Collective(const std::string& name,
               EtCollectiveType type,
               uint64_t bytes,
               const std::string& group)
    {
        m_tail = m_trace.AddCollective(
            m_prefix + name + "." + CollectiveOptionName(type), type, bytes, group, StreamDeps());
    }

    /** The TP collective that gathers a block's input: sequence parallelism only. */
    void
    TpGather(const std::string& block)
    {
        if (m_groups.tpSize > 1 && m_config.sequenceParallel)
        {
            Collective(block + ".tp",
                       EtCollectiveType::ALL_GATHER,
                       m_cost.activationShardBytes,
                       m_groups.tp);
        }
    }

    /** The TP collective that reduces a block's partial output. */
    void
    TpReduce(const std::string& block)
    {
        if (m_groups.tpSize > 1)
        {
            Collective(block + ".tp",
                       m_config.sequenceParallel ? EtCollectiveType::REDUCE_SCATTER
                                                 : EtCollectiveType::ALL_REDUCE,
                       m_cost.activationBytes,
                       m_groups.tp);
        }
    }

    /** A MoE token exchange over the EP group. */
    void
    AllToAll(const std::string& name)
    {
        if (m_groups.epSize > 1)
        {
            Collective(name, EtCollectiveType::ALL_TO_ALL, m_cost.allToAllBytes, m_groups.ep);
        }
    }

    /** \param params parameters of an FSDP unit \return bytes of one rank's shard */
    uint64_t
    FsdpShard(uint64_t params) const
    {
        const uint64_t bytes = params * m_config.precision;
        return (bytes + m_groups.dpSize - 1) / m_groups.dpSize;
    }

    /** Under FSDP, gather a unit's parameters on the stream before it runs. */
    void
    FsdpGather(const std::string& unit, uint64_t params)
    {
        if (m_config.sharding == DpSharding::FSDP && m_groups.dpSize > 1)
        {
            Collective(
                unit + ".fsdp", EtCollectiveType::ALL_GATHER, FsdpShard(params), m_groups.dp);
        }
    }

    /** Under FSDP, reduce-scatter a unit's gradients once `producer` made them. */
    void
    FsdpReduce(const std::string& unit, uint64_t params, uint64_t producer)
    {
        if (m_config.sharding == DpSharding::FSDP && m_groups.dpSize > 1)
        {
            m_fsdpReductions.push_back(
                m_trace.AddCollective(m_prefix + unit + ".fsdp.reduce_scatter",
                                      EtCollectiveType::REDUCE_SCATTER,
                                      FsdpShard(params) * m_groups.dpSize,
                                      m_groups.dp,
                                      {producer}));
        }
    }

    /** \return global index of the stage's local layer l */
    uint32_t
    GlobalLayer(uint32_t l) const
    {
        return m_stage * m_layers + l;
    }

    /** \return the parameters of one whole layer on this rank */
    uint64_t
    LayerParams() const
    {
        return m_cost.attentionParams + (m_moe ? m_cost.routerParams : m_cost.mlpParams);
    }

    /** \param microBatch index \param backward direction \return its pipeline tag */
    int64_t
    PipelineTag(uint32_t microBatch, bool backward) const
    {
        return 2 * (int64_t{m_iteration} * m_microBatches + microBatch) + (backward ? 1 : 0);
    }

    /** \return whether activations are offloaded and moved layer by layer */
    bool
    Prefetching() const
    {
        return m_config.offloadOverlap == OffloadOverlap::PREFETCH &&
               m_offload.activationOffloadPerMicroBatch > 0;
    }

    /** \param l a local layer \return its share of a micro-batch's offloaded bytes (the
     * per-micro-batch share split evenly, the first layers taking the remainder) */
    uint64_t
    LayerOffloadBytes(uint32_t l) const
    {
        const uint64_t total = m_offload.activationOffloadPerMicroBatch;
        return total / m_layers + (l < total % m_layers ? 1 : 0);
    }

    /** Issue the load of micro-batch m's local layer l when the next stream node may
     * begin (it waits for what that node waits for: the stream, the previous load) and
     * l's store is done. \return the load */
    GenNodeRef
    PrefetchLayer(uint32_t m, uint32_t l)
    {
        const std::string layer = "layer" + std::to_string(GlobalLayer(l));
        std::vector<GenNodeRef> deps = {m_tail, m_layerStores.at({m, l})};
        deps.insert(deps.end(), m_startDeps.begin(), m_startDeps.end());
        return m_trace.AddMemory(
            m_prefix + layer + ".act.offload.load", false, LayerOffloadBytes(l), deps);
    }

    void
    Forward(uint32_t m)
    {
        if (!m_firstStage)
        {
            // Posted in program order; the next stream node waits for the data.
            m_startDeps.push_back(m_trace.AddRecv(m_prefix + "act.recv",
                                                  m_previousStage,
                                                  PipelineTag(m, false),
                                                  m_cost.pipelineBytes,
                                                  {m_tail}));
        }
        else
        {
            FsdpGather("embedding", m_cost.embeddingParams);
            Compute("embedding.fwd", m_cost.embedding);
            TpReduce("embedding.fwd");
        }
        for (uint32_t l = 0; l < m_layers; ++l)
        {
            const std::string layer = "layer" + std::to_string(GlobalLayer(l));
            FsdpGather(layer, LayerParams());
            LayerForward(layer, "fwd");
            if (Prefetching())
            {
                // Off the stream: written back while the next layers run.
                m_layerStores[{m, l}] = m_trace.AddMemory(
                    m_prefix + layer + ".act.offload.store", true, LayerOffloadBytes(l), {m_tail});
            }
        }
        if (m_lastStage)
        {
            FsdpGather("head", m_cost.headParams);
            TpGather("head.fwd");
            Compute("head.fwd", m_cost.head);
        }
        if (m_offload.activationOffloadPerMicroBatch > 0 && !Prefetching())
        {
            // Off the stream: the copy overlaps the next passes.
            m_activationStores[m] = m_trace.AddMemory(m_prefix + "act.offload.store",
                                                      true,
                                                      m_offload.activationOffloadPerMicroBatch,
                                                      {m_tail});
        }
        if (!m_lastStage)
        {
            m_trace.AddSend(m_prefix + "act.send",
                            m_nextStage,
                            PipelineTag(m, false),
                            m_cost.pipelineBytes,
                            {m_tail});
        }
    }

    void
    Backward(uint32_t m, bool lastMicroBatch)
    {
        const bool reduce = lastMicroBatch && m_config.sharding != DpSharding::FSDP;
        const uint64_t p = m_config.precision;
        GenNodeRef prefetched; // the load of the next layer down, issued a layer ahead
        if (Prefetching())
        {
            // The top layer's load: issued when the backward begins, before the head's
            // backward and the wait for the gradients.
            prefetched = PrefetchLayer(m, m_layers - 1);
        }
        else if (m_offload.activationOffloadPerMicroBatch > 0)
        {
            // Loaded when the backward begins, not prefetched: the stream waits for it.
            m_startDeps.push_back(m_trace.AddMemory(m_prefix + "act.offload.load",
                                                    false,
                                                    m_offload.activationOffloadPerMicroBatch,
                                                    {m_tail, m_activationStores.at(m)}));
        }
        if (m_lastStage)
        {
            FsdpGather("head", m_cost.headParams);
            const uint64_t head = Compute("head.bwd", BackwardOf(m_cost.head));
            TpReduce("head.bwd");
            FsdpReduce("head", m_cost.headParams, head);
            if (reduce)
            {
                m_dense->GradientReady(m_cost.headParams * p, head);
            }
        }
        else
        {
            m_startDeps.push_back(m_trace.AddRecv(m_prefix + "grad.recv",
                                                  m_nextStage,
                                                  PipelineTag(m, true),
                                                  m_cost.pipelineBytes,
                                                  {m_tail}));
        }
        for (uint32_t l = m_layers; l-- > 0;)
        {
            const std::string layer = "layer" + std::to_string(GlobalLayer(l));
            if (Prefetching())
            {
                // This layer waits for its own activations only; the layer below's load
                // starts with it and overlaps its backward, one load at a time.
                m_startDeps.push_back(prefetched);
                prefetched = l > 0 ? PrefetchLayer(m, l - 1) : GenNodeRef{};
            }
            FsdpGather(layer, LayerParams());
            Recompute(layer);
            TpGather(layer + ".mlp.bwd");
            uint64_t mlp = 0;
            if (m_moe)
            {
                AllToAll(layer + ".moe.combine.bwd");
                mlp = Compute(layer + ".experts.bwd", BackwardOf(m_cost.experts));
                AllToAll(layer + ".moe.dispatch.bwd");
            }
            else
            {
                mlp = Compute(layer + ".mlp.bwd", BackwardOf(m_cost.mlp));
            }
            TpReduce(layer + ".mlp.bwd");
            if (reduce)
            {
                m_dense->GradientReady((m_moe ? m_cost.routerParams : m_cost.mlpParams) * p, mlp);
                m_expert->GradientReady(m_cost.expertParams * p, mlp);
            }
            TpGather(layer + ".attn.bwd");
            const uint64_t attention = Compute(layer + ".attn.bwd", BackwardOf(m_cost.attention));
            TpReduce(layer + ".attn.bwd");
            FsdpReduce(layer, LayerParams(), attention);
            if (reduce)
            {
                m_dense->GradientReady(m_cost.attentionParams * p, attention);
            }
        }
        if (m_firstStage)
        {
            FsdpGather("embedding", m_cost.embeddingParams);
            TpGather("embedding.bwd");
            const uint64_t embedding = Compute("embedding.bwd", BackwardOf(m_cost.embedding));
            FsdpReduce("embedding", m_cost.embeddingParams, embedding);
            if (reduce)
            {
                m_dense->GradientReady(m_cost.embeddingParams * p, embedding);
            }
        }
        else
        {
            m_trace.AddSend(m_prefix + "grad.send",
                            m_previousStage,
                            PipelineTag(m, true),
                            m_cost.pipelineBytes,
                            {m_tail});
        }
        if (reduce)
        {
            m_dense->Flush();
            m_expert->Flush();
        }
    }

    /** The optimizer step closing the iteration, and what it releases. */
    void
    Step(const std::string& it)
    {
        uint64_t dense = m_layers * LayerParams() + (m_firstStage ? m_cost.embeddingParams : 0) +
                         (m_lastStage ? m_cost.headParams : 0);
        uint64_t expert = m_layers * m_cost.expertParams;
        if (m_config.sharding != DpSharding::NONE)
        {
            dense /= m_groups.dpSize;
            expert /= m_groups.expertDpSize;
        }
        std::vector<GenNodeRef> deps = StreamDeps();
        const std::vector<uint64_t>* const waited[] = {
            &m_dense->GetReductions(), &m_expert->GetReductions(), &m_fsdpReductions};
        for (const auto* reductions : waited)
        {
            deps.insert(deps.end(), reductions->begin(), reductions->end());
        }
        const ComputeWork work = OptimizerStepOf(dense + expert);
        const uint64_t offloaded = m_offload.optimizerOffloadBytes;
        if (offloaded > 0)
        {
            // The state comes in for the step and goes back out after it.
            deps.push_back(m_optimizerStore);
            deps = {m_trace.AddMemory(it + ".optimizer.load", false, offloaded, deps)};
        }
        m_tail = m_trace.AddCompute(
            it + ".optimizer.step", work, m_config.device.DurationMicros(work), deps);
        if (offloaded > 0)
        {
            m_optimizerStore =
                m_trace.AddMemory(it + ".optimizer.store", true, offloaded, {m_tail});
        }
        for (auto* sync : {&*m_dense, &*m_expert})
        {
            for (uint64_t gather : sync->GatherParameters(*m_tail))
            {
                m_startDeps.push_back(gather);
            }
        }
    }

    const TransformerConfig& m_config;               //!< parameters
    const TransformerCost& m_cost;                   //!< per-block figures
    const RankGroups& m_groups;                      //!< this rank's groups
    GenRankTrace& m_trace;                           //!< this rank's trace
    uint32_t m_stage;                                //!< pipeline stage
    uint32_t m_microBatches;                         //!< M
    uint32_t m_layers;                               //!< layers of this stage
    bool m_firstStage;                               //!< holds the embedding
    bool m_lastStage;                                //!< holds the LM head
    bool m_moe;                                      //!< MLP blocks are mixtures of experts
    uint32_t m_previousStage{0};                     //!< rank of the same position one stage up
    uint32_t m_nextStage{0};                         //!< rank of the same position one stage down
    uint32_t m_iteration{0};                         //!< iteration being built
    std::string m_prefix;                            //!< node name prefix of the current step
    GenNodeRef m_tail;                               //!< last node on the device stream
    std::vector<GenNodeRef> m_startDeps;             //!< also awaited by the next stream node
    std::optional<GradientSync> m_dense;             //!< DP reduction of dense gradients
    std::optional<GradientSync> m_expert;            //!< DP reduction of expert gradients
    std::vector<uint64_t> m_fsdpReductions;          //!< FSDP reduce-scatters this iteration
    OffloadPlan m_offload;                           //!< what this stage keeps in remote memory
    std::map<uint32_t, uint64_t> m_activationStores; //!< micro-batch → its offload store
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> m_layerStores; //!< (micro-batch, layer)
                                                                     //!< → its store
    GenNodeRef m_optimizerStore; //!< the previous step's optimizer store
};

} // namespace

GenWorkload
GenerateTransformer(const TransformerConfig& config)
{
    config.Validate();
    const OffloadPlan device =
        PlanOffload(DeviceFootprint(config), config.hbmBytes, config.memoryExpansion);
    if (!device.feasible)
    {
        throw InputError("--hbm: " + device.reason);
    }
    const ParallelLayout layout(config.tp, config.dp, config.pp, config.ep);
    const TransformerCost cost(config);
    GenWorkload workload("transformer", config.npus);
    for (const auto& [name, value] : std::initializer_list<std::pair<const char*, std::string>>{
             {"npus", std::to_string(config.npus)},
             {"tp", std::to_string(config.tp)},
             {"pp", std::to_string(config.pp)},
             {"dp", std::to_string(config.dp)},
             {"ep", std::to_string(config.ep)},
             {"layers", std::to_string(config.layers)},
             {"hidden", std::to_string(config.hidden)},
             {"ffn", std::to_string(config.FfnSize())},
             {"heads", std::to_string(config.heads)},
             {"seq", std::to_string(config.seq)},
             {"micro-batch", std::to_string(config.microBatch)},
             {"global-batch", std::to_string(config.globalBatch)},
             {"vocab", std::to_string(config.vocab)},
             {"precision-bytes", std::to_string(config.precision)},
             {"experts", std::to_string(config.experts)},
             {"top-k", std::to_string(config.topK)},
             {"sequence-parallel", config.sequenceParallel ? "1" : "0"},
             {"sharding", ToString(config.sharding)},
             {"bucket-size", std::to_string(config.bucketBytes)},
             {"iterations", std::to_string(config.iterations)}})
    {
        workload.AddParameter(name, value);
    }
    // Written only when set, so that workloads generated without them stay byte-identical.
    if (config.recompute != Recompute::NONE)
    {
        workload.AddParameter("recompute", ToString(config.recompute));
    }
    if (config.hbmBytes > 0)
    {
        workload.AddParameter("hbm", std::to_string(config.hbmBytes));
        workload.AddParameter("memory-expansion", config.memoryExpansion ? "1" : "0");
    }
    if (config.offloadOverlap != OffloadOverlap::SERIAL)
    {
        workload.AddParameter("offload-overlap", ToString(config.offloadOverlap));
    }
    workload.AddParameter("peak-tflops", config.device.peakTflops);
    workload.AddParameter("efficiency", config.device.efficiency);
    workload.AddParameter("mem-bw", config.device.memoryGBps);

    // Register groups kind by kind so that their ids come in blocks: TP, DP, expert DP,
    // EP. Only groups of two ranks or more carry traffic and are named.
    std::vector<RankGroups> groups(config.npus);
    for (auto& g : groups)
    {
        g.tpSize = config.tp;
        g.dpSize = config.dp;
        g.epSize = config.experts > 0 ? config.ep : 1;
        g.expertDpSize = config.experts > 0 ? config.dp / config.ep : 1;
    }
    for (uint32_t r = 0; r < config.npus && config.tp > 1; ++r)
    {
        groups[r].tp = workload.groups.Register(layout.TpGroup(r), "tp");
    }
    for (uint32_t r = 0; r < config.npus && config.dp > 1; ++r)
    {
        groups[r].dp = workload.groups.Register(layout.DpGroup(r), "dp");
    }
    for (uint32_t r = 0; r < config.npus && groups[r].expertDpSize > 1; ++r)
    {
        groups[r].expertDp = workload.groups.Register(layout.ExpertDpGroup(r), "dp");
    }
    for (uint32_t r = 0; r < config.npus && groups[r].epSize > 1; ++r)
    {
        groups[r].ep = workload.groups.Register(layout.EpGroup(r), "ep");
    }
    for (uint32_t r = 0; r < config.npus; ++r)
    {
        TransformerRank rank(config, cost, layout, groups[r], workload.ranks[r]);
        for (uint32_t i = 0; i < config.iterations; ++i)
        {
            rank.RunIteration(i);
        }
    }
    return workload;
}

} // namespace ns3
