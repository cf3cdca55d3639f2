/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-frame-writer.h"

#include "ns3/abort.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

#include <google/protobuf/io/coded_stream.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtFrameWriter");

namespace
{
/** Bytes gathered before each write to the file. */
constexpr size_t kFlushBytes = 1 << 20;
} // namespace

EtFrameWriter::EtFrameWriter(const std::string& path, EtCompression compression)
    : m_path(path)
{
    if (compression == EtCompression::GZIP)
    {
        m_gzip = gzopen(path.c_str(), "wb");
    }
    else
    {
        m_plain = std::fopen(path.c_str(), "wb");
    }
    if (m_plain == nullptr && m_gzip == nullptr)
    {
        throw InputError(path + ": cannot create trace file: " + std::strerror(errno));
    }
    m_buffer.reserve(kFlushBytes + 64);
}

EtFrameWriter::~EtFrameWriter()
{
    try
    {
        Close();
    }
    catch (const InputError& error)
    {
        NS_LOG_ERROR(error.what());
    }
}

const std::string&
EtFrameWriter::GetPath() const
{
    return m_path;
}

uint64_t
EtFrameWriter::GetBytesWritten() const
{
    return m_written;
}

void
EtFrameWriter::Write(const google::protobuf::MessageLite& message)
{
    NS_ABORT_MSG_IF(m_plain == nullptr && m_gzip == nullptr, m_path << ": written after Close");
    size_t size = message.ByteSizeLong();
    if (size > static_cast<size_t>(std::numeric_limits<int>::max()))
    {
        throw InputError(m_path + ": message of " + std::to_string(size) +
                         " bytes exceeds protobuf's 2 GiB limit");
    }
    uint8_t prefix[5];
    uint8_t* prefixEnd = google::protobuf::io::CodedOutputStream::WriteVarint32ToArray(
        static_cast<uint32_t>(size), prefix);
    size_t prefixSize = prefixEnd - prefix;
    size_t at = m_buffer.size();
    m_buffer.resize(at + prefixSize + size);
    std::memcpy(&m_buffer[at], prefix, prefixSize);
    message.SerializeWithCachedSizesToArray(reinterpret_cast<uint8_t*>(&m_buffer[at + prefixSize]));
    m_written += prefixSize + size;
    if (m_buffer.size() >= kFlushBytes)
    {
        Flush();
    }
}

void
EtFrameWriter::Flush()
{
    if (m_buffer.empty())
    {
        return;
    }
    bool ok = true;
    if (m_plain != nullptr)
    {
        ok = std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_plain) == m_buffer.size();
    }
    else
    {
        // gzwrite takes an unsigned count: write in chunks well below 4 GiB.
        for (size_t at = 0; ok && at < m_buffer.size(); at += 1u << 30)
        {
            unsigned chunk =
                static_cast<unsigned>(std::min<size_t>(m_buffer.size() - at, 1u << 30));
            ok = gzwrite(m_gzip, m_buffer.data() + at, chunk) == static_cast<int>(chunk);
        }
    }
    m_buffer.clear();
    if (!ok)
    {
        throw InputError(m_path + ": cannot write trace file: " + std::strerror(errno));
    }
}

void
EtFrameWriter::Close()
{
    if (m_plain == nullptr && m_gzip == nullptr)
    {
        return;
    }
    bool ok = true;
    try
    {
        Flush();
    }
    catch (const InputError&)
    {
        ok = false;
    }
    if (m_plain != nullptr)
    {
        ok = std::fclose(m_plain) == 0 && ok;
        m_plain = nullptr;
    }
    if (m_gzip != nullptr)
    {
        ok = gzclose(m_gzip) == Z_OK && ok;
        m_gzip = nullptr;
    }
    if (!ok)
    {
        throw InputError(m_path + ": cannot write trace file: " + std::strerror(errno));
    }
}

} // namespace ns3
