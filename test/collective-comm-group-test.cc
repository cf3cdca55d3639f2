/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Communicator groups: ASTRA-sim's --comm-group-configuration JSON, process-group
// METADATA values from PyTorch traces, pg_name lookup and their errors.
#include "ns3/comm-group-table.h"
#include "ns3/gen-comm-groups.h"
#include "ns3/input-error.h"
#include "ns3/parallelism-kind.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

void
ExpectInputError(const std::function<void()>& action, const std::string& fragment)
{
    try
    {
        action();
        FAIL() << "no error";
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
}

} // namespace

TEST(CommGroup, PositionIsTheIndexInSortedOrder)
{
    CommGroup g("3", {12, 4, 8, 0});
    EXPECT_EQ(g.GetRanks(), (std::vector<uint32_t>{0, 4, 8, 12}));
    EXPECT_EQ(g.IndexOf(8), 2U);
    EXPECT_TRUE(g.Contains(12));
    EXPECT_FALSE(g.Contains(5));
    EXPECT_EQ(g.GetSize(), 4U);
}

TEST(CommGroup, LoadsAstraSimJson)
{
    CommGroupTable table(8);
    table.LoadJson(R"({"1": [0, 1, 2, 3], "2": [7, 6, 5, 4]})", "groups.json");
    EXPECT_EQ(table.GetGroupCount(), 2U);
    auto two = table.Lookup("2", "node 5");
    ASSERT_TRUE(two);
    EXPECT_EQ(two->GetRanks(), (std::vector<uint32_t>{4, 5, 6, 7}));
    EXPECT_EQ(table.Lookup("", "node 5"), nullptr);
    EXPECT_EQ(table.Lookup("0", "node 5"), nullptr);
}

TEST(CommGroup, EmptyMeansNoFileAsInAstraSim)
{
    EXPECT_TRUE(CommGroupTable::IsNoFile("empty"));
    EXPECT_TRUE(CommGroupTable::IsNoFile(""));
    EXPECT_FALSE(CommGroupTable::IsNoFile("groups.json"));
}

TEST(CommGroup, ReadsPyTorchProcessGroupMetadata)
{
    CommGroupTable table(8);
    const std::string value =
        R"(['[{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", )"
        R"("ranks": [], "group_size": 8, "group_count": 3}, )"
        R"({"pg_name": "1", "pg_desc": "tp", "ranks": [0, 1], "group_size": 2}, )"
        R"({"pg_name": "2", "pg_desc": "tp", "ranks": [2, 3], "group_size": 2}]'])";
    table.AddProcessGroups(value, "trace.0.et: node 3");
    // Every rank's trace repeats the same groups: that is not an error.
    table.AddProcessGroups(value, "trace.1.et: node 3");
    EXPECT_EQ(table.GetGroupCount(), 3U);
    EXPECT_EQ(table.Lookup("0", "x")->GetSize(), 8U);
    EXPECT_EQ(table.Lookup("2", "x")->GetRanks(), (std::vector<uint32_t>{2, 3}));
    // pg_desc names the kind.
    EXPECT_EQ(table.Lookup("0", "x")->GetKind(), "world");
    EXPECT_EQ(table.Lookup("2", "x")->GetKind(), "tp");
}

TEST(CommGroup, KindsFromDescriptionsAndTheGenerator)
{
    EXPECT_EQ(ParallelismKindOf("TENSOR_MODEL_PARALLEL_GROUP"), "tp");
    EXPECT_EQ(ParallelismKindOf("PIPELINE_MODEL_PARALLEL_GROUP"), "pp");
    EXPECT_EQ(ParallelismKindOf("DATA_PARALLEL_GROUP_WITH_CP"), "dp");
    EXPECT_EQ(ParallelismKindOf("EXPERT_MODEL_PARALLEL_GROUP"), "ep");
    EXPECT_EQ(ParallelismKindOf("EXPERT_DATA_PARALLEL_GROUP"), "dp");
    EXPECT_EQ(ParallelismKindOf("EP"), "ep");
    EXPECT_EQ(ParallelismKindOf("undefined"), "");

    GenCommGroups gen;
    EXPECT_EQ(gen.Register({0, 1}, "tp"), "1");
    EXPECT_EQ(gen.Register({0, 2}, "dp"), "2");
    EXPECT_EQ(gen.Register({2, 0}, "ep"), "2"); // the same ranks: one group of both kinds
    EXPECT_EQ(gen.Register({1, 3}), "3");
    EXPECT_EQ(gen.KindsJson(), R"({"1": "tp", "2": "dp+ep"})");

    CommGroupTable table(4);
    table.LoadJson(gen.ToJson(), "gen.comm-groups.json");
    table.LoadKinds(gen.KindsJson(), "gen.0.et");
    EXPECT_EQ(table.Lookup("1", "x")->GetKind(), "tp");
    EXPECT_EQ(table.Lookup("2", "x")->GetKind(), "dp+ep");
    EXPECT_EQ(ReportedKind(table.Lookup("3", "x").get(), 4), "group");
    EXPECT_EQ(ReportedKind(nullptr, 4), "world");
    ExpectInputError([&] { table.LoadKinds(R"({"1": 2})", "gen.0.et"); },
                     "gen.0.et: comm_group_kinds: the kind of group \"1\" is not a string");
}

TEST(CommGroup, RejectsBadGroupsNamingFileLineAndGroup)
{
    CommGroupTable table(8);
    ExpectInputError([&] { table.LoadJson("{\n\"1\": [0, 9]\n}", "g.json"); },
                     "g.json:2: key \"1\": rank 9 is not an integer in [0, 8)");
    ExpectInputError([&] { table.LoadJson(R"({"1": [0, 1, 1]})", "g.json"); }, "listed twice");
    ExpectInputError([&] { table.LoadJson(R"({"0": [0, 1]})", "g.json"); },
                     "decimal integers >= 1");
    ExpectInputError([&] { table.LoadJson(R"({"tp": [0, 1]})", "g.json"); }, "decimal integers");
    ExpectInputError([&] { table.LoadJson(R"({"1": []})", "g.json"); }, "no ranks");
    ExpectInputError([&] { table.LoadJson(R"({"1": "0,1"})", "g.json"); }, "list of ranks");
    ExpectInputError([&] { table.LoadJson("[[0, 1]]", "g.json"); }, "JSON object");
    ExpectInputError([&] { table.LoadJson("{\"1\": [0, 1]", "g.json"); }, "not valid JSON");
    ExpectInputError([&] { table.LoadFile("/nonexistent/g.json"); }, "no such file");
    table.LoadJson(R"({"1": [0, 1]})", "g.json");
    ExpectInputError([&] { table.LoadJson(R"({"1": [0, 2]})", "h.json"); },
                     "defined again with different ranks");
    ExpectInputError([&] { table.Lookup("5", "trace.3.et: node 12"); },
                     "trace.3.et: node 12: pg_name \"5\" names no communicator group");
    ExpectInputError([&] { table.AddProcessGroups("['not json']", "trace.0.et: node 1"); },
                     "trace.0.et: node 1: process-group metadata");
    ExpectInputError([&]
                     { table.AddProcessGroups(R"(['[{"ranks": [0]}]'])", "trace.0.et: node 1"); },
                     "lacks a string pg_name");
}
