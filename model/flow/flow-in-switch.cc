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

uint32_t
FlowBackend::ReductionSwitch(const std::vector<uint32_t>& members) const
{
    return ReductionSwitchOf(*m_fabric,
                             members,
                             [this](uint32_t from, uint32_t to)
                             { return m_router->DataPath(from, to, 0, 0).front(); });
}

uint32_t
FlowBackend::HopQueuePair(uint32_t rank, uint32_t sw, bool up)
{
    const uint32_t npu = m_fabric->GetNpuNode(rank);
    const std::pair<uint32_t, uint32_t> ends =
        up ? std::make_pair(npu, sw) : std::make_pair(sw, npu);
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
    qp.inSwitch = up ? 1 : -1;
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
    NS_LOG_INFO("queue pair " << id << ": rank " << rank << (up ? " up to" : " down from")
                              << " switch " << sw);
    return id;
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
        r.switchNode = ReductionSwitch(members);
        r.bytes = c.bytes;
        r.resultBytes = ResultBytes(c);
        r.reducedBytes = ReducedBytes(c);
        r.contributions.resize(members.size());
        r.done.resize(members.size());
        r.contributed.assign(members.size(), false);
        r.downArrivedPs.assign(members.size(), -1);
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
    ++r.contributedCount;
    const uint32_t up = HopQueuePair(c.rank, r.switchNode, true);
    const int64_t now = Simulator::Now().GetPicoSeconds();
    r.firstChunksPs = std::max(r.firstChunksPs, now + ChunkPs(m_qps[up]));
    if (!m_bufferChecked)
    {
        m_bufferChecked = true;
        WarnIfBufferLimits(up);
    }
    Enqueue(up,
            Pending{{c.rank, c.rank, c.bytes, c.tag},
                    nullptr,
                    [this, key](const Message&) { OnUpArrived(key); },
                    0});
    if (r.contributedCount == members.size())
    {
        int64_t start = r.firstChunksPs + m_reductionLatency.GetPicoSeconds();
        if (m_reductionBps > 0 && r.reducedBytes > 0)
        {
            const QueuePair& qp = m_qps[up];
            start += static_cast<int64_t>(qp.wire->GetMtu() * 8e12 /
                                          static_cast<double>(m_reductionBps));
        }
        Simulator::Schedule(PicoSeconds(start - now), [this, key]() { StartResults(key); });
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
        std::cerr << "warning: flow backend: the reduction buffer of " << m_reductionBufferBytes
                  << " B (ns3::ReductionEngine::BufferBytes) bounds a "
                  << "member's in-switch reduction at about " << windowBps / 1e9
                  << " Gb/s over the round trip to the switch, below the link's "
                  << static_cast<double>(rate) / 1e9
                  << " Gb/s; the packet level holds senders to that window, the flow level "
                     "does not"
                  << std::endl;
    }
}

void
FlowBackend::StartResults(const ReductionKey& key)
{
    Reduction& r = m_reductions.at(key);
    const std::vector<uint32_t>& members = key.second;
    for (uint32_t i = 0; i < members.size(); ++i)
    {
        const uint32_t down = HopQueuePair(members[i], r.switchNode, false);
        Enqueue(down,
                Pending{{members[i], members[i], r.resultBytes, key.first},
                        nullptr,
                        [this, key, i](const Message&) { OnDownArrived(key, i); },
                        0});
    }
}

void
FlowBackend::OnUpArrived(const ReductionKey& key)
{
    Reduction& r = m_reductions.at(key);
    if (++r.upCount < key.second.size())
    {
        return;
    }
    // The last chunk is in: reduced, then one chunk's way down.
    int64_t floor = Simulator::Now().GetPicoSeconds() + m_reductionLatency.GetPicoSeconds();
    const uint32_t down = HopQueuePair(key.second.front(), r.switchNode, false);
    floor += ChunkPs(m_qps[down]);
    if (m_reductionBps > 0 && r.reducedBytes > 0)
    {
        // Every chunk of the result passes the engine after the first chunks were in.
        floor =
            std::max<int64_t>(floor,
                              r.firstChunksPs + m_reductionLatency.GetPicoSeconds() +
                                  static_cast<int64_t>(static_cast<double>(r.reducedBytes) * 8e12 /
                                                       static_cast<double>(m_reductionBps)) +
                                  ChunkPs(m_qps[down]));
    }
    r.resultFloorPs = floor;
    for (uint32_t i = 0; i < key.second.size(); ++i)
    {
        if (r.downArrivedPs[i] >= 0)
        {
            FinishMember(key, i);
        }
    }
}

void
FlowBackend::OnDownArrived(const ReductionKey& key, uint32_t member)
{
    Reduction& r = m_reductions.at(key);
    r.downArrivedPs[member] = Simulator::Now().GetPicoSeconds();
    if (r.resultFloorPs >= 0)
    {
        FinishMember(key, member);
    }
}

void
FlowBackend::FinishMember(const ReductionKey& key, uint32_t member)
{
    const Reduction& r = m_reductions.at(key);
    const int64_t at = std::max(r.downArrivedPs[member], r.resultFloorPs);
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
