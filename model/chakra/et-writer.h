/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_WRITER_H
#define MLFABRIC_ET_WRITER_H

#include "ns3/et-frame-writer.h"
#include "ns3/et-node.h"
#include "ns3/et_def.pb.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-chakra
 * GlobalMetadata version written by default: the proto3 schema layout in use.
 */
constexpr const char* kEtSchemaVersion = "0.0.4";

/**
 * \ingroup mlfabric-chakra
 * Writes one rank's Chakra trace: the GlobalMetadata, then one Node per AddNode call.
 *
 * \code
 *   EtWriter writer("workload.0.et");
 *   EtNode node;
 *   node.id = 1;
 *   node.name = "grad_allreduce";
 *   node.type = EtNodeType::COMM_COLL_NODE;
 *   node.SetCommType(EtCollectiveType::ALL_REDUCE);
 *   node.SetCommSize(1 << 20);
 *   writer.AddNode(node);
 *   writer.Close();
 * \endcode
 *
 * Files read back by EtReader give the same nodes; the bytes are those every Chakra
 * reader accepts (with EtCompression::GZIP, the mlcommons feeder and mlfabric).
 */
class EtWriter
{
  public:
    /**
     * \param path file to create or overwrite, usually `<prefix>.<rank>.et`
     * \param metadata the first message
     * \param compression plain or gzip
     * \throws InputError if the file cannot be created
     */
    EtWriter(const std::string& path,
             const ChakraProtoMsg::GlobalMetadata& metadata,
             EtCompression compression = EtCompression::NONE);
    /**
     * \param path file to create or overwrite, usually `<prefix>.<rank>.et`
     * \param version GlobalMetadata version string
     * \param compression plain or gzip
     * \throws InputError if the file cannot be created
     */
    explicit EtWriter(const std::string& path,
                      const std::string& version = kEtSchemaVersion,
                      EtCompression compression = EtCompression::NONE);

    /**
     * \param node appended, with the attributes it marks present (see EncodeEtNode)
     * \throws InputError if the file cannot be written
     */
    void AddNode(const EtNode& node);
    /**
     * \param node appended as it is
     * \throws InputError if the file cannot be written
     */
    void AddNode(const ChakraProtoMsg::Node& node);
    /**
     * Flush and close; the destructor does it too but can only log errors.
     * \throws InputError if the file cannot be written
     */
    void Close();

    /** \return the file name */
    const std::string& GetPath() const;
    /** \return nodes added so far */
    uint64_t GetNodeCount() const;

  private:
    EtFrameWriter m_frames;         //!< the framed file
    ChakraProtoMsg::Node m_scratch; //!< reused to encode compact nodes
    uint64_t m_nodeCount{0};        //!< nodes added
};

} // namespace ns3

#endif /* MLFABRIC_ET_WRITER_H */
