/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_FRAME_READER_H
#define MLFABRIC_ET_FRAME_READER_H

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-chakra
 * Splits a Chakra .et file into its messages.
 *
 * The file is a concatenation of messages, each preceded by its length as a protobuf
 * base-128 varint of at most 32 bits, until end of file. A file that starts with the
 * gzip magic bytes 1f 8b is decompressed on the fly with zlib. The file is read through
 * a buffer, so memory stays bounded by the largest message.
 */
class EtFrameReader
{
  public:
    /**
     * \param path the .et file, plain or gzip
     * \throws InputError if the file cannot be opened
     */
    explicit EtFrameReader(const std::string& path);
    /** Close the file. */
    ~EtFrameReader();
    EtFrameReader(const EtFrameReader&) = delete;
    EtFrameReader& operator=(const EtFrameReader&) = delete;

    /**
     * \param message set to the next message's bytes, valid until the next call
     * \return false at the end of the file, after the last complete message
     * \throws InputError naming the file, message number and byte offset when the file
     *         ends inside a message or its length, when the length varint is malformed,
     *         or when gzip data is corrupt
     */
    bool Next(std::string_view& message);

    /** \return the file name */
    const std::string& GetPath() const;
    /** \return true if the file is gzip-compressed */
    bool IsGzip() const;
    /** \return number of the message Next returned last, from 0 */
    uint64_t GetMessageIndex() const;
    /** \return uncompressed offset of that message's length prefix */
    uint64_t GetMessageOffset() const;

  private:
    /**
     * Make at least `count` unread bytes available, reading more of the file.
     * \param count bytes wanted
     * \return false if the file ends first
     */
    bool Fill(uint64_t count);
    /**
     * \param where buffer to read into
     * \param capacity its size
     * \return bytes read, 0 at the end of the file
     */
    uint64_t ReadSome(char* where, uint64_t capacity);
    /**
     * \param what the problem
     * \throws InputError "<path>: byte <offset>: message <n>: <what>"
     */
    [[noreturn]] void Fail(const std::string& what) const;

    std::string m_path;          //!< file name
    std::FILE* m_plain{nullptr}; //!< uncompressed file, or null
    gzFile m_gzip{nullptr};      //!< compressed file, or null
    // Not a vector: the readers of a thousand ranks would each zero 1 MiB for nothing.
    std::unique_ptr<char[]> m_buffer; //!< bytes read ahead
    uint64_t m_bufferBytes{0};        //!< its size
    uint64_t m_begin{0};              //!< first unread byte in m_buffer
    uint64_t m_end{0};                //!< end of valid bytes in m_buffer
    uint64_t m_consumed{0};           //!< uncompressed file offset of m_buffer[m_begin]
    uint64_t m_messageIndex{0};       //!< number of the message being read
    uint64_t m_messageOffset{0};      //!< offset of that message's length prefix
    bool m_started{false};            //!< Next has returned a message
};

} // namespace ns3

#endif /* MLFABRIC_ET_FRAME_READER_H */
