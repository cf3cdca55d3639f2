/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-reader.h"

#include "ns3/et-node-codec.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtReader");

namespace
{
/** Tag byte of a Node's field 1 (id, varint): how every pre-0.0.4 trace begins. */
constexpr uint8_t kLegacyNodeIdTag = 0x08;
} // namespace

EtReader::EtReader(const std::string& path)
    : m_frames(path)
    , m_strings(std::make_shared<EtStringPool>())
{
    std::string_view message;
    if (!m_frames.Next(message))
    {
        throw InputError(path + ": empty file, expected a Chakra GlobalMetadata message");
    }
    if (!message.empty() && static_cast<uint8_t>(message[0]) == kLegacyNodeIdTag)
    {
        throw InputError(path + ": starts with a Node instead of a GlobalMetadata: a Chakra " +
                         "trace older than schema 0.0.4, which is not wire-compatible");
    }
    if (!m_metadata.ParseFromArray(message.data(), static_cast<int>(message.size())))
    {
        throw InputError(path + ": message 0 is not a valid Chakra GlobalMetadata");
    }
    NS_LOG_INFO(path << ": metadata version \"" << m_metadata.version() << "\"");
}

const std::string&
EtReader::GetPath() const
{
    return m_frames.GetPath();
}

bool
EtReader::IsGzip() const
{
    return m_frames.IsGzip();
}

const ChakraProtoMsg::GlobalMetadata&
EtReader::GetMetadata() const
{
    return m_metadata;
}

uint64_t
EtReader::GetNodesRead() const
{
    return m_nodesRead;
}

std::shared_ptr<EtStringPool>
EtReader::GetStringPool() const
{
    return m_strings;
}

void
EtReader::RethrowWithLastNode(const std::exception& error) const
{
    std::ostringstream message;
    message << error.what();
    if (m_nodesRead == 0)
    {
        message << " (before the first node)";
    }
    else
    {
        message << " (after node " << m_lastId << ")";
    }
    throw InputError(message.str());
}

bool
EtReader::NextMessage(std::string_view& message)
{
    try
    {
        return m_frames.Next(message);
    }
    catch (const InputError& error)
    {
        RethrowWithLastNode(error);
    }
}

bool
EtReader::ReadNode(ChakraProtoMsg::Node& node)
{
    std::string_view message;
    if (!NextMessage(message))
    {
        return false;
    }
    if (!node.ParseFromArray(message.data(), static_cast<int>(message.size())))
    {
        std::ostringstream what;
        what << GetPath() << ": byte " << m_frames.GetMessageOffset() << ": message "
             << m_frames.GetMessageIndex() << ": not a valid Chakra Node";
        RethrowWithLastNode(InputError(what.str()));
    }
    ++m_nodesRead;
    m_lastId = node.id();
    return true;
}

bool
EtReader::ReadNode(EtNode& node)
{
    if (!ReadNode(m_scratch))
    {
        return false;
    }
    node = DecodeEtNode(m_scratch, *m_strings, GetPath());
    return true;
}

} // namespace ns3
