/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-writer.h"

#include "ns3/et-node-codec.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtWriter");

namespace
{
/**
 * \param version the version string
 * \return a GlobalMetadata carrying only that version
 */
ChakraProtoMsg::GlobalMetadata
MetadataWithVersion(const std::string& version)
{
    ChakraProtoMsg::GlobalMetadata metadata;
    metadata.set_version(version);
    return metadata;
}
} // namespace

EtWriter::EtWriter(const std::string& path,
                   const ChakraProtoMsg::GlobalMetadata& metadata,
                   EtCompression compression)
    : m_frames(path, compression)
{
    m_frames.Write(metadata);
}

EtWriter::EtWriter(const std::string& path, const std::string& version, EtCompression compression)
    : EtWriter(path, MetadataWithVersion(version), compression)
{
}

void
EtWriter::AddNode(const EtNode& node)
{
    EncodeEtNode(node, m_scratch);
    AddNode(m_scratch);
}

void
EtWriter::AddNode(const ChakraProtoMsg::Node& node)
{
    m_frames.Write(node);
    ++m_nodeCount;
}

void
EtWriter::Close()
{
    m_frames.Close();
    NS_LOG_INFO(GetPath() << ": wrote " << m_nodeCount << " nodes, " << m_frames.GetBytesWritten()
                          << " bytes");
}

const std::string&
EtWriter::GetPath() const
{
    return m_frames.GetPath();
}

uint64_t
EtWriter::GetNodeCount() const
{
    return m_nodeCount;
}

} // namespace ns3
