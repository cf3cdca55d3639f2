/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-string-pool.h"

#include "ns3/log.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtStringPool");

namespace
{
/** Texts are packed into blocks of this size; longer texts get a block of their own. */
constexpr uint64_t kBlockBytes = 64 * 1024;
} // namespace

std::string_view
EtStringPool::Intern(std::string_view text)
{
    if (text.empty())
    {
        return {};
    }
    auto found = m_index.find(text);
    if (found != m_index.end())
    {
        return *found;
    }
    char* copy = Allocate(text.size());
    std::memcpy(copy, text.data(), text.size());
    std::string_view stored(copy, text.size());
    m_index.insert(stored);
    m_textBytes += text.size();
    return stored;
}

char*
EtStringPool::Allocate(uint64_t size)
{
    if (size > kBlockBytes / 4)
    {
        // A long text (a METADATA node's process-group list, say) would waste most of a
        // shared block.
        m_large.push_back(std::make_unique<char[]>(size));
        return m_large.back().get();
    }
    if (m_blocks.empty() || m_blockUsed + size > m_blockSize)
    {
        m_blocks.push_back(std::make_unique<char[]>(kBlockBytes));
        m_blockSize = kBlockBytes;
        m_blockUsed = 0;
    }
    char* where = m_blocks.back().get() + m_blockUsed;
    m_blockUsed += size;
    return where;
}

uint64_t
EtStringPool::GetStringCount() const
{
    return m_index.size();
}

uint64_t
EtStringPool::GetTextBytes() const
{
    return m_textBytes;
}

} // namespace ns3
