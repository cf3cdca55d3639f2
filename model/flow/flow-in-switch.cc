/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// FlowBackend's in-switch reductions (nvls, inNetwork).
//
// Each member's data goes up its own link to the switch as one flow, and its result
// comes down as another (NetworkBackend::ResultBytes: the whole result of an all-reduce,
// the member's shard of a reduce-scatter, the other members' data of an all-gather); both
// are queue pairs of one hop that share their links max-min fairly with every other flow,
// framed as the link frames (scale-up packets or RoCEv2). The reduction engine adds no
// bandwidth of its own.
//
// Pipelining. The packet level's engine reduces chunk by chunk (one packet each) and
// sends a chunk's result down as soon as every member's copy of it is in. The flow model
// approximates that stream by two events: the result flows start once every member has
// contributed and its first chunk has reached the switch (plus the engine's latency, and
// one chunk at its rate when that is bounded); and no member's result is complete before
// the last member's last byte is up, reduced and one chunk has come down. In between the
// result flows run at their own fair share, as if the engine always had reduced data
// ready. That is exact when the down flows are no faster than the slowest up flow (an
// uncongested switch, every member issuing together: the down stream trails the up
// stream by one chunk, as at packet level). When a member is late or its up link is
// slower, the down flows run ahead of the data that feeds them: the finish is still
// bounded correctly by the last-up floor, but the down links carry the result's bytes
// earlier than at packet level, so a flow competing with them on a down link is slowed
// early rather than late (its finish is off by at most the gap between the members' up
// finishes). The reduction buffer's credit window is not modelled; a buffer that cannot
// cover the round trip to the switch at the link rate is named in a warning.
//
// Aggregation trees (ReductionTree: members no one switch joins, an all-reduce only).
// Each member's data goes up to its own switch, and each switch below the root sends its
// partial sum up to its parent as one flow of the data's size, which starts once every
// member below it has contributed and its children's first chunks are in (plus the
// engine's latency, and a chunk at its rate); the root's result comes down the tree the
// same way, each switch's flows down starting one chunk after its parent's. A switch's
// flow up ends no earlier than one chunk after its children's data is all in, and a
// member's result no earlier than one chunk per hop down after the root's last chunk is
// in: the same two floors, level by level. Between switches the flows count neither as
// data up nor as results delivered, but as the tree's own bytes.
//
// A reduce-scatter and an all-gather take the same two events. A reduce-scatter's shards
// are reduced as the data comes up, so its small result flows end on the last-up floor;
// an all-gather's result, n-1 times the data, is fed by n-1 up flows at once and ends at
// its own flow's pace.

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/flow-backend.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/reduction-engine.h"
#include "ns3/reduction-switch.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowInSwitch");

ReductionTree
FlowBackend::ReductionTreeFor(const std::vector<uint32_t>& members) const
{
    return ReductionTreeOf(*m_fabric,
                           members,
                           [this](uint32_t from, uint32_t to)
                           { return m_router->DataPath(from, to, 0, 0).front(); });
}

uint32_t
FlowBackend::HopQueuePair(uint32_t from, uint32_t to, uint32_t rank, int32_t kind)
{
    const std::pair<uint32_t, uint32_t> ends{from, to};
    auto it = m_hopQp.find(ends);
    if (it != m_hopQp.end())
    {
        return it->second;
    }
    // The first of the parallel links, as the packet level's placement takes the first
    // port that joins them.
    uint32_t directed = 0;
    bool found = false;
    for (const FabricPort& port : m_fabric->GetPorts(ends.first))
    {
        if (port.peer == ends.second)
        {
            const bool fromA = m_fabric->GetLink(port.link).nodeA == ends.first;
            directed = 2 * port.link + (fromA ? 0 : 1);
            found = true;
            break;
        }
    }
    NS_ABORT_MSG_UNLESS(found, "node " << ends.first << " is not linked to " << ends.second);
    const uint32_t l = FlowRouter::LinkOf(directed);
    QueuePair qp;
    qp.src = rank;
    qp.dst = rank;
    qp.inSwitch = kind;
    qp.dataPath = {directed};
    qp.wire = m_wire.get();
    if (m_fabric->GetLinkScaleUp(l) != nullptr)
    {
        const int32_t dim = m_fabric->GetLink(l).dimension;
        qp.wire = m_scaleUpWires.at(dim).get();
        qp.scaleUpDim = dim;
    }
    qp.data = TimingOf(qp.dataPath);
    qp.ack = TimingOf({});
    // Chunks are not acknowledged; the engine's credit grants (one header a quarter
    // window) are left out of the reverse link's load.
    qp.flow = m_rates->AddFlow({{directed, LinkWeight(l, qp)}});
    const auto id = static_cast<uint32_t>(m_qps.size());
    if (m_flowQp.size() <= qp.flow)
    {
        m_flowQp.resize(qp.flow + 1);
    }
    m_flowQp[qp.flow] = id;
    m_qps.push_back(std::move(qp));
    m_hopQp.emplace(ends, id);
    NS_LOG_INFO("queue pair " << id << ": in-switch hop from node " << from << " to node " << to);
    return id;
}

uint32_t
FlowBackend::MemberHop(const ReductionKey& key, uint32_t member, bool up)
{
    const Reduction& r = m_reductions.at(key);
    const uint32_t rank = key.second[member];
    const uint32_t npu = m_fabric->GetNpuNode(rank);
    const uint32_t sw = r.tree.switches[r.tree.attach[member]].node;
    return up ? HopQueuePair(npu, sw, rank, 1) : HopQueuePair(sw, npu, rank, -1);
}

uint32_t
FlowBackend::ParentHop(const ReductionKey& key, uint32_t s, bool up)
{
    const Reduction& r = m_reductions.at(key);
    const uint32_t node = r.tree.switches[s].node;
    const uint32_t parent = r.tree.switches[r.tree.switches[s].parent].node;
    const uint32_t rank = key.second.front();
    return up ? HopQueuePair(node, parent, rank, 2) : HopQueuePair(parent, node, rank, 2);
}

int64_t
FlowBackend::ChunkPs(const QueuePair& qp) const
{
    // The engine takes whole chunks: the hop stores and forwards one, whatever the
    // switch's cut-through.
    const uint32_t wire = qp.wire->PacketWireBytes(qp.wire->GetMtu());
    const uint64_t rate =
        m_fabric->GetLink(FlowRouter::LinkOf(qp.dataPath.front())).settings.rateBps;
    return qp.data.FixedPs(wire, wire) + SerializationPs(wire, rate);
}

int64_t
FlowBackend::DownLagPs(const ReductionKey& key, uint32_t member)
{
    const Reduction& r = m_reductions.at(key);
    int64_t lag = ChunkPs(m_qps[MemberHop(key, member, false)]);
    for (uint32_t s = r.tree.attach[member]; r.tree.switches[s].parent >= 0;
         s = r.tree.switches[s].parent)
    {
        lag += ChunkPs(m_qps[ParentHop(key, s, false)]);
    }
    return lag;
}

int64_t
FlowBackend::EngineChunkPs(const ReductionKey& key)
{
    const Reduction& r = m_reductions.at(key);
    if (m_reductionBps == 0 || r.reducedBytes == 0)
    {
        return 0;
    }
    const QueuePair& qp = m_qps[MemberHop(key, 0, true)];
    return static_cast<int64_t>(qp.wire->GetMtu() * 8e12 / static_cast<double>(m_reductionBps));
}

void
FlowBackend::ReduceInSwitch(const Contribution& c, ContributionCallback done)
{
    NS_LOG_FUNCTION(this << c.rank << c.bytes << c.tag);
    if (!m_fabric)
    {
        throw InputError("flow backend: no fabric set before the first in-switch reduction");
    }
    NS_ABORT_MSG_UNLESS(c.members, "a contribution without members");
    const std::vector<uint32_t>& members = *c.members;
    const std::string who = "rank " + std::to_string(c.rank) + ": in-switch reduction over " +
                            std::to_string(members.size()) + " ranks";
    for (uint32_t rank : members)
    {
        if (rank >= GetRankCount())
        {
            throw InputError(who + ": rank " + std::to_string(rank) + " is not in the network");
        }
    }
    auto self = std::lower_bound(members.begin(), members.end(), c.rank);
    if (self == members.end() || *self != c.rank)
    {
        throw InputError(who + " that does not include the rank");
    }
    const auto index = static_cast<uint32_t>(self - members.begin());
    const ReductionKey key{c.tag, members};
    auto it = m_reductions.find(key);
    if (it == m_reductions.end())
    {
        Reduction r;
        r.tree = ReductionTreeFor(members);
        if (!r.tree.IsSingleSwitch() && c.op != InSwitchOp::AllReduce)
        {
            throw InputError(who + ": no switch is linked to every member, and an aggregation "
                                   "tree over several switches runs all-reduce only");
        }
        r.bytes = c.bytes;
        r.resultBytes = ResultBytes(c);
        r.reducedBytes = ReducedBytes(c);
        r.contributions.resize(members.size());
        r.done.resize(members.size());
        r.contributed.assign(members.size(), false);
        r.downArrivedPs.assign(members.size(), -1);
        r.resultFloorPs.assign(members.size(), -1);
        const size_t switches = r.tree.switches.size();
        r.waitingContributions.assign(switches, 0);
        r.waitingUps.assign(switches, 0);
        r.firstChunksPs.assign(switches, 0);
        r.lastUpPs.assign(switches, 0);
        r.upFlowPs.assign(switches, -1);
        for (uint32_t s = 0; s < switches; ++s)
        {
            r.waitingUps[s] = r.tree.switches[s].members.size() + r.tree.switches[s].below.size();
        }
        for (uint32_t m = 0; m < members.size(); ++m)
        {
            for (int32_t s = r.tree.attach[m]; s >= 0; s = r.tree.switches[s].parent)
            {
                ++r.waitingContributions[s];
            }
        }
        it = m_reductions.emplace(key, std::move(r)).first;
    }
    Reduction& r = it->second;
    if (r.contributed[index])
    {
        throw InputError(who + ": the rank contributed twice");
    }
    if (r.bytes != c.bytes)
    {
        throw InputError(who + ": " + std::to_string(c.bytes) + " bytes, another member gave " +
                         std::to_string(r.bytes));
    }
    r.contributed[index] = true;
    r.contributions[index] = c;
    r.done[index] = std::move(done);
    const uint32_t up = MemberHop(key, index, true);
    const uint32_t joined = r.tree.attach[index];
    const int64_t now = Simulator::Now().GetPicoSeconds();
    r.firstChunksPs[joined] = std::max(r.firstChunksPs[joined], now + ChunkPs(m_qps[up]));
    if (!m_bufferChecked)
    {
        m_bufferChecked = true;
        WarnIfBufferLimits(up);
    }
    Enqueue(up,
            Pending{{c.rank, c.rank, c.bytes, c.tag},
                    nullptr,
                    [this, key, joined](const Message&)
                    { ChildUp(key, joined, Simulator::Now().GetPicoSeconds()); },
                    0});
    // Bottom up, so that a switch's first chunks are due before its parent's are counted.
    for (int32_t s = joined; s >= 0; s = r.tree.switches[s].parent)
    {
        if (--r.waitingContributions[s] == 0)
        {
            SubtreeContributed(key, s);
        }
    }
}

void
FlowBackend::WarnIfBufferLimits(uint32_t up)
{
    const QueuePair& qp = m_qps[up];
    const int64_t roundTripPs = 2 * ChunkPs(qp);
    const uint64_t rate =
        m_fabric->GetLink(FlowRouter::LinkOf(qp.dataPath.front())).settings.rateBps;
    const double windowBps = static_cast<double>(m_reductionBufferBytes) * 8e12 /
                             static_cast<double>(std::max<int64_t>(roundTripPs, 1));
    if (windowBps < static_cast<double>(rate))
    {
        std::cerr << "warning: flow backend: a reduction window of " << m_reductionBufferBytes
                  << " B (ns3::ReductionEngine::BufferBytes, WindowBytes) bounds a "
                  << "member's in-switch reduction at about " << windowBps / 1e9
                  << " Gb/s over the round trip to the switch, below the link's "
                  << static_cast<double>(rate) / 1e9
                  << " Gb/s; the packet level holds senders to that window, the flow level "
                     "does not"
                  << std::endl;
    }
}

void
FlowBackend::SubtreeContributed(const ReductionKey& key, uint32_t s)
{
    Reduction& r = m_reductions.at(key);
    const int64_t now = Simulator::Now().GetPicoSeconds();
    // The switch's first chunk is complete, then reduced and past the engine's latency.
    const int64_t ready =
        r.firstChunksPs[s] + m_reductionLatency.GetPicoSeconds() + EngineChunkPs(key);
    const int32_t parent = r.tree.switches[s].parent;
    if (parent < 0)
    {
        Simulator::Schedule(PicoSeconds(ready - now), [this, key]() { StartDown(key, 0); });
        return;
    }
    const uint32_t hop = ParentHop(key, s, true);
    r.firstChunksPs[parent] = std::max(r.firstChunksPs[parent], ready + ChunkPs(m_qps[hop]));
    Simulator::Schedule(PicoSeconds(ready - now),
                        [this, key, s, hop]()
                        {
                            const Reduction& r = m_reductions.at(key);
                            const uint32_t rank = key.second.front();
                            Enqueue(hop,
                                    Pending{{rank, rank, r.bytes, key.first},
                                            nullptr,
                                            [this, key, s](const Message&)
                                            {
                                                m_reductions.at(key).upFlowPs[s] =
                                                    Simulator::Now().GetPicoSeconds();
                                                SwitchUpIfDone(key, s);
                                            },
                                            0});
                        });
}

int64_t
FlowBackend::AllReducedPs(const Reduction& r, uint32_t s) const
{
    const int64_t latency = m_reductionLatency.GetPicoSeconds();
    int64_t reduced = r.lastUpPs[s] + latency;
    if (m_reductionBps > 0 && r.reducedBytes > 0)
    {
        // Every chunk passes the engine after the first chunks were in.
        reduced =
            std::max<int64_t>(reduced,
                              r.firstChunksPs[s] + latency +
                                  static_cast<int64_t>(static_cast<double>(r.reducedBytes) * 8e12 /
                                                       static_cast<double>(m_reductionBps)));
    }
    return reduced;
}

void
FlowBackend::SwitchUpIfDone(const ReductionKey& key, uint32_t s)
{
    Reduction& r = m_reductions.at(key);
    if (r.waitingUps[s] > 0 || r.upFlowPs[s] < 0)
    {
        return;
    }
    // The switch's flow up cannot end before its last chunk is in, reduced and one chunk
    // has crossed the hop.
    const int64_t hopPs = ChunkPs(m_qps[ParentHop(key, s, true)]);
    const int64_t done = std::max(r.upFlowPs[s], AllReducedPs(r, s) + hopPs);
    ChildUp(key, r.tree.switches[s].parent, done);
}

void
FlowBackend::ChildUp(const ReductionKey& key, uint32_t s, int64_t atPs)
{
    Reduction& r = m_reductions.at(key);
    r.lastUpPs[s] = std::max(r.lastUpPs[s], atPs);
    if (--r.waitingUps[s] > 0)
    {
        return;
    }
    if (r.tree.switches[s].parent >= 0)
    {
        SwitchUpIfDone(key, s);
        return;
    }
    // The root's last chunk is in: reduced, then its way down to each member.
    const int64_t base = AllReducedPs(r, s);
    for (uint32_t i = 0; i < key.second.size(); ++i)
    {
        r.resultFloorPs[i] = base + DownLagPs(key, i);
        if (r.downArrivedPs[i] >= 0)
        {
            FinishMember(key, i);
        }
    }
}

void
FlowBackend::StartDown(const ReductionKey& key, uint32_t s)
{
    const Reduction& r = m_reductions.at(key);
    for (uint32_t i : r.tree.switches[s].members)
    {
        const uint32_t rank = key.second[i];
        Enqueue(MemberHop(key, i, false),
                Pending{{rank, rank, r.resultBytes, key.first},
                        nullptr,
                        [this, key, i](const Message&) { OnDownArrived(key, i); },
                        0});
    }
    for (uint32_t below : r.tree.switches[s].below)
    {
        const uint32_t hop = ParentHop(key, below, false);
        const uint32_t rank = key.second.front();
        Enqueue(hop, Pending{{rank, rank, r.resultBytes, key.first}, nullptr, nullptr, 0});
        // The switch below forwards each result chunk once it is in.
        Simulator::Schedule(PicoSeconds(ChunkPs(m_qps[hop])),
                            [this, key, below]() { StartDown(key, below); });
    }
}

void
FlowBackend::OnDownArrived(const ReductionKey& key, uint32_t member)
{
    Reduction& r = m_reductions.at(key);
    r.downArrivedPs[member] = Simulator::Now().GetPicoSeconds();
    if (r.resultFloorPs[member] >= 0)
    {
        FinishMember(key, member);
    }
}

void
FlowBackend::FinishMember(const ReductionKey& key, uint32_t member)
{
    const Reduction& r = m_reductions.at(key);
    const int64_t at = std::max(r.downArrivedPs[member], r.resultFloorPs[member]);
    Simulator::Schedule(PicoSeconds(at) - Simulator::Now(),
                        [this, key, member]()
                        {
                            auto it = m_reductions.find(key);
                            NS_ABORT_MSG_IF(it == m_reductions.end(),
                                            "a result of a reduction not under way");
                            Reduction& r = it->second;
                            const Contribution c = r.contributions[member];
                            const ContributionCallback done = r.done[member];
                            if (++r.finished == key.second.size())
                            {
                                m_reductions.erase(it);
                            }
                            if (done)
                            {
                                done(c);
                            }
                        });
}

} // namespace ns3
