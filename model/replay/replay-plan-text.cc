/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-plan-text.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayPlanText");

namespace
{

/** \return the short name of a phase's operation */
const char*
OpCode(CollectiveType op)
{
    switch (op)
    {
    case CollectiveType::AllReduce:
        return "AR";
    case CollectiveType::Reduce:
        return "RD";
    case CollectiveType::AllGather:
        return "AG";
    case CollectiveType::Gather:
        return "GA";
    case CollectiveType::Scatter:
        return "SC";
    case CollectiveType::Broadcast:
        return "BC";
    case CollectiveType::AllToAll:
        return "A2A";
    case CollectiveType::ReduceScatter:
    case CollectiveType::ReduceScatterBlock:
        return "RS";
    case CollectiveType::Barrier:
        return "BAR";
    }
    return "?";
}

/** \return the algorithm a phase runs */
std::string
PhaseAlgorithm(const CollectivePhaseSpec& phase)
{
    switch (phase.op)
    {
    case CollectiveType::Broadcast:
    case CollectiveType::Reduce:
        return "chain";
    case CollectiveType::Gather:
    case CollectiveType::Scatter:
        return "direct";
    case CollectiveType::Barrier:
        return "dissemination";
    default:
        return ToString(phase.algorithm);
    }
}

} // namespace

std::string
DescribeCollectiveAlgorithm(const CollectivePlan& plan)
{
    if (plan.chunkCount == 0 || plan.phases.empty())
    {
        return "none";
    }
    const bool subGrid = plan.topology && plan.topology->IsSubGrid();
    const std::string channels = plan.GetChannelCount() > 1
                                     ? " x" + std::to_string(plan.GetChannelCount()) + " channels"
                                     : "";
    if (plan.phases.size() == 1 && !subGrid)
    {
        return PhaseAlgorithm(plan.phases.front()) + channels;
    }
    std::string text;
    for (const auto& phase : plan.phases)
    {
        const std::string op = plan.phases.size() == 1 ? "" : std::string(OpCode(phase.op)) + ":";
        text += (text.empty() ? "" : " ") + op + PhaseAlgorithm(phase) + "@" +
                std::to_string(phase.dimension);
    }
    return text + channels;
}

} // namespace ns3
