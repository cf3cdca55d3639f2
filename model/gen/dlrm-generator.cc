/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dlrm-generator.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <limits>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlrmGenerator");

namespace
{

/** \throws InputError "--name: must be in [1, max] (got value)" unless it is */
void
RequireRange(const std::string& name, uint64_t value, uint64_t max)
{
    if (value == 0 || value > max)
    {
        throw InputError("--" + name + ": must be in [1, " + std::to_string(max) + "] (got " +
                         std::to_string(value) + ")");
    }
}

/** \return the widths as "a,b,c" */
std::string
Join(const std::vector<uint64_t>& widths)
{
    std::string text;
    for (uint64_t w : widths)
    {
        text += (text.empty() ? "" : ",") + std::to_string(w);
    }
    return text;
}

/** A fully connected layer of an MLP. */
struct DenseLayer
{
    std::string name; //!< e.g. "bottom1"
    uint64_t in;      //!< input width
    uint64_t out;     //!< output width

    /** \return weights and biases */
    uint64_t
    Params() const
    {
        return in * out + out;
    }

    /** \return forward work for `batch` samples of `p` bytes per element */
    ComputeWork
    Forward(uint64_t batch, uint64_t p) const
    {
        return {2 * batch * in * out, p * (batch * (in + out) + Params())};
    }
};

/** \return the layers of an MLP taking `in` inputs */
std::vector<DenseLayer>
MlpLayers(const std::string& name, uint64_t in, const std::vector<uint64_t>& widths)
{
    std::vector<DenseLayer> layers;
    for (size_t i = 0; i < widths.size(); ++i)
    {
        layers.push_back({name + std::to_string(i), in, widths[i]});
        in = widths[i];
    }
    return layers;
}

} // namespace

void
DlrmConfig::Validate() const
{
    if (npus < 2 || npus > static_cast<uint32_t>(std::numeric_limits<int32_t>::max()))
    {
        throw InputError("--npus: DLRM needs at least 2 ranks (got " + std::to_string(npus) + ")");
    }
    RequireRange("batch", batch, 1 << 20);
    RequireRange("dense-features", denseFeatures, 1 << 16);
    RequireRange("tables", tables, 1 << 12);
    RequireRange("embedding-dim", embeddingDim, 1 << 16);
    RequireRange("pooling", pooling, 1 << 12);
    RequireRange("precision", precision, 8);
    RequireRange("iterations", iterations, 1 << 20);
    if (tables % npus != 0)
    {
        throw InputError("--tables (" + std::to_string(tables) +
                         ") must be a multiple of --npus (" + std::to_string(npus) +
                         "): every rank holds the same number of tables");
    }
    for (const auto& [name, widths] :
         {std::pair{"bottom-mlp", &bottomMlp}, std::pair{"top-mlp", &topMlp}})
    {
        if (widths->empty())
        {
            throw InputError(std::string("--") + name + ": needs at least one layer");
        }
        for (uint64_t w : *widths)
        {
            RequireRange(name, w, 1 << 16);
        }
    }
    if (bottomMlp.back() != embeddingDim)
    {
        throw InputError("--bottom-mlp: its last width (" + std::to_string(bottomMlp.back()) +
                         ") must equal --embedding-dim (" + std::to_string(embeddingDim) + ")");
    }
    device.Validate();
}

uint64_t
DlrmConfig::InteractionWidth() const
{
    return embeddingDim + uint64_t{tables} * (tables + 1) / 2;
}

GenWorkload
GenerateDlrm(const DlrmConfig& config)
{
    config.Validate();
    GenWorkload workload("dlrm", config.npus);
    workload.AddParameter("npus", std::to_string(config.npus));
    workload.AddParameter("batch", std::to_string(config.batch));
    workload.AddParameter("dense-features", std::to_string(config.denseFeatures));
    workload.AddParameter("tables", std::to_string(config.tables));
    workload.AddParameter("embedding-dim", std::to_string(config.embeddingDim));
    workload.AddParameter("pooling", std::to_string(config.pooling));
    workload.AddParameter("bottom-mlp", Join(config.bottomMlp));
    workload.AddParameter("top-mlp", Join(config.topMlp));
    workload.AddParameter("precision-bytes", std::to_string(config.precision));
    workload.AddParameter("iterations", std::to_string(config.iterations));
    workload.AddParameter("peak-tflops", config.device.peakTflops);
    workload.AddParameter("efficiency", config.device.efficiency);
    workload.AddParameter("mem-bw", config.device.memoryGBps);

    std::vector<uint32_t> everyone(config.npus);
    std::iota(everyone.begin(), everyone.end(), 0);
    const std::string world = workload.groups.Register(everyone);

    const uint64_t b = config.batch;
    const uint64_t p = config.precision;
    const uint64_t d = config.embeddingDim;
    const uint64_t t = config.tables;
    const uint64_t localLookups = b * config.npus * (t / config.npus) * config.pooling;
    const ComputeWork lookup{localLookups * d, p * (localLookups * d + b * t * d)};
    const ComputeWork interaction{2 * b * (t + 1) * (t + 1) * d,
                                  p * b * ((t + 1) * d + (t + 1) * (t + 1))};
    const uint64_t exchangeBytes = b * t * d * p;
    const auto bottom = MlpLayers("bottom", config.denseFeatures, config.bottomMlp);
    const auto top = MlpLayers("top", config.InteractionWidth(), config.topMlp);

    for (auto& trace : workload.ranks)
    {
        auto compute =
            [&](const std::string& name, const ComputeWork& work, std::vector<GenNodeRef> deps)
        {
            return trace.AddCompute(name, work, config.device.DurationMicros(work), deps);
        };
        GenNodeRef tail;
        std::vector<GenNodeRef> bottomReduced(bottom.size());
        std::vector<GenNodeRef> topReduced(top.size());
        // One MLP pass: forward in order or backward in reverse, reducing each gradient.
        auto forward = [&](const std::string& it,
                           const std::vector<DenseLayer>& mlp,
                           std::vector<GenNodeRef>& reduced)
        {
            for (size_t j = 0; j < mlp.size(); ++j)
            {
                tail = compute(it + mlp[j].name + ".fwd", mlp[j].Forward(b, p), {tail, reduced[j]});
            }
        };
        auto backward = [&](const std::string& it,
                            const std::vector<DenseLayer>& mlp,
                            std::vector<GenNodeRef>& reduced)
        {
            for (size_t j = mlp.size(); j-- > 0;)
            {
                const ComputeWork fwd = mlp[j].Forward(b, p);
                tail = compute(it + mlp[j].name + ".bwd", {2 * fwd.flops, 2 * fwd.bytes}, {tail});
                reduced[j] = trace.AddCollective(it + mlp[j].name + ".all_reduce",
                                                 EtCollectiveType::ALL_REDUCE,
                                                 mlp[j].Params() * p,
                                                 world,
                                                 {tail});
            }
        };
        for (uint32_t i = 0; i < config.iterations; ++i)
        {
            const std::string it = "i" + std::to_string(i) + ".";
            const uint64_t looked = compute(it + "embedding.lookup", lookup, {tail});
            tail = looked;
            const uint64_t gathered = trace.AddCollective(it + "embedding.fwd.all_to_all",
                                                          EtCollectiveType::ALL_TO_ALL,
                                                          exchangeBytes,
                                                          world,
                                                          {looked});
            forward(it, bottom, bottomReduced);
            tail = compute(it + "interaction.fwd", interaction, {tail, gathered});
            forward(it, top, topReduced);
            backward(it, top, topReduced);
            tail = compute(
                it + "interaction.bwd", {2 * interaction.flops, 2 * interaction.bytes}, {tail});
            const uint64_t returned = trace.AddCollective(it + "embedding.bwd.all_to_all",
                                                          EtCollectiveType::ALL_TO_ALL,
                                                          exchangeBytes,
                                                          world,
                                                          {tail});
            backward(it, bottom, bottomReduced);
            tail = compute(it + "embedding.update", lookup, {tail, returned});
        }
    }
    return workload;
}

} // namespace ns3
