/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-node-codec.h"

#include "ns3/et-attribute.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtNodeCodec");

static_assert(static_cast<int>(EtNodeType::COMM_COLL_NODE) == ChakraProtoMsg::COMM_COLL_NODE,
              "EtNodeType must use the schema's numbers");
static_assert(static_cast<int>(EtCollectiveType::BARRIER) == ChakraProtoMsg::BARRIER,
              "EtCollectiveType must use the schema's numbers");
static_assert(kEtMaxCollectiveType == ChakraProtoMsg::CollectiveCommType_MAX,
              "kEtMaxCollectiveType must be the schema's last collective");

namespace
{

using Attr = ChakraProtoMsg::AttributeProto;

/**
 * Reads the attributes of one node and reports a bad one with the file and node id.
 */
class AttributeDecoder
{
  public:
    /**
     * \param path file name
     * \param node node being decoded; its id and type are already set
     */
    AttributeDecoder(std::string_view path, EtNode& node)
        : m_path(path)
        , m_node(node)
    {
    }

    /**
     * \param attribute the attribute to store in the node if it is a known one
     * \param strings pool for pg_name
     */
    void
    Decode(const Attr& attribute, EtStringPool& strings)
    {
        const std::string& name = attribute.name();
        if (name == "is_cpu_op")
        {
            DecodeIsCpuOp(attribute);
        }
        else if (name == "num_ops")
        {
            DecodeUnsigned(attribute, ET_NUM_OPS, m_node.numOps);
        }
        else if (name == "tensor_size")
        {
            DecodeUnsigned(attribute, ET_TENSOR_SIZE, m_node.tensorSize);
        }
        else if (name == "comm_size")
        {
            DecodeUnsigned(attribute, ET_COMM_SIZE, m_node.commSize);
        }
        else if (name == "comm_type")
        {
            DecodeCommType(attribute);
        }
        else if (name == "comm_priority")
        {
            DecodeInt32(attribute, ET_COMM_PRIORITY, m_node.commPriority);
        }
        else if (name == "comm_src")
        {
            DecodeInt32(attribute, ET_COMM_SRC, m_node.commSrc);
        }
        else if (name == "comm_dst")
        {
            DecodeInt32(attribute, ET_COMM_DST, m_node.commDst);
        }
        else if (name == "comm_tag")
        {
            DecodeSigned(attribute, ET_COMM_TAG, m_node.commTag);
        }
        else if (name == "pg_name")
        {
            DecodePgName(attribute, strings);
        }
        else if (name == "involved_dim")
        {
            DecodeInvolvedDim(attribute);
        }
    }

  private:
    /**
     * \param bit presence bit of a known attribute
     * \return true if an earlier attribute of the same name was already taken
     */
    bool
    Seen(EtAttribute bit) const
    {
        return m_node.Has(bit);
    }

    /**
     * \param attribute the offending attribute
     * \param expected what it should have held
     */
    [[noreturn]] void
    Fail(const Attr& attribute, const char* expected) const
    {
        std::ostringstream message;
        message << m_path << ": node " << m_node.id << ": attribute " << attribute.name() << " is "
                << DescribeAttributeValue(attribute) << ", expected " << expected;
        throw InputError(message.str());
    }

    /** \param attribute `is_cpu_op`, bool or integer 0 / 1 */
    void
    DecodeIsCpuOp(const Attr& attribute)
    {
        bool value = false;
        if (Seen(ET_IS_CPU_OP))
        {
            return;
        }
        if (!GetBoolAttribute(attribute, value))
        {
            Fail(attribute, "a bool or the integer 0 or 1");
        }
        m_node.SetIsCpuOp(value);
    }

    /**
     * \param attribute a size or count
     * \param bit its presence bit
     * \param field where to store it
     */
    void
    DecodeUnsigned(const Attr& attribute, EtAttribute bit, uint64_t& field)
    {
        uint64_t value = 0;
        if (Seen(bit))
        {
            return;
        }
        if (!GetUnsignedAttribute(attribute, value))
        {
            Fail(attribute, "a non-negative integer");
        }
        field = value;
        m_node.present |= bit;
    }

    /**
     * \param attribute a signed 64-bit value
     * \param bit its presence bit
     * \param field where to store it
     */
    void
    DecodeSigned(const Attr& attribute, EtAttribute bit, int64_t& field)
    {
        int64_t value = 0;
        if (Seen(bit))
        {
            return;
        }
        if (!GetSignedAttribute(attribute, value))
        {
            Fail(attribute, "an integer that fits 64 bits");
        }
        field = value;
        m_node.present |= bit;
    }

    /**
     * \param attribute a rank or priority
     * \param bit its presence bit
     * \param field where to store it
     */
    void
    DecodeInt32(const Attr& attribute, EtAttribute bit, int32_t& field)
    {
        int64_t value = 0;
        if (Seen(bit))
        {
            return;
        }
        if (!GetSignedAttribute(attribute, value) || value < std::numeric_limits<int32_t>::min() ||
            value > std::numeric_limits<int32_t>::max())
        {
            Fail(attribute, "an integer that fits 32 bits");
        }
        field = static_cast<int32_t>(value);
        m_node.present |= bit;
    }

    /** \param attribute `comm_type`, a CollectiveCommType number */
    void
    DecodeCommType(const Attr& attribute)
    {
        int64_t value = 0;
        if (Seen(ET_COMM_TYPE))
        {
            return;
        }
        bool valid =
            GetSignedAttribute(attribute, value) && value >= 0 && value <= kEtMaxCollectiveType;
        if (!valid)
        {
            if (m_node.type == EtNodeType::COMM_COLL_NODE)
            {
                Fail(attribute, "a CollectiveCommType number 0..9");
            }
            NS_LOG_WARN(m_path << ": node " << m_node.id << ": ignoring comm_type "
                               << DescribeAttributeValue(attribute) << " on a "
                               << ToString(m_node.type));
            return;
        }
        m_node.SetCommType(static_cast<EtCollectiveType>(value));
    }

    /**
     * \param attribute `pg_name`, a group id as text or integer
     * \param strings pool for the text
     */
    void
    DecodePgName(const Attr& attribute, EtStringPool& strings)
    {
        if (Seen(ET_PG_NAME))
        {
            return;
        }
        if (attribute.value_case() == Attr::kStringVal)
        {
            m_node.SetPgName(strings.Intern(attribute.string_val()));
            return;
        }
        std::string text;
        if (!GetStringAttribute(attribute, text))
        {
            Fail(attribute, "a string or an integer group id");
        }
        m_node.SetPgName(strings.Intern(text));
    }

    /** \param attribute `involved_dim`, one bool per network dimension */
    void
    DecodeInvolvedDim(const Attr& attribute)
    {
        std::vector<bool> dims;
        if (Seen(ET_INVOLVED_DIM))
        {
            return;
        }
        if (!GetBoolListAttribute(attribute, dims))
        {
            Fail(attribute, "a bool_list");
        }
        if (dims.size() > kEtMaxInvolvedDims)
        {
            Fail(attribute, "at most 32 dimensions");
        }
        uint32_t mask = 0;
        for (size_t d = 0; d < dims.size(); ++d)
        {
            mask |= dims[d] ? (1u << d) : 0u;
        }
        m_node.SetInvolvedDims(mask, static_cast<uint8_t>(dims.size()));
    }

    std::string_view m_path; //!< file name, for errors
    EtNode& m_node;          //!< node being filled
};

/**
 * \param proto node to add to
 * \param name attribute name
 * \return the new attribute
 */
Attr*
AddAttribute(ChakraProtoMsg::Node& proto, const char* name)
{
    Attr* attribute = proto.add_attr();
    attribute->set_name(name);
    return attribute;
}

/**
 * Store an unsigned value as int64_val, the kind ASTRA-sim reads, unless it needs 64
 * unsigned bits.
 * \param attribute destination
 * \param value the value
 */
void
SetUnsignedAsInt64(Attr& attribute, uint64_t value)
{
    if (value <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    {
        attribute.set_int64_val(static_cast<int64_t>(value));
    }
    else
    {
        attribute.set_uint64_val(value);
    }
}

} // namespace

EtNode
DecodeEtNode(const ChakraProtoMsg::Node& proto, EtStringPool& strings, std::string_view path)
{
    EtNode node;
    node.id = proto.id();
    if (proto.type() < 0 || proto.type() > std::numeric_limits<uint8_t>::max())
    {
        std::ostringstream message;
        message << path << ": node " << proto.id() << ": node type " << proto.type()
                << " is out of range";
        throw InputError(message.str());
    }
    node.type = static_cast<EtNodeType>(proto.type());
    node.name = strings.Intern(proto.name());
    node.durationMicros = proto.duration_micros();
    for (uint64_t id : proto.data_deps())
    {
        node.dataDeps.push_back(id);
    }
    for (uint64_t id : proto.ctrl_deps())
    {
        node.ctrlDeps.push_back(id);
    }
    if (node.type == EtNodeType::METADATA_NODE && proto.has_inputs())
    {
        node.inputsValues = strings.Intern(proto.inputs().values());
    }
    AttributeDecoder attributes(path, node);
    for (const auto& attribute : proto.attr())
    {
        attributes.Decode(attribute, strings);
    }
    return node;
}

void
EncodeEtNode(const EtNode& node, ChakraProtoMsg::Node& proto)
{
    proto.Clear();
    proto.set_id(node.id);
    proto.set_name(node.name.data(), node.name.size());
    proto.set_type(static_cast<ChakraProtoMsg::NodeType>(node.type));
    for (uint64_t id : node.ctrlDeps)
    {
        proto.add_ctrl_deps(id);
    }
    for (uint64_t id : node.dataDeps)
    {
        proto.add_data_deps(id);
    }
    proto.set_duration_micros(node.durationMicros);
    if (!node.inputsValues.empty())
    {
        proto.mutable_inputs()->set_values(node.inputsValues.data(), node.inputsValues.size());
    }
    if (node.Has(ET_IS_CPU_OP))
    {
        AddAttribute(proto, "is_cpu_op")->set_bool_val(node.isCpuOp);
    }
    if (node.Has(ET_NUM_OPS))
    {
        SetUnsignedAsInt64(*AddAttribute(proto, "num_ops"), node.numOps);
    }
    if (node.Has(ET_TENSOR_SIZE))
    {
        AddAttribute(proto, "tensor_size")->set_uint64_val(node.tensorSize);
    }
    if (node.Has(ET_COMM_TYPE))
    {
        AddAttribute(proto, "comm_type")->set_int64_val(static_cast<int64_t>(node.commType));
    }
    if (node.Has(ET_COMM_PRIORITY))
    {
        AddAttribute(proto, "comm_priority")->set_int32_val(node.commPriority);
    }
    if (node.Has(ET_COMM_SIZE))
    {
        SetUnsignedAsInt64(*AddAttribute(proto, "comm_size"), node.commSize);
    }
    if (node.Has(ET_COMM_SRC))
    {
        AddAttribute(proto, "comm_src")->set_int32_val(node.commSrc);
    }
    if (node.Has(ET_COMM_DST))
    {
        AddAttribute(proto, "comm_dst")->set_int32_val(node.commDst);
    }
    if (node.Has(ET_COMM_TAG))
    {
        Attr* tag = AddAttribute(proto, "comm_tag");
        if (node.commTag >= std::numeric_limits<int32_t>::min() &&
            node.commTag <= std::numeric_limits<int32_t>::max())
        {
            tag->set_int32_val(static_cast<int32_t>(node.commTag));
        }
        else
        {
            tag->set_int64_val(node.commTag);
        }
    }
    if (node.Has(ET_PG_NAME))
    {
        AddAttribute(proto, "pg_name")->set_string_val(node.pgName.data(), node.pgName.size());
    }
    if (node.Has(ET_INVOLVED_DIM))
    {
        auto* dims = AddAttribute(proto, "involved_dim")->mutable_bool_list();
        for (uint32_t d = 0; d < node.involvedDimCount; ++d)
        {
            dims->add_values((node.involvedDims >> d) & 1u);
        }
    }
}

} // namespace ns3
