/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_FRAME_WRITER_H
#define MLFABRIC_ET_FRAME_WRITER_H

#include <google/protobuf/message_lite.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-chakra
 * Whether a trace file is written plain or gzip-compressed.
 */
enum class EtCompression
{
    NONE, //!< plain bytes, what every Chakra reader accepts
    GZIP, //!< gzip; read by the mlcommons feeder and mlfabric, not by ASTRA-sim's feeder_v3
};

/**
 * \ingroup mlfabric-chakra
 * Writes protobuf messages with the .et framing: each preceded by its length as a
 * base-128 varint.
 */
class EtFrameWriter
{
  public:
    /**
     * \param path file to create or overwrite
     * \param compression plain or gzip
     * \throws InputError if the file cannot be created
     */
    EtFrameWriter(const std::string& path, EtCompression compression);
    /** Closes the file if Close was not called; errors are then only logged. */
    ~EtFrameWriter();
    EtFrameWriter(const EtFrameWriter&) = delete;
    EtFrameWriter& operator=(const EtFrameWriter&) = delete;

    /**
     * \param message appended after its length prefix
     * \throws InputError if the message exceeds 2 GiB or the file cannot be written
     */
    void Write(const google::protobuf::MessageLite& message);
    /**
     * Flush and close the file; later calls do nothing.
     * \throws InputError if the data cannot be written
     */
    void Close();
    /** \return the file name */
    const std::string& GetPath() const;
    /** \return bytes written so far, before compression */
    uint64_t GetBytesWritten() const;

  private:
    /** Hand the buffered bytes to the file. \throws InputError on a write error */
    void Flush();

    std::string m_path;          //!< file name
    std::FILE* m_plain{nullptr}; //!< uncompressed output, or null
    gzFile m_gzip{nullptr};      //!< compressed output, or null
    std::string m_buffer;        //!< framed bytes not yet written
    uint64_t m_written{0};       //!< framed bytes accepted so far
};

} // namespace ns3

#endif /* MLFABRIC_ET_FRAME_WRITER_H */
