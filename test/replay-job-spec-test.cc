/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Multi-job replays before they run: reading --job values, placing jobs on NPUs (and
// the one-line error naming the job for every misfit), and the dimensions a job's
// collectives are decomposed over.

#include "ns3/input-error.h"
#include "ns3/replay-job-placement.h"
#include "ns3/replay-job-spec.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/** \return the message of the InputError \p fn throws, or "" */
template <typename F>
std::string
ErrorOf(F fn)
{
    try
    {
        fn();
    }
    catch (const InputError& e)
    {
        return e.what();
    }
    return "";
}

/** \return a job named \p name with \p npus */
ReplayJobSpec
Job(const std::string& name, std::vector<uint32_t> npus = {})
{
    return ReplayJobSpec{name, "/t/" + name, std::move(npus), ""};
}

} // namespace

TEST(ReplayJobSpec, ReadsPrefixKeysAndNpuLists)
{
    const ReplayJobSpec a = ParseReplayJobSpec("/t/gpt,npus=0-3,8,10-11,name=a", 0);
    EXPECT_EQ(a.workload, "/t/gpt");
    EXPECT_EQ(a.name, "a");
    EXPECT_EQ(a.npus, (std::vector<uint32_t>{0, 1, 2, 3, 8, 10, 11}));
    EXPECT_TRUE(a.commGroupPath.empty());

    const ReplayJobSpec b =
        ParseReplayJobSpec("name=b,comm_group=/t/g.json,workload=/t/w,npus=7,5", 3);
    EXPECT_EQ(b.workload, "/t/w");
    EXPECT_EQ(b.commGroupPath, "/t/g.json");
    EXPECT_EQ(b.npus, (std::vector<uint32_t>{7, 5}));

    const ReplayJobSpec c = ParseReplayJobSpec("/t/w", 2);
    EXPECT_EQ(c.name, "job2");
    EXPECT_TRUE(c.npus.empty());

    EXPECT_EQ(FormatNpuList({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
    EXPECT_EQ(FormatNpuList({5, 4}), "5,4");
}

TEST(ReplayJobSpec, RejectsMalformedValues)
{
    EXPECT_NE(ErrorOf([] { ParseReplayJobSpec("/t/w,gpus=0-3", 0); }).find("unknown key 'gpus'"),
              std::string::npos);
    EXPECT_NE(ErrorOf([] { ParseReplayJobSpec("/t/w,name=a,name=b", 0); }).find("given twice"),
              std::string::npos);
    EXPECT_NE(ErrorOf([] { ParseReplayJobSpec("npus=0-3", 0); }).find("no trace prefix"),
              std::string::npos);
    EXPECT_NE(ErrorOf([] { ParseReplayJobSpec("/t/w,npus=3-1", 0); }).find("runs backwards"),
              std::string::npos);
    EXPECT_NE(
        ErrorOf([] { ParseReplayJobSpec("/t/w,npus=0-x", 0); }).find("'x' is not an NPU number"),
        std::string::npos);
    EXPECT_NE(ErrorOf([] { ParseReplayJobSpec("/t/w,name=", 0); }).find("'name' is empty"),
              std::string::npos);
    EXPECT_NE(ErrorOf([] { ParseReplayJobSpec("/t/w,name=a,oops", 0); }).find("not key=value"),
              std::string::npos);
    EXPECT_EQ(ErrorOf([] { ParseReplayJobSpec("/t/w,npus=0-3", 0); }), "");
}

TEST(ReplayJobPlacement, ListedJobsFirstThenConsecutiveBlocks)
{
    const auto placed = PlaceReplayJobs({Job("a"), Job("b", {4, 5}), Job("c")}, {3, 2, 3}, 8);
    EXPECT_EQ(placed[0], (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(placed[1], (std::vector<uint32_t>{4, 5}));
    EXPECT_EQ(placed[2], (std::vector<uint32_t>{3, 6, 7}));

    const auto blocks = PlaceReplayJobs({Job("a"), Job("b")}, {4, 4}, 8);
    EXPECT_EQ(blocks[1], (std::vector<uint32_t>{4, 5, 6, 7}));
}

TEST(ReplayJobPlacement, NamesTheJobAndWhatIsWrong)
{
    EXPECT_EQ(ErrorOf(
                  [] {
                      PlaceReplayJobs({Job("a", {0, 1}), Job("b", {1, 2})}, {2, 2}, 4);
                  }),
              "job 'b': NPU 1 is also given to job 'a'");
    EXPECT_EQ(ErrorOf(
                  [] {
                      PlaceReplayJobs({Job("a", {0, 4})}, {2}, 4);
                  }),
              "job 'a': NPU 4 is out of range (the fabric has 4 NPUs, 0-3)");
    EXPECT_EQ(ErrorOf(
                  [] {
                      PlaceReplayJobs({Job("a", {0, 1})}, {4}, 8);
                  }),
              "job 'a': workload /t/a has 4 ranks but npus= lists 2 NPUs");
    EXPECT_EQ(ErrorOf(
                  [] {
                      PlaceReplayJobs({Job("a", {2, 2})}, {2}, 8);
                  }),
              "job 'a': NPU 2 is listed twice");
    EXPECT_EQ(ErrorOf(
                  [] {
                      PlaceReplayJobs({Job("a"), Job("b")}, {4, 5}, 8);
                  }),
              "job 'b': workload /t/b has 5 ranks but only 4 of the fabric's 8 NPUs are left "
              "for it");
    EXPECT_EQ(ErrorOf(
                  [] {
                      PlaceReplayJobs({Job("a"), Job("a")}, {1, 1}, 8);
                  }),
              "job 'a': two jobs have this name (give each its own name=)");
}

TEST(ReplayJobPlacement, DimensionsFollowAlignedBlocks)
{
    const std::vector<uint32_t> fabric{4, 4};
    EXPECT_EQ(ReplayJobDimensions(fabric, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}),
              fabric);
    EXPECT_EQ(ReplayJobDimensions(fabric, {8, 9, 10, 11, 12, 13, 14, 15}),
              (std::vector<uint32_t>{4, 2}));
    EXPECT_EQ(ReplayJobDimensions(fabric, {4, 5, 6, 7}), (std::vector<uint32_t>{4}));
    EXPECT_EQ(ReplayJobDimensions(fabric, {2, 3}), (std::vector<uint32_t>{2}));
    // Not aligned, or not consecutive: one dimension of the job's ranks.
    EXPECT_EQ(ReplayJobDimensions(fabric, {4, 5, 6, 7, 8, 9, 10, 11}), (std::vector<uint32_t>{8}));
    EXPECT_EQ(ReplayJobDimensions(fabric, {2, 3, 4, 5}), (std::vector<uint32_t>{4}));
    EXPECT_EQ(ReplayJobDimensions(fabric, {0, 2, 4, 6}), (std::vector<uint32_t>{4}));
    EXPECT_EQ(ReplayJobDimensions(fabric, {0, 1, 2, 3, 4, 5}), (std::vector<uint32_t>{6}));
}
