/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_READER_H
#define MLFABRIC_ET_READER_H

#include "ns3/et-frame-reader.h"
#include "ns3/et-node.h"
#include "ns3/et-string-pool.h"
#include "ns3/et_def.pb.h"

#include <cstdint>
#include <memory>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-chakra
 * Reads one rank's Chakra trace node by node. The file is `<prefix>.<rank>.et`.
 *
 * The first message is the GlobalMetadata, read by the constructor; each later message
 * is one Node. Nothing but the current node is held, so a trace of any length streams
 * in bounded memory (plus the interned strings of the nodes returned). Fields this
 * schema does not know are skipped; zero-length messages read as empty messages; the
 * metadata's version string is not trusted and not checked.
 *
 * Errors name the file, the message and the last node read before it.
 */
class EtReader
{
  public:
    /**
     * \param path the .et file, plain or gzip
     * \throws InputError if the file cannot be opened, does not start with a
     *         GlobalMetadata, or is a pre-0.0.4 Chakra trace
     */
    explicit EtReader(const std::string& path);

    /**
     * \param node set to the next node, parsed
     * \return false after the last node
     * \throws InputError on a truncated file, a bad length varint or an unparsable node
     */
    bool ReadNode(ChakraProtoMsg::Node& node);
    /**
     * \param node set to the next node, compact; its strings live in GetStringPool()
     * \return false after the last node
     * \throws InputError as the other overload, or on a bad attribute (see DecodeEtNode)
     */
    bool ReadNode(EtNode& node);

    /** \return the file name */
    const std::string& GetPath() const;
    /** \return true if the file is gzip-compressed */
    bool IsGzip() const;
    /** \return the file's GlobalMetadata */
    const ChakraProtoMsg::GlobalMetadata& GetMetadata() const;
    /** \return nodes returned so far */
    uint64_t GetNodesRead() const;
    /** \return the pool holding the strings of the EtNodes returned */
    std::shared_ptr<EtStringPool> GetStringPool() const;

  private:
    /**
     * \param error a framing error
     * \throws InputError with the error and the last node id read
     */
    [[noreturn]] void RethrowWithLastNode(const std::exception& error) const;
    /**
     * \param message the next framed message, if any
     * \return false at the end of the file
     */
    bool NextMessage(std::string_view& message);

    EtFrameReader m_frames;                    //!< the framed file
    ChakraProtoMsg::GlobalMetadata m_metadata; //!< message 0
    ChakraProtoMsg::Node m_scratch;            //!< reused for every compact read
    std::shared_ptr<EtStringPool> m_strings;   //!< strings of the nodes returned
    uint64_t m_nodesRead{0};                   //!< nodes returned so far
    uint64_t m_lastId{0};                      //!< id of the last node returned
};

} // namespace ns3

#endif /* MLFABRIC_ET_READER_H */
