/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "microbench-generator.h"

#include "ns3/gen-names.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

#include <limits>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MicrobenchGenerator");

void
MicrobenchConfig::Validate() const
{
    if (npus < 2)
    {
        throw InputError("--npus: a collective needs at least 2 ranks (got " +
                         std::to_string(npus) + ")");
    }
    if (npus > static_cast<uint32_t>(std::numeric_limits<int32_t>::max()))
    {
        throw InputError("--npus: too many ranks for Chakra's int32 rank ids");
    }
    const uint32_t size = EffectiveGroupSize();
    if (size < 2)
    {
        throw InputError("--group-size: a group needs at least 2 ranks (got " +
                         std::to_string(size) + ")");
    }
    if (groupStride == 0)
    {
        throw InputError("--group-stride: must be at least 1 (got 0)");
    }
    if (uint64_t{size} * groupStride > npus || npus % (uint64_t{size} * groupStride) != 0)
    {
        throw InputError("--group-size × --group-stride (" + std::to_string(size) + " × " +
                         std::to_string(groupStride) + ") must divide --npus (" +
                         std::to_string(npus) + ")");
    }
    if (collective == EtCollectiveType::BARRIER && bytes != 0)
    {
        throw InputError("--size: a barrier carries no data (got " + std::to_string(bytes) + ")");
    }
    if (collective != EtCollectiveType::BARRIER && bytes == 0)
    {
        throw InputError("--size: must be > 0 for " + ToString(collective));
    }
    if (repeat == 0)
    {
        throw InputError("--repeat: must be at least 1 (got 0)");
    }
    if (involvedDims.size() > kEtMaxInvolvedDims)
    {
        throw InputError("--involved-dims: at most " + std::to_string(kEtMaxInvolvedDims) +
                         " dimensions (got " + std::to_string(involvedDims.size()) + ")");
    }
}

uint32_t
MicrobenchConfig::EffectiveGroupSize() const
{
    return groupSize == 0 ? npus : groupSize;
}

GenWorkload
GenerateMicrobench(const MicrobenchConfig& config)
{
    config.Validate();
    const uint32_t size = config.EffectiveGroupSize();
    const uint32_t span = size * config.groupStride;
    GenWorkload workload("microbench", config.npus);
    const std::string collectiveName = CollectiveOptionName(config.collective);
    workload.AddParameter("npus", std::to_string(config.npus));
    workload.AddParameter("collective", collectiveName);
    workload.AddParameter("size", std::to_string(config.bytes));
    workload.AddParameter("group-size", std::to_string(size));
    workload.AddParameter("group-stride", std::to_string(config.groupStride));
    workload.AddParameter("repeat", std::to_string(config.repeat));
    workload.AddParameter("compute-us", std::to_string(config.computeMicros));

    uint32_t involvedMask = 0;
    for (size_t d = 0; d < config.involvedDims.size(); ++d)
    {
        involvedMask |= config.involvedDims[d] ? 1u << d : 0u;
    }
    for (auto& trace : workload.ranks)
    {
        const uint32_t rank = trace.GetRank();
        const uint32_t first = rank / span * span + rank % config.groupStride;
        std::vector<uint32_t> members;
        for (uint32_t i = 0; i < size; ++i)
        {
            members.push_back(first + i * config.groupStride);
        }
        const std::string group = workload.groups.Register(members);
        GenNodeRef previous;
        for (uint32_t k = 0; k < config.repeat; ++k)
        {
            if (k > 0 && config.computeMicros > 0)
            {
                previous = trace.AddCompute("compute." + std::to_string(k),
                                            ComputeWork{},
                                            config.computeMicros,
                                            {previous});
            }
            previous = trace.AddCollective(collectiveName + "." + std::to_string(k),
                                           config.collective,
                                           config.bytes,
                                           group,
                                           {previous});
            if (!config.involvedDims.empty())
            {
                trace.GetNode(*previous).SetInvolvedDims(
                    involvedMask, static_cast<uint8_t>(config.involvedDims.size()));
            }
        }
    }
    return workload;
}

} // namespace ns3
