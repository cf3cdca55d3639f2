/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-node-action.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayNodeAction");

ReplayNodeAction
GetReplayNodeAction(const EtNode& node)
{
    switch (node.type)
    {
    case EtNodeType::INVALID_NODE:
    case EtNodeType::METADATA_NODE:
        return ReplayNodeAction::Instant;
    case EtNodeType::COMP_NODE:
        return ReplayNodeAction::Compute;
    case EtNodeType::MEM_LOAD_NODE:
    case EtNodeType::MEM_STORE_NODE:
        return ReplayNodeAction::Memory;
    case EtNodeType::COMM_COLL_NODE:
        return node.isCpuOp ? ReplayNodeAction::Duration : ReplayNodeAction::Collective;
    case EtNodeType::COMM_SEND_NODE:
        return node.Has(ET_COMM_DST) ? ReplayNodeAction::Send : ReplayNodeAction::Duration;
    case EtNodeType::COMM_RECV_NODE:
        return node.Has(ET_COMM_SRC) ? ReplayNodeAction::Receive : ReplayNodeAction::Duration;
    }
    return ReplayNodeAction::Duration;
}

std::optional<ReplayActivityKind>
GetReplayActivity(const EtNode& node, ReplayNodeAction action)
{
    if (action == ReplayNodeAction::Instant)
    {
        return std::nullopt;
    }
    if (node.isCpuOp)
    {
        return ReplayActivityKind::Cpu;
    }
    switch (node.type)
    {
    case EtNodeType::COMP_NODE:
        return ReplayActivityKind::Compute;
    case EtNodeType::MEM_LOAD_NODE:
    case EtNodeType::MEM_STORE_NODE:
        return ReplayActivityKind::Memory;
    case EtNodeType::COMM_COLL_NODE:
    case EtNodeType::COMM_SEND_NODE:
    case EtNodeType::COMM_RECV_NODE:
        return ReplayActivityKind::Comm;
    default:
        return std::nullopt;
    }
}

} // namespace ns3
