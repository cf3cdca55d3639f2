/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "resnet50-generator.h"

#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/resnet50-layers.h"

#include <limits>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ResNet50Generator");

void
ResNet50Config::Validate() const
{
    if (npus < 2 || npus > static_cast<uint32_t>(std::numeric_limits<int32_t>::max()))
    {
        throw InputError("--npus: data parallelism needs at least 2 ranks (got " +
                         std::to_string(npus) + ")");
    }
    if (batch == 0 || batch > (1u << 20))
    {
        throw InputError("--batch: must be in [1, 1048576] images (got " + std::to_string(batch) +
                         ")");
    }
    if (precision == 0)
    {
        throw InputError("--precision: must be at least 1 byte");
    }
    if (iterations == 0)
    {
        throw InputError("--iterations: must be at least 1 (got 0)");
    }
    device.Validate();
}

GenWorkload
GenerateResNet50(const ResNet50Config& config)
{
    config.Validate();
    GenWorkload workload("resnet50", config.npus);
    workload.AddParameter("npus", std::to_string(config.npus));
    workload.AddParameter("batch", std::to_string(config.batch));
    workload.AddParameter("precision-bytes", std::to_string(config.precision));
    workload.AddParameter("iterations", std::to_string(config.iterations));
    workload.AddParameter("peak-tflops", config.device.peakTflops);
    workload.AddParameter("efficiency", config.device.efficiency);
    workload.AddParameter("mem-bw", config.device.memoryGBps);

    std::vector<uint32_t> everyone(config.npus);
    std::iota(everyone.begin(), everyone.end(), 0);
    const std::string world = workload.groups.Register(everyone);
    const auto& layers = ResNet50Layers();
    const uint64_t p = config.precision;
    for (auto& trace : workload.ranks)
    {
        auto compute =
            [&](const std::string& name, const ComputeWork& work, std::vector<GenNodeRef> deps)
        {
            return trace.AddCompute(name, work, config.device.DurationMicros(work), deps);
        };
        GenNodeRef tail;
        std::vector<GenNodeRef> allReduced(layers.size());
        for (uint32_t i = 0; i < config.iterations; ++i)
        {
            const std::string it = "i" + std::to_string(i) + ".";
            for (size_t j = 0; j < layers.size(); ++j)
            {
                const ComputeWork work{layers[j].ForwardFlops(config.batch),
                                       layers[j].ForwardBytes(config.batch, p)};
                tail = compute(it + layers[j].name + ".fwd", work, {tail, allReduced[j]});
            }
            for (size_t j = layers.size(); j-- > 0;)
            {
                const ResNetLayer& layer = layers[j];
                const ComputeWork work{layer.ForwardFlops(config.batch),
                                       layer.ForwardBytes(config.batch, p)};
                const uint64_t weightGradient = compute(it + layer.name + ".wg", work, {tail});
                allReduced[j] = trace.AddCollective(it + layer.name + ".all_reduce",
                                                    EtCollectiveType::ALL_REDUCE,
                                                    layer.Weights() * p,
                                                    world,
                                                    {weightGradient});
                tail = weightGradient;
                if (j > 0)
                {
                    tail = compute(it + layer.name + ".ig", work, {tail});
                }
            }
        }
    }
    return workload;
}

} // namespace ns3
