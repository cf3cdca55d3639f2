/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// In-switch reductions on the flow-level backend against closed forms. Every member's
// data goes up its link once and its result comes down once; the result starts down once
// every member's first chunk (one MTU packet) is at the switch and ends no earlier than
// one chunk after the last member's last byte is up. On a star of 100 Gb/s links with
// 1 us cables, a member's result is in after
//     chunk up (one 4178-byte frame, the cable, NIC and switch pipelines)
//   + its data's wire bytes at the line rate + the down hop's cable and NIC pipeline,
// bytes are conserved (n D up, n D down, none counted as messages), and the up and down
// flows share their links max-min fairly with other traffic. A reduce-scatter sends the
// same data up and 1/n of it down, paced by the data up; an all-gather sends a share up
// and the n-1 others' shares down.
#include "ns3/boolean.h"
#include "ns3/fabric.h"
#include "ns3/flow-backend.h"
#include "ns3/input-error.h"
#include "ns3/shortest-path-routing.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kGbps = 1'000'000'000ULL;
constexpr uint64_t kMiB = 1 << 20;
constexpr uint32_t kMembers = 4;
/** Wire bytes of 1 MiB: 256 packets of 4096 + 82. */
constexpr int64_t kMiBWire = 256 * 4178;
/** One 4178-byte frame at 100 Gb/s, ps. */
constexpr int64_t kFramePs = 4178 * 80;
/** NPU to switch: 1 us of cable, the NIC's transmit and the switch's pipelines. */
constexpr int64_t kUpFixedPs = 1'000'000 + 400'000 + 300'000;
/** Switch to NPU: 1 us of cable and the NIC's receive pipeline. */
constexpr int64_t kDownFixedPs = 1'000'000 + 400'000;

/** \p hosts NPUs on one switch, 100 Gb/s and 1 us per link. */
Fabric
Star(uint32_t hosts)
{
    Fabric f("star");
    const uint32_t sw = f.AddSwitch("sw", "leaf", 1);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        const uint32_t n = f.AddNpu();
        LinkSettings s;
        s.rateBps = 100 * kGbps;
        s.delayPs = 1'000'000;
        f.AddLink(n, sw, s);
    }
    f.SetNpuForwarding(false);
    return f;
}

Ptr<FlowBackend>
Backend(const Fabric& fabric, bool ackLoad = true)
{
    auto b = CreateObject<FlowBackend>();
    b->SetAttribute("AckLoad", BooleanValue(ackLoad));
    b->SetFabric(fabric, ComputeShortestPathRouting(fabric));
    return b;
}

/** Contribute \p bytes for every member at its issue time; return when each result came. */
std::map<uint32_t, int64_t>
Reduce(Ptr<FlowBackend> b,
       const std::vector<uint32_t>& members,
       uint64_t bytes,
       const std::map<uint32_t, int64_t>& issuePs = {},
       NetworkBackend::InSwitchOp op = NetworkBackend::InSwitchOp::AllReduce)
{
    auto ranks = std::make_shared<const std::vector<uint32_t>>(members);
    auto done = std::make_shared<std::map<uint32_t, int64_t>>();
    for (uint32_t rank : members)
    {
        const int64_t at = issuePs.count(rank) ? issuePs.at(rank) : 0;
        Simulator::Schedule(PicoSeconds(at),
                            [b, ranks, rank, bytes, done, op]()
                            {
                                b->ReduceInSwitch({rank, ranks, bytes, 7, op},
                                                  [done](const NetworkBackend::Contribution& c) {
                                                      (*done)[c.rank] =
                                                          Simulator::Now().GetPicoSeconds();
                                                  });
                            });
    }
    Simulator::Run();
    return *done;
}

class FlowInSwitchTest : public ::testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
    }
};

} // namespace

TEST_F(FlowInSwitchTest, UncongestedReductionIsOneChunkUpThenTheDataAtLineRate)
{
    const Fabric fabric = Star(kMembers);
    auto b = Backend(fabric);
    const auto done = Reduce(b, {0, 1, 2, 3}, kMiB);
    ASSERT_EQ(done.size(), kMembers);
    const int64_t expected = kFramePs + kUpFixedPs + kMiBWire * 80 + kDownFixedPs;
    for (const auto& [rank, at] : done)
    {
        EXPECT_NEAR(at, expected, 2) << "rank " << rank;
    }
    // Conservation: each member's data up once and its result down once, on the wire in
    // MTU packets; the results delivered, no point-to-point message; nothing left open.
    EXPECT_EQ(b->GetInSwitchUpBytes(), kMembers * kMiB);
    EXPECT_EQ(b->GetInSwitchDownBytes(), kMembers * kMiB);
    EXPECT_EQ(b->GetDeliveredBytes(), kMembers * kMiB);
    EXPECT_EQ(b->GetDeliveredMessages(), 0U);
    EXPECT_DOUBLE_EQ(b->GetWireBytesSent(), 2.0 * kMembers * kMiBWire);
    EXPECT_EQ(b->GetOpenReductionCount(), 0U);
    // One hop queue pair up and one down per member.
    EXPECT_EQ(b->GetQueuePairCount(), 2 * kMembers);
}

TEST_F(FlowInSwitchTest, ResultWaitsForTheLastMembersData)
{
    // A member that contributes 50 us late holds every result: the last chunk is up
    // 50 us later, and one chunk later it is down.
    const Fabric fabric = Star(kMembers);
    auto b = Backend(fabric);
    constexpr int64_t late = 50'000'000;
    const auto done = Reduce(b, {0, 1, 2, 3}, kMiB, {{3, late}});
    ASSERT_EQ(done.size(), kMembers);
    const int64_t lastUp = late + kMiBWire * 80 + kUpFixedPs;
    const int64_t expected = lastUp + kFramePs + kDownFixedPs;
    for (const auto& [rank, at] : done)
    {
        EXPECT_NEAR(at, expected, 2) << "rank " << rank;
    }
    EXPECT_EQ(b->GetInSwitchDownBytes(), kMembers * kMiB);
}

TEST_F(FlowInSwitchTest, UpAndDownFlowsShareTheirLinksFairly)
{
    // Rank 1 sends 1 MiB to rank 0 while the four reduce 1 MiB: the message halves rank
    // 1's up flow (its NIC link) and rank 0's down flow (its switch link). Every result
    // then waits for rank 1's data, up at half rate: 2 W / C, and the message arrives at
    // the same 2 W / C through both hops.
    const Fabric fabric = Star(kMembers);
    auto b = Backend(fabric, false);
    int64_t message = -1;
    b->Send({1, 0, kMiB, 1},
            nullptr,
            [&message](const NetworkBackend::Message&)
            { message = Simulator::Now().GetPicoSeconds(); });
    const auto done = Reduce(b, {0, 1, 2, 3}, kMiB);
    ASSERT_EQ(done.size(), kMembers);
    const int64_t halfRateData = 2 * kMiBWire * 80;
    const int64_t expected = halfRateData + kUpFixedPs + kFramePs + kDownFixedPs;
    for (const auto& [rank, at] : done)
    {
        EXPECT_NEAR(at, expected, 2) << "rank " << rank;
    }
    // Two hops: the pipelines and cables of both and the last packet once more on the
    // second (flow-backend-test's closed form of a message).
    EXPECT_NEAR(message, halfRateData + kUpFixedPs + kFramePs + kDownFixedPs, 2);
    EXPECT_EQ(b->GetDeliveredMessages(), 1U);
    EXPECT_EQ(b->GetDeliveredBytes(), kMiB + kMembers * kMiB);
    EXPECT_EQ(b->GetInSwitchUpBytes(), kMembers * kMiB);
}

TEST_F(FlowInSwitchTest, ReduceScatterIsPacedByTheDataUp)
{
    // Each member sends its 1 MiB up and receives its 256 KiB shard. The shards' flows
    // alone would be done after a quarter of the time, but a shard is reduced only as the
    // members' data comes up: every result is in one chunk after the last byte is up, as
    // for an all-reduce.
    const Fabric fabric = Star(kMembers);
    auto b = Backend(fabric);
    const auto done = Reduce(b, {0, 1, 2, 3}, kMiB, {}, NetworkBackend::InSwitchOp::ReduceScatter);
    ASSERT_EQ(done.size(), kMembers);
    const int64_t expected = kMiBWire * 80 + kUpFixedPs + kFramePs + kDownFixedPs;
    for (const auto& [rank, at] : done)
    {
        EXPECT_NEAR(at, expected, 2) << "rank " << rank;
    }
    EXPECT_EQ(b->GetInSwitchUpBytes(), kMembers * kMiB);
    EXPECT_EQ(b->GetInSwitchDownBytes(), kMiB);
    EXPECT_DOUBLE_EQ(b->GetWireBytesSent(), kMembers * kMiBWire + kMiBWire);
}

TEST_F(FlowInSwitchTest, AllGatherStreamsTheOtherSharesDown)
{
    // Each member sends its 256 KiB share up; the switch multicasts it to the three
    // others, so each member's down link carries 768 KiB, starting once every member's
    // first packet is up.
    const Fabric fabric = Star(kMembers);
    auto b = Backend(fabric);
    const auto done = Reduce(b, {0, 1, 2, 3}, kMiB / 4, {}, NetworkBackend::InSwitchOp::AllGather);
    ASSERT_EQ(done.size(), kMembers);
    const int64_t expected = kFramePs + kUpFixedPs + 3 * kMiBWire / 4 * 80 + kDownFixedPs;
    for (const auto& [rank, at] : done)
    {
        EXPECT_NEAR(at, expected, 2) << "rank " << rank;
    }
    EXPECT_EQ(b->GetInSwitchUpBytes(), kMiB);
    EXPECT_EQ(b->GetInSwitchDownBytes(), 3 * kMiB);
    EXPECT_EQ(b->GetDeliveredBytes(), 3 * kMiB);
}

TEST_F(FlowInSwitchTest, RefusesTreeReduceScatterAndBadContributions)
{
    // Two switches of two NPUs each, joined by a link.
    Fabric f("two-leaves");
    const uint32_t sw0 = f.AddSwitch("leaf0", "leaf", 1);
    const uint32_t sw1 = f.AddSwitch("leaf1", "leaf", 1);
    LinkSettings s;
    s.rateBps = 100 * kGbps;
    s.delayPs = 1'000'000;
    for (uint32_t h = 0; h < 4; ++h)
    {
        f.AddLink(f.AddNpu(), h < 2 ? sw0 : sw1, s);
    }
    f.AddLink(sw0, sw1, s);
    f.SetNpuForwarding(false);
    auto b = Backend(f);
    auto across = std::make_shared<const std::vector<uint32_t>>(std::vector<uint32_t>{0, 2});
    try
    {
        b->ReduceInSwitch({0, across, kMiB, 1, NetworkBackend::InSwitchOp::ReduceScatter}, nullptr);
        FAIL() << "a reduce-scatter of members under two leaves was accepted";
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find("over 2 ranks: no switch is linked to every member, "
                                             "and an aggregation tree over several switches "
                                             "runs all-reduce only"),
                  std::string::npos)
            << e.what();
    }
    auto pair = std::make_shared<const std::vector<uint32_t>>(std::vector<uint32_t>{0, 1});
    EXPECT_THROW(b->ReduceInSwitch({2, pair, kMiB, 2}, nullptr), InputError);
    auto outside = std::make_shared<const std::vector<uint32_t>>(std::vector<uint32_t>{0, 9});
    EXPECT_THROW(b->ReduceInSwitch({0, outside, kMiB, 3}, nullptr), InputError);
    b->ReduceInSwitch({0, pair, kMiB, 4}, nullptr);
    EXPECT_THROW(b->ReduceInSwitch({0, pair, kMiB, 4}, nullptr), InputError);
    EXPECT_THROW(b->ReduceInSwitch({1, pair, kMiB / 2, 4}, nullptr), InputError);
}
