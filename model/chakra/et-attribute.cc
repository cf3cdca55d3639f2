/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-attribute.h"

#include "ns3/log.h"

#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtAttribute");

namespace
{

using Attr = ChakraProtoMsg::AttributeProto;

/**
 * An integer of any width and sign, as a magnitude and a sign, so that uint64 and int64
 * values both convert without loss.
 */
struct WideInteger
{
    uint64_t magnitude{0}; //!< absolute value
    bool negative{false};  //!< true if below zero
};

/** \param v a signed value \return v as magnitude and sign */
WideInteger
FromSigned(int64_t v)
{
    if (v >= 0)
    {
        return {static_cast<uint64_t>(v), false};
    }
    // -(v + 1) + 1 avoids overflow for INT64_MIN.
    return {static_cast<uint64_t>(-(v + 1)) + 1, true};
}

/**
 * \param attribute any attribute
 * \param out its value when it holds a scalar integer or a bool
 * \return false for every other kind
 */
bool
GetWideInteger(const Attr& attribute, WideInteger& out)
{
    switch (attribute.value_case())
    {
    case Attr::kInt32Val:
        out = FromSigned(attribute.int32_val());
        return true;
    case Attr::kInt64Val:
        out = FromSigned(attribute.int64_val());
        return true;
    case Attr::kSint32Val:
        out = FromSigned(attribute.sint32_val());
        return true;
    case Attr::kSint64Val:
        out = FromSigned(attribute.sint64_val());
        return true;
    case Attr::kSfixed32Val:
        out = FromSigned(attribute.sfixed32_val());
        return true;
    case Attr::kSfixed64Val:
        out = FromSigned(attribute.sfixed64_val());
        return true;
    case Attr::kUint32Val:
        out = {attribute.uint32_val(), false};
        return true;
    case Attr::kUint64Val:
        out = {attribute.uint64_val(), false};
        return true;
    case Attr::kFixed32Val:
        out = {attribute.fixed32_val(), false};
        return true;
    case Attr::kFixed64Val:
        out = {attribute.fixed64_val(), false};
        return true;
    case Attr::kBoolVal:
        out = {attribute.bool_val() ? 1u : 0u, false};
        return true;
    default:
        return false;
    }
}

/**
 * \param list a repeated integer field
 * \param values set to the elements when every one is 0 or 1
 * \return true if every element is 0 or 1
 */
template <typename Repeated>
bool
CopyZeroOneList(const Repeated& list, std::vector<bool>& values)
{
    std::vector<bool> result;
    result.reserve(list.size());
    for (auto element : list)
    {
        if (element != 0 && element != 1)
        {
            return false;
        }
        result.push_back(element == 1);
    }
    values = std::move(result);
    return true;
}

} // namespace

bool
GetUnsignedAttribute(const Attr& attribute, uint64_t& value)
{
    WideInteger wide;
    if (!GetWideInteger(attribute, wide) || wide.negative)
    {
        return false;
    }
    value = wide.magnitude;
    return true;
}

bool
GetSignedAttribute(const Attr& attribute, int64_t& value)
{
    WideInteger wide;
    if (!GetWideInteger(attribute, wide))
    {
        return false;
    }
    constexpr uint64_t maxPositive = std::numeric_limits<int64_t>::max();
    if (!wide.negative)
    {
        if (wide.magnitude > maxPositive)
        {
            return false;
        }
        value = static_cast<int64_t>(wide.magnitude);
        return true;
    }
    if (wide.magnitude > maxPositive + 1)
    {
        return false;
    }
    // Magnitude up to 2^63: negate in the unsigned domain, then reinterpret.
    value = static_cast<int64_t>(~wide.magnitude + 1);
    return true;
}

bool
GetBoolAttribute(const Attr& attribute, bool& value)
{
    WideInteger wide;
    if (!GetWideInteger(attribute, wide) || wide.negative || wide.magnitude > 1)
    {
        return false;
    }
    value = wide.magnitude == 1;
    return true;
}

bool
GetStringAttribute(const Attr& attribute, std::string& value)
{
    if (attribute.value_case() == Attr::kStringVal)
    {
        value = attribute.string_val();
        return true;
    }
    if (attribute.value_case() == Attr::kBoolVal)
    {
        return false;
    }
    WideInteger wide;
    if (!GetWideInteger(attribute, wide))
    {
        return false;
    }
    value = (wide.negative ? "-" : "") + std::to_string(wide.magnitude);
    return true;
}

bool
GetBoolListAttribute(const Attr& attribute, std::vector<bool>& values)
{
    switch (attribute.value_case())
    {
    case Attr::kBoolList:
        values.assign(attribute.bool_list().values().begin(), attribute.bool_list().values().end());
        return true;
    case Attr::kInt32List:
        return CopyZeroOneList(attribute.int32_list().values(), values);
    case Attr::kInt64List:
        return CopyZeroOneList(attribute.int64_list().values(), values);
    case Attr::kUint32List:
        return CopyZeroOneList(attribute.uint32_list().values(), values);
    case Attr::kUint64List:
        return CopyZeroOneList(attribute.uint64_list().values(), values);
    default:
        return false;
    }
}

std::string
DescribeAttributeValue(const Attr& attribute)
{
    if (attribute.value_case() == Attr::VALUE_NOT_SET)
    {
        return "unset";
    }
    const auto* field = attribute.GetDescriptor()->FindFieldByNumber(attribute.value_case());
    std::ostringstream text;
    text << field->name();
    WideInteger wide;
    if (GetWideInteger(attribute, wide))
    {
        text << ' ' << (wide.negative ? "-" : "") << wide.magnitude;
    }
    else if (attribute.value_case() == Attr::kDoubleVal)
    {
        text << ' ' << attribute.double_val();
    }
    else if (attribute.value_case() == Attr::kFloatVal)
    {
        text << ' ' << attribute.float_val();
    }
    else if (attribute.value_case() == Attr::kStringVal)
    {
        text << " \"" << attribute.string_val() << '"';
    }
    return text.str();
}

} // namespace ns3
