/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "one-f-one-b.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OneFOneB");

bool
PipelineStep::operator==(const PipelineStep& other) const
{
    return forward == other.forward && microBatch == other.microBatch;
}

std::vector<PipelineStep>
OneFOneBSchedule(uint32_t stage, uint32_t stages, uint32_t microBatches)
{
    NS_ASSERT(stage < stages);
    const uint32_t warmup = std::min(stages - 1 - stage, microBatches);
    std::vector<PipelineStep> steps;
    steps.reserve(2 * uint64_t{microBatches});
    uint32_t nextForward = 0;
    uint32_t nextBackward = 0;
    while (nextForward < warmup)
    {
        steps.push_back({true, nextForward++});
    }
    while (nextForward < microBatches)
    {
        steps.push_back({true, nextForward++});
        steps.push_back({false, nextBackward++});
    }
    while (nextBackward < microBatches)
    {
        steps.push_back({false, nextBackward++});
    }
    return steps;
}

} // namespace ns3
