/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_GEN_RANK_TRACE_H
#define MLFABRIC_GEN_RANK_TRACE_H

#include "ns3/et-node.h"
#include "ns3/et-string-pool.h"
#include "ns3/et_def.pb.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-gen
 * A dependency of a generated node: a node id, or nothing (the start of the trace).
 */
using GenNodeRef = std::optional<uint64_t>;

/**
 * \ingroup mlfabric-gen
 * Work of one compute node, the inputs of its duration and of a roofline model.
 */
struct ComputeWork
{
    uint64_t flops{0}; //!< floating-point operations, written as `num_ops`
    uint64_t bytes{0}; //!< bytes read and written, written as `tensor_size`
};

/**
 * \ingroup mlfabric-gen
 * One rank's generated Chakra trace, built node by node in program order.
 *
 * Ids are dense from 0 in the order of the Add calls, so that the lowest-id-first issue
 * order of ASTRA-sim's feeder follows the program. Dependencies are written as
 * `data_deps` (the edges every feeder honours); absent references are skipped and
 * duplicates written once. Every node gets `is_cpu_op` = false: all of them are device
 * work.
 */
class GenRankTrace
{
  public:
    /** \param rank the rank this trace belongs to */
    explicit GenRankTrace(uint32_t rank);

    /**
     * \param name node name
     * \param work operations and bytes; when both are 0 neither attribute is written
     * \param durationMicros runtime, microseconds
     * \param deps nodes that must finish first
     * \return the new node's id
     */
    uint64_t AddCompute(const std::string& name,
                        const ComputeWork& work,
                        uint64_t durationMicros,
                        const std::vector<GenNodeRef>& deps);
    /**
     * \param name node name
     * \param collective the collective
     * \param bytes `comm_size`, in ASTRA-sim's meaning for the collective
     * \param group `pg_name`, the group's id in the comm-group file
     * \param deps nodes that must finish first
     * \return the new node's id
     */
    uint64_t AddCollective(const std::string& name,
                           EtCollectiveType collective,
                           uint64_t bytes,
                           const std::string& group,
                           const std::vector<GenNodeRef>& deps);
    /**
     * \param name node name
     * \param dst receiving rank
     * \param tag match tag, unique per (src, dst) pair within the workload
     * \param bytes message size
     * \param deps nodes that must finish first
     * \return the new node's id
     */
    uint64_t AddSend(const std::string& name,
                     uint32_t dst,
                     int64_t tag,
                     uint64_t bytes,
                     const std::vector<GenNodeRef>& deps);
    /**
     * \param name node name
     * \param src sending rank
     * \param tag match tag of the send
     * \param bytes message size
     * \param deps nodes that must finish before the receive is posted
     * \return the new node's id
     */
    uint64_t AddRecv(const std::string& name,
                     uint32_t src,
                     int64_t tag,
                     uint64_t bytes,
                     const std::vector<GenNodeRef>& deps);

    /**
     * \param name node name
     * \param store true for a MEM_STORE_NODE (to remote memory), false for a
     *        MEM_LOAD_NODE (from it)
     * \param bytes `tensor_size`, the bytes moved
     * \param deps nodes that must finish first
     * \return the new node's id
     */
    uint64_t AddMemory(const std::string& name,
                       bool store,
                       uint64_t bytes,
                       const std::vector<GenNodeRef>& deps);

    /**
     * \param id a node added earlier
     * \return the node, to set further attributes
     */
    EtNode& GetNode(uint64_t id);
    /** \return the nodes, id = position */
    const std::vector<EtNode>& GetNodes() const;
    /** \return the rank */
    uint32_t GetRank() const;

    /**
     * Write `path`: the metadata, then every node.
     * \param path the rank's .et file
     * \param metadata the GlobalMetadata message
     * \throws InputError if the file cannot be written
     */
    void Write(const std::string& path, const ChakraProtoMsg::GlobalMetadata& metadata) const;

  private:
    /**
     * \param type node type
     * \param name node name
     * \param deps dependencies
     * \return the appended node, with id, name, type, `is_cpu_op` and deps set
     */
    EtNode& Append(EtNodeType type, const std::string& name, const std::vector<GenNodeRef>& deps);

    uint32_t m_rank;                         //!< this trace's rank
    std::unique_ptr<EtStringPool> m_strings; //!< owns the nodes' names and groups
    std::vector<EtNode> m_nodes;             //!< nodes, id = position
};

} // namespace ns3

#endif /* MLFABRIC_GEN_RANK_TRACE_H */
