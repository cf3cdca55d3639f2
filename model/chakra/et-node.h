/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_NODE_H
#define MLFABRIC_ET_NODE_H

#include "ns3/et-id-list.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace ns3
{

/**
 * \ingroup mlfabric-chakra
 * Chakra NodeType; the numbers are the schema's. Values 8 and above (proposed storage
 * node types) are kept as read and are not named here.
 */
enum class EtNodeType : uint8_t
{
    INVALID_NODE = 0,
    METADATA_NODE = 1,
    MEM_LOAD_NODE = 2,
    MEM_STORE_NODE = 3,
    COMP_NODE = 4,
    COMM_SEND_NODE = 5,
    COMM_RECV_NODE = 6,
    COMM_COLL_NODE = 7,
};

/**
 * \ingroup mlfabric-chakra
 * Chakra CollectiveCommType, carried by the `comm_type` attribute; the schema's numbers.
 */
enum class EtCollectiveType : uint8_t
{
    ALL_REDUCE = 0,
    REDUCE = 1,
    ALL_GATHER = 2,
    GATHER = 3,
    SCATTER = 4,
    BROADCAST = 5,
    ALL_TO_ALL = 6,
    REDUCE_SCATTER = 7,
    REDUCE_SCATTER_BLOCK = 8,
    BARRIER = 9,
};

/**
 * \ingroup mlfabric-chakra
 * Largest EtCollectiveType number.
 */
constexpr int64_t kEtMaxCollectiveType = 9;

/**
 * \ingroup mlfabric-chakra
 * The node attributes a replay reads, one presence bit each in EtNode::present.
 */
enum EtAttribute : uint16_t
{
    ET_IS_CPU_OP = 1u << 0,     //!< `is_cpu_op`: host-side operation
    ET_NUM_OPS = 1u << 1,       //!< `num_ops`: operations, for a roofline model
    ET_TENSOR_SIZE = 1u << 2,   //!< `tensor_size`: bytes touched
    ET_COMM_TYPE = 1u << 3,     //!< `comm_type`: the collective
    ET_COMM_PRIORITY = 1u << 4, //!< `comm_priority`
    ET_COMM_SIZE = 1u << 5,     //!< `comm_size`: bytes
    ET_COMM_SRC = 1u << 6,      //!< `comm_src`: sending rank
    ET_COMM_DST = 1u << 7,      //!< `comm_dst`: receiving rank
    ET_COMM_TAG = 1u << 8,      //!< `comm_tag`: point-to-point match tag
    ET_PG_NAME = 1u << 9,       //!< `pg_name`: communicator group id
    ET_INVOLVED_DIM = 1u << 10, //!< `involved_dim`: network dimensions taking part
};

/**
 * \ingroup mlfabric-chakra
 * Most network dimensions an `involved_dim` list may name.
 */
constexpr uint32_t kEtMaxInvolvedDims = 32;

/**
 * \ingroup mlfabric-chakra
 * One Chakra node in the compact form a replay keeps in memory.
 *
 * It holds what the replay needs and nothing of protobuf: about 150 bytes plus
 * dependency lists longer than one id. Strings are views into an EtStringPool (owned by
 * the EtReader or EtTrace that produced the node, or by the caller when building nodes
 * for an EtWriter).
 *
 * Attributes are optional in Chakra, and producers differ in which they write, so each
 * carries a presence bit: Has(ET_COMM_SIZE) tells whether `comm_size` was in the trace;
 * an absent attribute reads as 0 / false / empty. The Set... methods assign a value and
 * mark it present; EtWriter writes exactly the attributes marked present.
 */
struct EtNode
{
    uint64_t id{0};                            //!< node id, unique within one file
    uint64_t durationMicros{0};                //!< measured runtime, microseconds
    uint64_t numOps{0};                        //!< `num_ops`
    uint64_t tensorSize{0};                    //!< `tensor_size`, bytes
    uint64_t commSize{0};                      //!< `comm_size`, bytes
    int64_t commTag{0};                        //!< `comm_tag`
    int32_t commSrc{0};                        //!< `comm_src`, a rank
    int32_t commDst{0};                        //!< `comm_dst`, a rank
    int32_t commPriority{0};                   //!< `comm_priority`
    uint32_t involvedDims{0};                  //!< `involved_dim`: bit d set = dimension d
    uint8_t involvedDimCount{0};               //!< length of the `involved_dim` list
    EtNodeType type{EtNodeType::INVALID_NODE}; //!< node type (may be an unnamed number)
    EtCollectiveType commType{EtCollectiveType::ALL_REDUCE}; //!< `comm_type`
    bool isCpuOp{false};                                     //!< `is_cpu_op`
    uint16_t present{0};           //!< EtAttribute bits of attributes present
    std::string_view name;         //!< node name
    std::string_view pgName;       //!< `pg_name`: communicator group id
    std::string_view inputsValues; //!< `inputs.values`, kept for METADATA nodes only
    EtIdList dataDeps;             //!< ids this node needs finished first
    EtIdList ctrlDeps;             //!< control (caller) dependencies, ids

    /** \param attribute one EtAttribute \return true if the trace carried it */
    bool Has(EtAttribute attribute) const;

    /** \param value `is_cpu_op` */
    void SetIsCpuOp(bool value);
    /** \param value `num_ops` */
    void SetNumOps(uint64_t value);
    /** \param bytes `tensor_size` */
    void SetTensorSize(uint64_t bytes);
    /** \param collective `comm_type` */
    void SetCommType(EtCollectiveType collective);
    /** \param priority `comm_priority` */
    void SetCommPriority(int32_t priority);
    /** \param bytes `comm_size` */
    void SetCommSize(uint64_t bytes);
    /** \param rank `comm_src` */
    void SetCommSrc(int32_t rank);
    /** \param rank `comm_dst` */
    void SetCommDst(int32_t rank);
    /** \param tag `comm_tag` */
    void SetCommTag(int64_t tag);
    /** \param group `pg_name`; the view must outlive the node's use */
    void SetPgName(std::string_view group);
    /**
     * \param mask bit d set = dimension d takes part
     * \param count number of dimensions listed, at most kEtMaxInvolvedDims
     */
    void SetInvolvedDims(uint32_t mask, uint8_t count);

    /** \param other node to compare \return true if every field is equal */
    bool operator==(const EtNode& other) const;
    /** \param other node to compare \return true if some field differs */
    bool operator!=(const EtNode& other) const;
};

/**
 * \ingroup mlfabric-chakra
 * \param type a node type \return its schema name, or "NODE_TYPE_<n>" if unnamed
 */
std::string ToString(EtNodeType type);
/**
 * \ingroup mlfabric-chakra
 * \param collective a collective \return its schema name, e.g. "ALL_REDUCE"
 */
std::string ToString(EtCollectiveType collective);
/**
 * \ingroup mlfabric-chakra
 * \param type a node type \return true if the schema names it (0..7)
 */
bool IsKnownNodeType(EtNodeType type);

} // namespace ns3

#endif /* MLFABRIC_ET_NODE_H */
