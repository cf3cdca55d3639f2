/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The pieces under the Chakra reader: the compact id list, the string pool and the
// attribute conversions at the edges of their ranges.
#include "ns3/et-attribute.h"
#include "ns3/et-id-list.h"
#include "ns3/et-node.h"
#include "ns3/et-string-pool.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

using namespace ns3;

TEST(EtIdList, StoresOneIdInlineAndSpillsLongerLists)
{
    EXPECT_EQ(sizeof(EtIdList), 16u);
    EtIdList list;
    std::vector<uint64_t> reference;
    for (uint64_t id = 0; id < 1000; ++id)
    {
        EXPECT_EQ(std::vector<uint64_t>(list.begin(), list.end()), reference);
        list.push_back(id * 3 + 1);
        reference.push_back(id * 3 + 1);
    }
    EXPECT_EQ(list.size(), 1000u);
    EXPECT_EQ(list[999], 2998u);
}

TEST(EtIdList, CopiesAndMovesKeepTheIds)
{
    for (uint32_t length : {0u, 1u, 2u, 5u})
    {
        EtIdList original;
        for (uint32_t i = 0; i < length; ++i)
        {
            original.push_back(100 + i);
        }
        EtIdList copy(original);
        EXPECT_EQ(copy, original);
        EtIdList assigned;
        assigned.push_back(7);
        assigned = original;
        EXPECT_EQ(assigned, original);
        assigned = assigned; // self-assignment leaves it intact
        EXPECT_EQ(assigned, original);
        EtIdList moved(std::move(copy));
        EXPECT_EQ(moved, original);
        EXPECT_TRUE(copy.empty());
        EtIdList moveAssigned{1, 2, 3};
        moveAssigned = std::move(moved);
        EXPECT_EQ(moveAssigned, original);
        EXPECT_TRUE(moved.empty());
        if (length > 0)
        {
            moveAssigned.push_back(0);
            EXPECT_NE(moveAssigned, original);
        }
    }
}

TEST(EtStringPool, StoresEachDistinctTextOnce)
{
    EtStringPool pool;
    std::string_view first = pool.Intern(std::string("aten::mm"));
    std::string_view again = pool.Intern("aten::mm");
    EXPECT_EQ(first.data(), again.data());
    EXPECT_EQ(pool.Intern("").size(), 0u);
    std::string longText(100000, 'x');
    std::string_view stored = pool.Intern(longText);
    EXPECT_EQ(stored, longText);
    for (int i = 0; i < 20000; ++i) // several blocks of short texts
    {
        pool.Intern("name_" + std::to_string(i));
    }
    EXPECT_EQ(first, "aten::mm") << "views stay valid as the pool grows";
    EXPECT_EQ(stored, longText);
    EXPECT_EQ(pool.GetStringCount(), 20002u);
}

TEST(EtAttribute, IntegerConversionsAtTheirLimits)
{
    ChakraProtoMsg::AttributeProto attribute;
    int64_t signedValue = 0;
    uint64_t unsignedValue = 0;

    attribute.set_sint64_val(std::numeric_limits<int64_t>::min());
    ASSERT_TRUE(GetSignedAttribute(attribute, signedValue));
    EXPECT_EQ(signedValue, std::numeric_limits<int64_t>::min());
    EXPECT_FALSE(GetUnsignedAttribute(attribute, unsignedValue));

    attribute.set_uint64_val(std::numeric_limits<uint64_t>::max());
    ASSERT_TRUE(GetUnsignedAttribute(attribute, unsignedValue));
    EXPECT_EQ(unsignedValue, std::numeric_limits<uint64_t>::max());
    EXPECT_FALSE(GetSignedAttribute(attribute, signedValue));

    attribute.set_fixed64_val(uint64_t{1} << 63);
    EXPECT_FALSE(GetSignedAttribute(attribute, signedValue));
    attribute.set_sfixed32_val(-1);
    ASSERT_TRUE(GetSignedAttribute(attribute, signedValue));
    EXPECT_EQ(signedValue, -1);

    attribute.set_float_val(1.0F);
    EXPECT_FALSE(GetSignedAttribute(attribute, signedValue)) << "float never reads as integer";
    EXPECT_EQ(DescribeAttributeValue(attribute), "float_val 1");
    attribute.clear_value();
    EXPECT_FALSE(GetUnsignedAttribute(attribute, unsignedValue));
    EXPECT_EQ(DescribeAttributeValue(attribute), "unset");
}

TEST(EtAttribute, BoolsStringsAndLists)
{
    ChakraProtoMsg::AttributeProto attribute;
    bool flag = true;
    std::string text;
    std::vector<bool> list;

    attribute.set_int64_val(0);
    ASSERT_TRUE(GetBoolAttribute(attribute, flag));
    EXPECT_FALSE(flag);
    attribute.set_int32_val(-1);
    EXPECT_FALSE(GetBoolAttribute(attribute, flag));
    attribute.set_bool_val(true);
    uint64_t number = 0;
    ASSERT_TRUE(GetUnsignedAttribute(attribute, number));
    EXPECT_EQ(number, 1u);
    EXPECT_FALSE(GetStringAttribute(attribute, text)) << "a bool is no group name";

    attribute.set_sint32_val(-12);
    ASSERT_TRUE(GetStringAttribute(attribute, text));
    EXPECT_EQ(text, "-12");

    attribute.mutable_int32_list()->add_values(1);
    attribute.mutable_int32_list()->add_values(0);
    ASSERT_TRUE(GetBoolListAttribute(attribute, list));
    EXPECT_EQ(list, (std::vector<bool>{true, false}));
    attribute.mutable_int32_list()->add_values(2);
    EXPECT_FALSE(GetBoolListAttribute(attribute, list));
    EXPECT_EQ(list, (std::vector<bool>{true, false})) << "untouched on failure";
    attribute.mutable_string_list()->add_values("1");
    EXPECT_FALSE(GetBoolListAttribute(attribute, list));
}

TEST(EtNode, NamesAndPresenceBits)
{
    EXPECT_EQ(ToString(EtNodeType::COMM_COLL_NODE), "COMM_COLL_NODE");
    EXPECT_EQ(ToString(EtCollectiveType::REDUCE_SCATTER_BLOCK), "REDUCE_SCATTER_BLOCK");
    EXPECT_EQ(ToString(EtCollectiveType::BARRIER), "BARRIER");
    EXPECT_TRUE(IsKnownNodeType(EtNodeType::INVALID_NODE));
    EtNode node;
    EXPECT_EQ(node.present, 0);
    node.SetCommSize(0);
    EXPECT_TRUE(node.Has(ET_COMM_SIZE)) << "zero is a value, not absence";
    EXPECT_FALSE(node.Has(ET_COMM_TYPE));
    node.SetInvolvedDims(0xff, 3);
    EXPECT_EQ(node.involvedDims, 0b111u) << "bits beyond the count are dropped";
    EXPECT_LE(sizeof(EtNode), 160u);
}
