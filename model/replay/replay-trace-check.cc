/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-trace-check.h"

#include "ns3/collective-type.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/replay-node-action.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayTraceCheck");

namespace
{

/** Throw InputError for \p node unless it carries \p attribute. */
void
Require(const EtTrace& trace, const EtNode& node, EtAttribute attribute, const char* name)
{
    if (!node.Has(attribute))
    {
        throw InputError(DescribeNodePlace(trace, node) + ": " + ToString(node.type) + " without " +
                         name);
    }
}

/** Throw InputError unless \p peer names a rank of the run. */
void
RequireRank(
    const EtTrace& trace, const EtNode& node, int64_t peer, const char* name, uint32_t worldSize)
{
    if (peer < 0 || peer >= static_cast<int64_t>(worldSize))
    {
        throw InputError(DescribeNodePlace(trace, node) + ": " + name + " " + std::to_string(peer) +
                         " is not a rank of a run of " + std::to_string(worldSize));
    }
}

/** Check one node; count it in \p notes if it runs by its duration. */
void
CheckNode(const EtTrace& trace,
          const EtNode& node,
          const ReplayTraceContext& context,
          ReplayNotes& notes)
{
    switch (GetReplayNodeAction(node))
    {
    case ReplayNodeAction::Collective:
    {
        const std::string where = DescribeNodePlace(trace, node);
        Require(trace, node, ET_COMM_TYPE, "comm_type");
        Require(trace, node, ET_COMM_SIZE, "comm_size");
        CollectiveTypeFromChakra(static_cast<int64_t>(node.commType), where);
        auto group = context.groups->Lookup(std::string(node.pgName), where);
        if (group && !group->Contains(context.rank))
        {
            throw InputError(where + ": pg_name '" + std::string(node.pgName) +
                             "' names a group without rank " + std::to_string(context.rank));
        }
        break;
    }
    case ReplayNodeAction::Send:
        RequireRank(trace, node, node.commDst, "comm_dst", context.worldSize);
        Require(trace, node, ET_COMM_SIZE, "comm_size");
        if (node.Has(ET_COMM_SRC) && node.commSrc != static_cast<int64_t>(context.rank))
        {
            throw InputError(DescribeNodePlace(trace, node) + ": COMM_SEND_NODE with comm_src " +
                             std::to_string(node.commSrc) + " in the trace of rank " +
                             std::to_string(context.rank));
        }
        break;
    case ReplayNodeAction::Receive:
        RequireRank(trace, node, node.commSrc, "comm_src", context.worldSize);
        Require(trace, node, ET_COMM_SIZE, "comm_size");
        if (node.Has(ET_COMM_DST) && node.commDst != static_cast<int64_t>(context.rank))
        {
            throw InputError(DescribeNodePlace(trace, node) + ": COMM_RECV_NODE with comm_dst " +
                             std::to_string(node.commDst) + " in the trace of rank " +
                             std::to_string(context.rank));
        }
        break;
    case ReplayNodeAction::Memory:
        Require(trace, node, ET_TENSOR_SIZE, "tensor_size");
        if (!context.hasRemoteMemory)
        {
            throw InputError(DescribeNodePlace(trace, node) + ": " + ToString(node.type) +
                             " needs a remote memory (--remote-memory=FILE)");
        }
        break;
    case ReplayNodeAction::Duration:
        if (node.type == EtNodeType::COMM_COLL_NODE)
        {
            ++notes["host-side COMM_COLL_NODE, replayed by its duration"];
        }
        else if (node.type == EtNodeType::COMM_SEND_NODE)
        {
            ++notes["COMM_SEND_NODE without comm_dst, replayed by its duration"];
        }
        else if (node.type == EtNodeType::COMM_RECV_NODE)
        {
            ++notes["COMM_RECV_NODE without comm_src, replayed by its duration"];
        }
        else
        {
            ++notes[ToString(node.type) + " (not in the schema), replayed by its duration"];
        }
        break;
    default:
        break;
    }
}

} // namespace

std::string
DescribeNodePlace(const EtTrace& trace, const EtNode& node)
{
    return trace.GetPath() + ": node " + std::to_string(node.id);
}

void
CheckReplayTrace(const EtTrace& trace, const ReplayTraceContext& context, ReplayNotes& notes)
{
    for (const EtNode& node : trace.GetNodes())
    {
        CheckNode(trace, node, context, notes);
    }
}

} // namespace ns3
