/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gen-rank-trace.h"

#include "ns3/assert.h"
#include "ns3/et-writer.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GenRankTrace");

GenRankTrace::GenRankTrace(uint32_t rank)
    : m_rank(rank)
    , m_strings(std::make_unique<EtStringPool>())
{
}

EtNode&
GenRankTrace::Append(EtNodeType type, const std::string& name, const std::vector<GenNodeRef>& deps)
{
    EtNode node;
    node.id = m_nodes.size();
    node.type = type;
    node.name = m_strings->Intern(name);
    node.SetIsCpuOp(false);
    std::vector<uint64_t> written;
    for (const auto& dep : deps)
    {
        if (dep && std::find(written.begin(), written.end(), *dep) == written.end())
        {
            NS_ASSERT_MSG(*dep < node.id, "a dependency must be added before its child");
            written.push_back(*dep);
            node.dataDeps.push_back(*dep);
        }
    }
    m_nodes.push_back(std::move(node));
    return m_nodes.back();
}

uint64_t
GenRankTrace::AddCompute(const std::string& name,
                         const ComputeWork& work,
                         uint64_t durationMicros,
                         const std::vector<GenNodeRef>& deps)
{
    EtNode& node = Append(EtNodeType::COMP_NODE, name, deps);
    node.durationMicros = durationMicros;
    // A roofline replay skips a node whose tensor_size is 0; a node known only by its
    // duration carries neither figure so that it is replayed by duration.
    if (work.flops > 0 || work.bytes > 0)
    {
        node.SetNumOps(work.flops);
        node.SetTensorSize(work.bytes);
    }
    return node.id;
}

uint64_t
GenRankTrace::AddMemory(const std::string& name,
                        bool store,
                        uint64_t bytes,
                        const std::vector<GenNodeRef>& deps)
{
    EtNode& node =
        Append(store ? EtNodeType::MEM_STORE_NODE : EtNodeType::MEM_LOAD_NODE, name, deps);
    node.SetTensorSize(bytes);
    return node.id;
}

uint64_t
GenRankTrace::AddCollective(const std::string& name,
                            EtCollectiveType collective,
                            uint64_t bytes,
                            const std::string& group,
                            const std::vector<GenNodeRef>& deps)
{
    EtNode& node = Append(EtNodeType::COMM_COLL_NODE, name, deps);
    node.SetCommType(collective);
    node.SetCommSize(bytes);
    node.SetPgName(m_strings->Intern(group));
    return node.id;
}

uint64_t
GenRankTrace::AddSend(const std::string& name,
                      uint32_t dst,
                      int64_t tag,
                      uint64_t bytes,
                      const std::vector<GenNodeRef>& deps)
{
    EtNode& node = Append(EtNodeType::COMM_SEND_NODE, name, deps);
    node.SetCommSrc(static_cast<int32_t>(m_rank));
    node.SetCommDst(static_cast<int32_t>(dst));
    node.SetCommTag(tag);
    node.SetCommSize(bytes);
    return node.id;
}

uint64_t
GenRankTrace::AddRecv(const std::string& name,
                      uint32_t src,
                      int64_t tag,
                      uint64_t bytes,
                      const std::vector<GenNodeRef>& deps)
{
    EtNode& node = Append(EtNodeType::COMM_RECV_NODE, name, deps);
    node.SetCommSrc(static_cast<int32_t>(src));
    node.SetCommDst(static_cast<int32_t>(m_rank));
    node.SetCommTag(tag);
    node.SetCommSize(bytes);
    return node.id;
}

EtNode&
GenRankTrace::GetNode(uint64_t id)
{
    NS_ASSERT_MSG(id < m_nodes.size(), "no generated node " << id);
    return m_nodes[id];
}

const std::vector<EtNode>&
GenRankTrace::GetNodes() const
{
    return m_nodes;
}

uint32_t
GenRankTrace::GetRank() const
{
    return m_rank;
}

void
GenRankTrace::Write(const std::string& path, const ChakraProtoMsg::GlobalMetadata& metadata) const
{
    NS_LOG_FUNCTION(this << path);
    EtWriter writer(path, metadata);
    for (const auto& node : m_nodes)
    {
        writer.AddNode(node);
    }
    writer.Close();
}

} // namespace ns3
