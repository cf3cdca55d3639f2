/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-reduction.h"

#include "ns3/in-network-flag.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/roce-switch.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchReduction");
NS_OBJECT_ENSURE_REGISTERED(SwitchReduction);

TypeId
SwitchReduction::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SwitchReduction")
                            .SetParent<Object>()
                            .SetGroupName("Mlfabric")
                            .AddConstructor<SwitchReduction>();
    return tid;
}

void
SwitchReduction::SetSwitch(RoceSwitch* sw)
{
    m_switch = sw;
}

Ptr<ReductionEngine>
SwitchReduction::GetEngine()
{
    if (!m_engine)
    {
        m_engine = CreateObject<ReductionEngine>();
        m_engine->SetNodeId(m_switch ? m_switch->GetNodeId() : 0);
        m_engine->SetCallbacks(
            [this](uint64_t id, uint32_t member, uint64_t limit) { Grant(id, member, limit); },
            [this](uint64_t id, uint64_t chunk, uint32_t bytes) { Reduced(id, chunk, bytes); });
    }
    return m_engine;
}

void
SwitchReduction::DoDispose()
{
    if (m_engine)
    {
        m_engine->Dispose();
    }
    m_engine = nullptr;
    m_open.clear();
    m_switch = nullptr;
    Object::DoDispose();
}

uint64_t
SwitchReduction::Open(uint64_t id,
                      const std::vector<Member>& members,
                      uint64_t bytes,
                      uint32_t chunkBytes,
                      uint8_t priority,
                      ReductionOp op,
                      const Parent* parent)
{
    NS_LOG_FUNCTION(this << id << members.size() << bytes << chunkBytes);
    NS_ABORT_MSG_UNLESS(m_switch, "a switch reduction without its switch");
    if (parent && op != ReductionOp::AllReduce)
    {
        throw InputError("switch " + std::to_string(m_switch->GetNodeId()) +
                         ": in-switch reduction " + std::to_string(id) +
                         ": an aggregation tree over several switches runs all-reduce only, "
                         "not reduce-scatter or all-gather");
    }
    Reduction r;
    if (parent)
    {
        r.hasParent = true;
        r.parent = *parent;
    }
    r.members = members;
    for (uint32_t i = 0; i < members.size(); ++i)
    {
        r.byNode[members[i].node] = i;
    }
    r.layout = {op, static_cast<uint32_t>(members.size()), bytes, chunkBytes};
    r.priority = priority;
    r.chunks = chunkBytes && !members.empty() ? r.layout.GetChunkCount() : 0;
    m_open[id] = std::move(r);
    m_opening = true;
    m_openingId = id;
    m_openingLimit = 0;
    try
    {
        GetEngine()->Open({id, static_cast<uint32_t>(members.size()), bytes, chunkBytes, op});
    }
    catch (...)
    {
        m_opening = false;
        m_open.erase(id);
        throw;
    }
    m_opening = false;
    return m_openingLimit;
}

void
SwitchReduction::Receive(const RoceHeader& h)
{
    auto it = m_open.find(h.imm);
    NS_ABORT_MSG_IF(it == m_open.end(),
                    "switch " << m_switch->GetNodeId() << ": a frame of reduction " << h.imm
                              << ", which is not open, from node " << h.src);
    Reduction& r = it->second;
    if (r.hasParent && h.src == r.parent.node)
    {
        if (h.type == RoceHeader::ACK)
        {
            r.parent.limit = std::max(r.parent.limit, h.seq);
            SendUp(h.imm, r);
        }
        else
        {
            Multicast(h.imm, h.seq, h.payload); // the root's result on its way down
        }
        return;
    }
    NS_ABORT_MSG_IF(h.type != RoceHeader::DATA,
                    "switch " << m_switch->GetNodeId() << ": a grant of reduction " << h.imm
                              << " from node " << h.src << ", not its parent");
    auto member = r.byNode.find(h.src);
    NS_ABORT_MSG_IF(member == it->second.byNode.end(),
                    "switch " << m_switch->GetNodeId() << ": node " << h.src
                              << " is not a member of reduction " << h.imm);
    m_payloadReceived += h.payload;
    GetEngine()->Contribute(h.imm, member->second, h.seq);
}

uint64_t
SwitchReduction::GetPayloadReceived() const
{
    return m_payloadReceived;
}

uint64_t
SwitchReduction::GetPayloadSent() const
{
    return m_payloadSent;
}

uint64_t
SwitchReduction::GetPayloadSentUp() const
{
    return m_payloadSentUp;
}

void
SwitchReduction::Grant(uint64_t id, uint32_t member, uint64_t limit)
{
    if (m_opening && id == m_openingId)
    {
        m_openingLimit = limit;
        return;
    }
    const Reduction& r = m_open.at(id);
    RoceFrame frame;
    frame.header = MakeRoceHeader();
    RoceHeader& h = *frame.header;
    h.type = RoceHeader::ACK;
    h.flags = kInNetworkFlag;
    h.priority = r.priority;
    h.src = m_switch->GetNodeId();
    h.dst = r.members[member].node;
    h.seq = limit;
    h.imm = id;
    frame.wireBytes = h.GetWireBytes();
    frame.priority = r.priority;
    Send(r.members[member].port, std::move(frame));
}

RoceFrame
SwitchReduction::ChunkFrame(
    uint64_t id, const Reduction& r, uint64_t chunk, uint32_t bytes, uint32_t dst) const
{
    RoceFrame frame;
    frame.header = MakeRoceHeader();
    RoceHeader& h = *frame.header;
    h.type = RoceHeader::DATA;
    h.flags = kInNetworkFlag;
    if (chunk + 1 == r.chunks)
    {
        h.Set(RoceHeader::LAST);
    }
    h.priority = r.priority;
    h.src = m_switch->GetNodeId();
    h.dst = dst;
    h.seq = chunk;
    h.payload = bytes;
    h.imm = id;
    frame.wireBytes = h.GetWireBytes();
    frame.priority = r.priority;
    frame.payload = bytes;
    return frame;
}

void
SwitchReduction::Reduced(uint64_t id, uint64_t chunk, uint32_t bytes)
{
    Reduction& r = m_open.at(id);
    if (!r.hasParent)
    {
        Multicast(id, chunk, bytes);
        return;
    }
    r.reducedToSend.emplace_back(chunk, bytes);
    SendUp(id, r);
}

void
SwitchReduction::SendUp(uint64_t id, Reduction& r)
{
    while (!r.reducedToSend.empty() && r.reducedToSend.front().first < r.parent.limit)
    {
        const auto [chunk, bytes] = r.reducedToSend.front();
        r.reducedToSend.pop_front();
        m_payloadSentUp += bytes;
        Send(r.parent.port, ChunkFrame(id, r, chunk, bytes, r.parent.node));
    }
}

void
SwitchReduction::Multicast(uint64_t id, uint64_t chunk, uint32_t bytes)
{
    Reduction& r = m_open.at(id);
    r.copiesLeft[chunk] = r.layout.GetRecipientCount(chunk);
    for (uint32_t i = 0; i < r.members.size(); ++i)
    {
        if (!r.layout.Receives(i, chunk))
        {
            continue;
        }
        const Member& m = r.members[i];
        m_payloadSent += bytes;
        Send(m.port, ChunkFrame(id, r, chunk, bytes, m.node));
    }
}

void
SwitchReduction::Left(const RoceHeader& h)
{
    if (h.type != RoceHeader::DATA)
    {
        return; // a grant holds no buffer
    }
    auto it = m_open.find(h.imm);
    NS_ABORT_MSG_IF(it == m_open.end(), "a result of reduction " << h.imm << ", not open");
    Reduction& r = it->second;
    if (r.hasParent && h.dst == r.parent.node)
    {
        return; // a partial sum going up: its chunk stays held until the result is down
    }
    auto copies = r.copiesLeft.find(h.seq);
    NS_ABORT_MSG_IF(copies == r.copiesLeft.end(), "an unknown result chunk " << h.seq);
    if (--copies->second > 0)
    {
        return;
    }
    r.copiesLeft.erase(copies);
    if (++r.delivered == r.chunks)
    {
        m_open.erase(it); // before the engine may admit a waiting reduction
    }
    // The port is handing this frame to its wire: the grants the freed chunk releases
    // are queued once it has.
    Simulator::ScheduleNow(&ReductionEngine::Delivered, GetEngine(), h.imm, h.seq);
}

void
SwitchReduction::Send(uint32_t port, RoceFrame&& frame)
{
    m_switch->SendEngineFrame(port, std::move(frame));
}

} // namespace ns3
