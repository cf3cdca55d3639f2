/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_NODE_CODEC_H
#define MLFABRIC_ET_NODE_CODEC_H

#include "ns3/et-node.h"
#include "ns3/et-string-pool.h"
#include "ns3/et_def.pb.h"

#include <string_view>

namespace ns3
{

/**
 * \ingroup mlfabric-chakra
 * Convert a protobuf Node to the compact EtNode.
 *
 * Known attributes are read whatever integer kind they were written with; the first
 * of several attributes with one name wins (as in ASTRA-sim's current feeder); other
 * attributes are dropped. `inputs.values` is kept for METADATA nodes only, where it
 * lists the process groups. A `comm_type` outside the schema's numbers is an error on a
 * COMM_COLL node and ignored elsewhere (collectiveapi writes the node type there).
 *
 * \param proto the parsed node
 * \param strings pool that receives the node's strings
 * \param path file name, for error messages
 * \return the compact node
 * \throws InputError naming the file and node when an attribute has an unusable kind or
 *         value, or the node type does not fit
 */
EtNode DecodeEtNode(const ChakraProtoMsg::Node& proto,
                    EtStringPool& strings,
                    std::string_view path);

/**
 * \ingroup mlfabric-chakra
 * Convert an EtNode to a protobuf Node, writing each attribute present with the oneof
 * kind ASTRA-sim's feeders ask for (`comm_size` int64_val, `comm_src` int32_val,
 * `tensor_size` uint64_val, `is_cpu_op` bool_val, ...), a wider kind only when the value
 * needs it. Decoding the result gives back the same EtNode.
 *
 * \param node the compact node
 * \param proto cleared, then filled
 */
void EncodeEtNode(const EtNode& node, ChakraProtoMsg::Node& proto);

} // namespace ns3

#endif /* MLFABRIC_ET_NODE_CODEC_H */
