/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-info-rank.h"

#include "ns3/log.h"

#include <algorithm>
#include <functional>
#include <queue>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtInfoRank");

namespace
{

/**
 * \param trace a loaded trace
 * \return node positions in issue order: ready nodes first in the file go first
 */
std::vector<uint32_t>
IssueOrder(const EtTrace& trace)
{
    const EtDependencyGraph& graph = trace.GetGraph();
    const uint32_t n = trace.GetNodeCount();
    std::vector<uint32_t> waiting(n);
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
    for (uint32_t i = 0; i < n; ++i)
    {
        waiting[i] = graph.GetParentCount(i);
        if (waiting[i] == 0)
        {
            ready.push(i);
        }
    }
    std::vector<uint32_t> order;
    order.reserve(n);
    while (!ready.empty())
    {
        const uint32_t i = ready.top();
        ready.pop();
        order.push_back(i);
        for (uint32_t child : graph.GetChildren(i))
        {
            if (--waiting[child] == 0)
            {
                ready.push(child);
            }
        }
    }
    return order;
}

/** \return "node <id> (<name>)" for a problem line */
std::string
Where(const EtNode& node)
{
    return "node " + std::to_string(node.id) + " (" + std::string(node.name) + ")";
}

/** Record the point-to-point message of a send or receive node. */
void
AddMessage(const EtNode& node, uint32_t rank, EtRankInfo& info)
{
    const bool send = node.type == EtNodeType::COMM_SEND_NODE;
    const EtAttribute peer = send ? ET_COMM_DST : ET_COMM_SRC;
    for (const auto& [attribute, name] : {std::pair{peer, send ? "comm_dst" : "comm_src"},
                                          std::pair{ET_COMM_TAG, "comm_tag"},
                                          std::pair{ET_COMM_SIZE, "comm_size"}})
    {
        if (!node.Has(attribute))
        {
            info.problems.push_back(Where(node) + ": " + ToString(node.type) + " without " + name);
            return;
        }
    }
    // ASTRA-sim takes a missing own end as this rank; a different one is an error.
    const EtAttribute self = send ? ET_COMM_SRC : ET_COMM_DST;
    const int32_t own = send ? node.commSrc : node.commDst;
    if (node.Has(self) && own != static_cast<int32_t>(rank))
    {
        info.problems.push_back(Where(node) + ": " + (send ? "comm_src " : "comm_dst ") +
                                std::to_string(own) + " is not this rank (" + std::to_string(rank) +
                                ")");
        return;
    }
    EtMessage message{send ? int64_t{rank} : node.commSrc,
                      send ? node.commDst : int64_t{rank},
                      node.commTag,
                      node.commSize,
                      node.id};
    EtTraffic& traffic = send ? info.sends : info.recvs;
    ++traffic.count;
    traffic.bytes += node.commSize;
    (send ? info.sent : info.received).push_back(message);
}

} // namespace

std::string
EtGroupLabel(const std::string& pgName)
{
    return pgName.empty() || pgName == "0" ? "world" : pgName;
}

EtRankInfo
SummarizeEtRank(const EtTrace& trace, uint32_t rank)
{
    EtRankInfo info;
    info.rank = rank;
    info.path = trace.GetPath();
    info.nodes = trace.GetNodeCount();
    info.edges = trace.GetGraph().GetEdgeCount();
    info.roots = trace.GetGraph().GetRoots().size();
    info.danglingCtrlDeps = trace.GetDanglingCtrlDepCount();

    const EtDependencyGraph& graph = trace.GetGraph();
    std::vector<uint64_t> start(trace.GetNodeCount(), 0);
    for (uint32_t i : IssueOrder(trace))
    {
        const EtNode& node = trace.GetNode(i);
        ++info.nodesByType[ToString(node.type)];
        uint64_t weight = 0;
        switch (node.type)
        {
        case EtNodeType::COMP_NODE:
            ++info.computeNodes;
            info.computeMicros += node.durationMicros;
            weight = node.durationMicros;
            break;
        case EtNodeType::COMM_COLL_NODE:
            if (!node.Has(ET_COMM_TYPE) || !node.Has(ET_COMM_SIZE))
            {
                info.problems.push_back(Where(node) + ": COMM_COLL_NODE without " +
                                        (node.Has(ET_COMM_TYPE) ? "comm_size" : "comm_type"));
                break;
            }
            {
                const std::string group(node.pgName);
                EtTraffic& traffic = info.collectives[{ToString(node.commType), group}];
                ++traffic.count;
                traffic.bytes += node.commSize;
                info.groupCalls[group].push_back({node.commType, node.commSize, node.id});
            }
            break;
        case EtNodeType::COMM_SEND_NODE:
        case EtNodeType::COMM_RECV_NODE:
            AddMessage(node, rank, info);
            break;
        default:
            break;
        }
        const uint64_t finish = start[i] + weight;
        info.criticalPathMicros = std::max(info.criticalPathMicros, finish);
        for (uint32_t child : graph.GetChildren(i))
        {
            start[child] = std::max(start[child], finish);
        }
    }
    return info;
}

} // namespace ns3
