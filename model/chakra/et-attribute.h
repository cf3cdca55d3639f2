/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_ATTRIBUTE_H
#define MLFABRIC_ET_ATTRIBUTE_H

#include "ns3/et_def.pb.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \addtogroup mlfabric-et-attribute
 *
 * Producers write the same attribute under different oneof kinds (`comm_size` as
 * int64_val or uint64_val, `is_cpu_op` as bool_val or int32_val, ...), and a reader
 * that asks for one kind reads the others as 0. These functions accept every kind that
 * can represent the value and refuse the rest, leaving the error message to the caller,
 * which knows the file and node. Each returns false, with `value` untouched, when the
 * attribute's kind or value does not fit.
 * @{
 */

/**
 * \param attribute any attribute
 * \param value set to its value
 * \return true for a non-negative scalar of any integer kind, or a bool (0 / 1)
 */
bool GetUnsignedAttribute(const ChakraProtoMsg::AttributeProto& attribute, uint64_t& value);

/**
 * \param attribute any attribute
 * \param value set to its value
 * \return true for a scalar of any integer kind or a bool whose value fits int64
 */
bool GetSignedAttribute(const ChakraProtoMsg::AttributeProto& attribute, int64_t& value);

/**
 * \param attribute any attribute
 * \param value set to its value
 * \return true for a bool, or an integer kind holding 0 or 1
 */
bool GetBoolAttribute(const ChakraProtoMsg::AttributeProto& attribute, bool& value);

/**
 * \param attribute any attribute
 * \param value set to its text; integers are written in decimal
 * \return true for a string, or a scalar of any integer kind
 */
bool GetStringAttribute(const ChakraProtoMsg::AttributeProto& attribute, std::string& value);

/**
 * \param attribute any attribute
 * \param values set to its elements
 * \return true for a bool_list, or an integer list holding only 0 and 1
 */
bool GetBoolListAttribute(const ChakraProtoMsg::AttributeProto& attribute,
                          std::vector<bool>& values);

/**
 * \param attribute any attribute
 * \return its kind and value for an error message, e.g. "double_val 2.5" or "unset"
 */
std::string DescribeAttributeValue(const ChakraProtoMsg::AttributeProto& attribute);

/** @} */

} // namespace ns3

#endif /* MLFABRIC_ET_ATTRIBUTE_H */
