/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-node.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <array>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtNode");

bool
EtNode::Has(EtAttribute attribute) const
{
    return (present & attribute) != 0;
}

void
EtNode::SetIsCpuOp(bool value)
{
    isCpuOp = value;
    present |= ET_IS_CPU_OP;
}

void
EtNode::SetNumOps(uint64_t value)
{
    numOps = value;
    present |= ET_NUM_OPS;
}

void
EtNode::SetTensorSize(uint64_t bytes)
{
    tensorSize = bytes;
    present |= ET_TENSOR_SIZE;
}

void
EtNode::SetCommType(EtCollectiveType collective)
{
    commType = collective;
    present |= ET_COMM_TYPE;
}

void
EtNode::SetCommPriority(int32_t priority)
{
    commPriority = priority;
    present |= ET_COMM_PRIORITY;
}

void
EtNode::SetCommSize(uint64_t bytes)
{
    commSize = bytes;
    present |= ET_COMM_SIZE;
}

void
EtNode::SetCommSrc(int32_t rank)
{
    commSrc = rank;
    present |= ET_COMM_SRC;
}

void
EtNode::SetCommDst(int32_t rank)
{
    commDst = rank;
    present |= ET_COMM_DST;
}

void
EtNode::SetCommTag(int64_t tag)
{
    commTag = tag;
    present |= ET_COMM_TAG;
}

void
EtNode::SetPgName(std::string_view group)
{
    pgName = group;
    present |= ET_PG_NAME;
}

void
EtNode::SetInvolvedDims(uint32_t mask, uint8_t count)
{
    NS_ABORT_MSG_IF(count > kEtMaxInvolvedDims, "involved_dim lists at most 32 dimensions");
    involvedDims = count == kEtMaxInvolvedDims ? mask : mask & ((1u << count) - 1);
    involvedDimCount = count;
    present |= ET_INVOLVED_DIM;
}

bool
EtNode::operator==(const EtNode& other) const
{
    return id == other.id && durationMicros == other.durationMicros && numOps == other.numOps &&
           tensorSize == other.tensorSize && commSize == other.commSize &&
           commTag == other.commTag && commSrc == other.commSrc && commDst == other.commDst &&
           commPriority == other.commPriority && involvedDims == other.involvedDims &&
           involvedDimCount == other.involvedDimCount && type == other.type &&
           commType == other.commType && isCpuOp == other.isCpuOp && present == other.present &&
           name == other.name && pgName == other.pgName && inputsValues == other.inputsValues &&
           dataDeps == other.dataDeps && ctrlDeps == other.ctrlDeps;
}

bool
EtNode::operator!=(const EtNode& other) const
{
    return !(*this == other);
}

bool
IsKnownNodeType(EtNodeType type)
{
    return type <= EtNodeType::COMM_COLL_NODE;
}

std::string
ToString(EtNodeType type)
{
    static const std::array<const char*, 8> names{"INVALID_NODE",
                                                  "METADATA_NODE",
                                                  "MEM_LOAD_NODE",
                                                  "MEM_STORE_NODE",
                                                  "COMP_NODE",
                                                  "COMM_SEND_NODE",
                                                  "COMM_RECV_NODE",
                                                  "COMM_COLL_NODE"};
    if (IsKnownNodeType(type))
    {
        return names[static_cast<uint8_t>(type)];
    }
    return "NODE_TYPE_" + std::to_string(static_cast<uint32_t>(type));
}

std::string
ToString(EtCollectiveType collective)
{
    static const std::array<const char*, kEtMaxCollectiveType + 1> names{"ALL_REDUCE",
                                                                         "REDUCE",
                                                                         "ALL_GATHER",
                                                                         "GATHER",
                                                                         "SCATTER",
                                                                         "BROADCAST",
                                                                         "ALL_TO_ALL",
                                                                         "REDUCE_SCATTER",
                                                                         "REDUCE_SCATTER_BLOCK",
                                                                         "BARRIER"};
    auto number = static_cast<uint8_t>(collective);
    NS_ABORT_MSG_IF(number > kEtMaxCollectiveType, "not a collective: " << int(number));
    return names[number];
}

} // namespace ns3
