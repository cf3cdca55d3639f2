/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The per-rank parts of the replay on their own: ASTRA-sim's slot rule, the issue order
// and the busy-time accounting.

#include "ns3/replay-activity.h"
#include "ns3/replay-issue-queue.h"
#include "ns3/replay-node-action.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

EtNode
Node(EtNodeType type, bool cpu)
{
    EtNode n;
    n.type = type;
    n.SetIsCpuOp(cpu);
    return n;
}

} // namespace

TEST(ReplayResources, FollowAstraSimHardwareRule)
{
    EXPECT_EQ(ClassifyReplayResource(Node(EtNodeType::COMP_NODE, false)), ReplayResource::Compute);
    EXPECT_EQ(ClassifyReplayResource(Node(EtNodeType::COMP_NODE, true)), ReplayResource::Cpu);
    EXPECT_EQ(ClassifyReplayResource(Node(EtNodeType::COMM_COLL_NODE, false)),
              ReplayResource::Comm);
    EXPECT_EQ(ClassifyReplayResource(Node(EtNodeType::COMM_SEND_NODE, false)),
              ReplayResource::Comm);
    // A receive never holds the communication slot.
    EXPECT_EQ(ClassifyReplayResource(Node(EtNodeType::COMM_RECV_NODE, false)),
              ReplayResource::None);
    EXPECT_EQ(ClassifyReplayResource(Node(EtNodeType::MEM_LOAD_NODE, false)), ReplayResource::None);
    EXPECT_EQ(ClassifyReplayResource(Node(EtNodeType::METADATA_NODE, false)), ReplayResource::None);
    EXPECT_EQ(ClassifyReplayResource(Node(EtNodeType::COMM_COLL_NODE, true)), ReplayResource::Cpu);
}

TEST(ReplayResources, ActionsOfNodesWithoutPeersAreDurations)
{
    EtNode send = Node(EtNodeType::COMM_SEND_NODE, false);
    EXPECT_EQ(GetReplayNodeAction(send), ReplayNodeAction::Duration);
    send.SetCommDst(1);
    EXPECT_EQ(GetReplayNodeAction(send), ReplayNodeAction::Send);
    EtNode recv = Node(EtNodeType::COMM_RECV_NODE, false);
    EXPECT_EQ(GetReplayNodeAction(recv), ReplayNodeAction::Duration);
    recv.SetCommSrc(0);
    EXPECT_EQ(GetReplayNodeAction(recv), ReplayNodeAction::Receive);
    EXPECT_EQ(GetReplayNodeAction(Node(EtNodeType::COMM_COLL_NODE, true)),
              ReplayNodeAction::Duration);
    EXPECT_EQ(GetReplayNodeAction(Node(static_cast<EtNodeType>(9), false)),
              ReplayNodeAction::Duration);
    EXPECT_EQ(GetReplayNodeAction(Node(EtNodeType::METADATA_NODE, false)),
              ReplayNodeAction::Instant);
    // Host-side nodes are CPU activity whatever their type.
    EXPECT_EQ(
        *GetReplayActivity(Node(EtNodeType::COMM_COLL_NODE, true), ReplayNodeAction::Duration),
        ReplayActivityKind::Cpu);
    EXPECT_FALSE(
        GetReplayActivity(Node(EtNodeType::METADATA_NODE, false), ReplayNodeAction::Instant));
}

TEST(ReplayIssueQueue, IssuesLowestIdFirstWithinFreeSlots)
{
    ReplayIssueQueue queue(ReplayIssueQueue::Limits{});
    // position = 100 + id, so that the positions name the ids.
    queue.Push(7, 107, ReplayResource::Compute);
    queue.Push(3, 103, ReplayResource::Compute);
    queue.Push(5, 105, ReplayResource::Comm);
    queue.Push(9, 109, ReplayResource::None);
    queue.Push(1, 101, ReplayResource::None);
    queue.Push(4, 104, ReplayResource::Cpu);
    queue.Push(2, 102, ReplayResource::Cpu);
    std::vector<uint32_t> issued;
    queue.TakeIssuable(issued);
    // One of each slot (the lowest id), every slot-free node, in id order.
    EXPECT_EQ(issued, (std::vector<uint32_t>{101, 102, 103, 105, 109}));
    EXPECT_EQ(queue.GetReadyCount(), 2u);
    EXPECT_EQ(queue.GetRunning(ReplayResource::Compute), 1u);

    queue.TakeIssuable(issued);
    EXPECT_TRUE(issued.empty());
    queue.Release(ReplayResource::Compute);
    queue.TakeIssuable(issued);
    EXPECT_EQ(issued, (std::vector<uint32_t>{107}));
    queue.Release(ReplayResource::Cpu);
    queue.Push(0, 100, ReplayResource::Cpu);
    queue.TakeIssuable(issued);
    // A node made ready later with a lower id overtakes the waiting one.
    EXPECT_EQ(issued, (std::vector<uint32_t>{100}));
    EXPECT_EQ(queue.GetReadyCount(), 1u);
}

TEST(ReplayIssueQueue, ZeroMeansUnlimited)
{
    ReplayIssueQueue::Limits limits;
    limits.compute = 0;
    limits.comm = 2;
    ReplayIssueQueue queue(limits);
    for (uint32_t i = 0; i < 5; ++i)
    {
        queue.Push(i, i, ReplayResource::Compute);
        queue.Push(10 + i, 10 + i, ReplayResource::Comm);
    }
    std::vector<uint32_t> issued;
    queue.TakeIssuable(issued);
    EXPECT_EQ(issued, (std::vector<uint32_t>{0, 1, 2, 3, 4, 10, 11}));
    EXPECT_EQ(queue.GetRunning(ReplayResource::Comm), 2u);
}

TEST(ReplayActivity, UnionsAndExposedCommunication)
{
    ReplayActivity a;
    a.Begin(ReplayActivityKind::Comm, MicroSeconds(0));
    a.Begin(ReplayActivityKind::Comm, MicroSeconds(1)); // overlapping receive
    a.Begin(ReplayActivityKind::Compute, MicroSeconds(2));
    a.End(ReplayActivityKind::Comm, MicroSeconds(3));
    a.End(ReplayActivityKind::Compute, MicroSeconds(5));
    a.End(ReplayActivityKind::Comm, MicroSeconds(8));
    a.Begin(ReplayActivityKind::Compute, MicroSeconds(10));
    a.End(ReplayActivityKind::Compute, MicroSeconds(11));
    EXPECT_EQ(a.GetBusy(ReplayActivityKind::Comm), MicroSeconds(8));
    EXPECT_EQ(a.GetBusy(ReplayActivityKind::Compute), MicroSeconds(4));
    // Communication ran over [0, 8], compute hid [2, 5] of it.
    EXPECT_EQ(a.GetExposedComm(), MicroSeconds(5));
    EXPECT_EQ(a.GetRunning(ReplayActivityKind::Comm), 0u);
}
