/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-frame-reader.h"

#include "ns3/input-error.h"
#include "ns3/input-file.h"
#include "ns3/log.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtFrameReader");

namespace
{
/**
 * Read-ahead size; a longer message grows the buffer to fit it. Fuzzing builds read in
 * small steps, so that short inputs exercise refilling and growing the buffer.
 */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
constexpr uint64_t kBufferBytes = 64;
#else
constexpr uint64_t kBufferBytes = 1 << 20;
#endif
/** A 32-bit varint takes at most five bytes. */
constexpr int kMaxVarintBytes = 5;
/** protobuf parses messages below 2 GiB. */
constexpr uint64_t kMaxMessageBytes = std::numeric_limits<int>::max();
} // namespace

EtFrameReader::EtFrameReader(const std::string& path)
    : m_path(path)
    , m_buffer(new char[kBufferBytes])
    , m_bufferBytes(kBufferBytes)
{
    CheckInputFile(path);
    m_plain = std::fopen(path.c_str(), "rb");
    if (m_plain == nullptr)
    {
        throw InputError(path + ": cannot open trace file: " + std::strerror(errno));
    }
    unsigned char magic[2] = {0, 0};
    size_t got = std::fread(magic, 1, 2, m_plain);
    bool gzip = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    if (!gzip)
    {
        std::rewind(m_plain);
        return;
    }
    std::fclose(m_plain);
    m_plain = nullptr;
    m_gzip = gzopen(path.c_str(), "rb");
    if (m_gzip == nullptr)
    {
        throw InputError(path + ": cannot open gzip trace file");
    }
    gzbuffer(m_gzip, 256 * 1024);
    NS_LOG_INFO(path << ": gzip-compressed");
}

EtFrameReader::~EtFrameReader()
{
    if (m_plain != nullptr)
    {
        std::fclose(m_plain);
    }
    if (m_gzip != nullptr)
    {
        gzclose(m_gzip);
    }
}

const std::string&
EtFrameReader::GetPath() const
{
    return m_path;
}

bool
EtFrameReader::IsGzip() const
{
    return m_gzip != nullptr;
}

uint64_t
EtFrameReader::GetMessageIndex() const
{
    return m_messageIndex;
}

uint64_t
EtFrameReader::GetMessageOffset() const
{
    return m_messageOffset;
}

void
EtFrameReader::Fail(const std::string& what) const
{
    std::ostringstream message;
    message << m_path << ": byte " << m_messageOffset << ": message " << m_messageIndex << ": "
            << what;
    throw InputError(message.str());
}

uint64_t
EtFrameReader::ReadSome(char* where, uint64_t capacity)
{
    if (m_plain != nullptr)
    {
        size_t got = std::fread(where, 1, capacity, m_plain);
        if (got == 0 && std::ferror(m_plain))
        {
            Fail(std::string("read error: ") + std::strerror(errno));
        }
        return got;
    }
    unsigned chunk = static_cast<unsigned>(std::min<uint64_t>(capacity, 1u << 30));
    int got = gzread(m_gzip, where, chunk);
    if (got > 0)
    {
        return static_cast<uint64_t>(got);
    }
    int status = Z_OK;
    std::string reason = gzerror(m_gzip, &status);
    if (got < 0 || (status != Z_OK && status != Z_STREAM_END))
    {
        // zlib names the file first; Fail names it already.
        if (reason.rfind(m_path + ": ", 0) == 0)
        {
            reason.erase(0, m_path.size() + 2);
        }
        // A gzip stream cut short reports Z_BUF_ERROR ("unexpected end of file").
        Fail("corrupt or truncated gzip data: " + reason);
    }
    return 0;
}

bool
EtFrameReader::Fill(uint64_t count)
{
    while (m_end - m_begin < count)
    {
        if (m_begin > 0)
        {
            std::memmove(m_buffer.get(), m_buffer.get() + m_begin, m_end - m_begin);
            m_end -= m_begin;
            m_begin = 0;
        }
        // Grow only once the buffer is full of file data, so that a length prefix
        // announcing more bytes than the file holds cannot claim memory.
        if (m_end == m_bufferBytes && m_bufferBytes < count)
        {
            const uint64_t bytes = std::min<uint64_t>(count, 2 * m_bufferBytes);
            std::unique_ptr<char[]> grown(new char[bytes]);
            std::memcpy(grown.get(), m_buffer.get(), m_end);
            m_buffer = std::move(grown);
            m_bufferBytes = bytes;
        }
        uint64_t got = ReadSome(m_buffer.get() + m_end, m_bufferBytes - m_end);
        if (got == 0)
        {
            return false;
        }
        m_end += got;
    }
    return true;
}

bool
EtFrameReader::Next(std::string_view& message)
{
    if (m_started)
    {
        ++m_messageIndex;
    }
    m_messageOffset = m_consumed;
    if (!Fill(1))
    {
        return false;
    }
    m_started = true;

    uint64_t length = 0;
    int used = 0;
    while (true)
    {
        if (used == kMaxVarintBytes)
        {
            Fail("bad length varint: more than 5 bytes");
        }
        if (!Fill(used + 1))
        {
            Fail("truncated: the file ends inside the length varint");
        }
        auto byte = static_cast<uint8_t>(m_buffer[m_begin + used]);
        length |= static_cast<uint64_t>(byte & 0x7f) << (7 * used);
        ++used;
        if ((byte & 0x80) == 0)
        {
            break;
        }
    }
    if (length > std::numeric_limits<uint32_t>::max())
    {
        Fail("bad length varint: value exceeds 32 bits");
    }
    if (length > kMaxMessageBytes)
    {
        Fail("message of " + std::to_string(length) + " bytes exceeds protobuf's 2 GiB limit");
    }
    m_begin += used;
    m_consumed += used;
    if (!Fill(length))
    {
        Fail("truncated: the length prefix announces " + std::to_string(length) +
             " bytes but only " + std::to_string(m_end - m_begin) + " remain");
    }
    message = std::string_view(m_buffer.get() + m_begin, length);
    m_begin += length;
    m_consumed += length;
    return true;
}

} // namespace ns3
