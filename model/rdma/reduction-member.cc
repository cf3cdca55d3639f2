/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "reduction-member.h"

#include "ns3/in-network-flag.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReductionMember");
NS_OBJECT_ENSURE_REGISTERED(ReductionMember);

TypeId
ReductionMember::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ReductionMember")
                            .SetParent<Object>()
                            .SetGroupName("Mlfabric")
                            .AddConstructor<ReductionMember>();
    return tid;
}

namespace
{
/** Members alive: while there are none, NICs skip asking for one. */
uint64_t g_members = 0;
} // namespace

ReductionMember::ReductionMember()
{
    ++g_members;
}

ReductionMember::~ReductionMember()
{
    --g_members;
}

bool
ReductionMember::InUse()
{
    return g_members > 0;
}

void
ReductionMember::Attach(uint32_t nodeId, const std::vector<Ptr<RocePort>>& ports)
{
    m_node = nodeId;
    m_ports = ports;
}

void
ReductionMember::DoDispose()
{
    m_ports.clear();
    m_reductions.clear();
    Object::DoDispose();
}

ReductionMember::Reduction&
ReductionMember::Find(uint64_t id)
{
    auto it = m_reductions.find(id);
    NS_ABORT_MSG_IF(it == m_reductions.end(),
                    "node " << m_node << ": reduction " << id << " was not joined");
    return it->second;
}

void
ReductionMember::Join(Spec spec)
{
    NS_LOG_FUNCTION(this << spec.id << spec.port << spec.bytes);
    NS_ABORT_MSG_IF(spec.port >= m_ports.size() || spec.chunkBytes == 0 ||
                        spec.index >= spec.members,
                    "node " << m_node << ": reduction " << spec.id << " on port " << spec.port
                            << " as member " << spec.index << " of " << spec.members);
    NS_ABORT_MSG_IF(m_reductions.count(spec.id),
                    "node " << m_node << ": reduction " << spec.id << " joined twice");
    Reduction r;
    r.layout = {spec.op, spec.members, spec.bytes, spec.chunkBytes};
    r.toSend = r.layout.GetSentChunkCount(spec.index);
    r.got.assign(r.layout.GetChunkCount(), false);
    r.limit = spec.limit;
    r.spec = std::move(spec);
    m_reductions.emplace(r.spec.id, std::move(r));
}

void
ReductionMember::Start(uint64_t id)
{
    Reduction& r = Find(id);
    r.started = true;
    m_ports[r.spec.port]->NotifyWork();
    FinishIfDone(id);
}

bool
ReductionMember::Ready(const Reduction& r)
{
    return r.started && r.next < r.toSend && r.layout.GetSentChunk(r.spec.index, r.next) < r.limit;
}

bool
ReductionMember::HasReady(uint32_t port) const
{
    for (const auto& [id, r] : m_reductions)
    {
        if (r.spec.port == port && Ready(r))
        {
            return true;
        }
    }
    return false;
}

bool
ReductionMember::Dequeue(RocePort& port, RoceFrame& frame)
{
    const uint32_t index = port.GetOwnerIndex();
    for (auto& [id, r] : m_reductions)
    {
        if (r.spec.port != index || !Ready(r) || !port.CanSend(r.spec.priority))
        {
            continue;
        }
        const uint64_t chunk = r.layout.GetSentChunk(r.spec.index, r.next++);
        const uint32_t payload = r.layout.GetChunkSize(chunk);
        frame.header = MakeRoceHeader();
        RoceHeader& h = *frame.header;
        h.type = RoceHeader::DATA;
        h.flags = kInNetworkFlag;
        if (r.next == r.toSend)
        {
            h.Set(RoceHeader::LAST);
            // An all-gather member may have its result already: it is done once its
            // last chunk is on the wire, after the port has taken this frame.
            Simulator::ScheduleNow(
                [this, id = id]()
                {
                    if (m_reductions.count(id))
                    {
                        FinishIfDone(id);
                    }
                });
        }
        h.priority = r.spec.priority;
        h.src = m_node;
        h.dst = r.spec.switchNode;
        h.seq = chunk;
        h.payload = payload;
        h.imm = id;
        h.timestampPs = Simulator::Now().GetPicoSeconds();
        frame.wireBytes = h.GetWireBytes();
        frame.priority = r.spec.priority;
        frame.payload = payload;
        ++m_chunksSent;
        m_payloadSent += payload;
        return true;
    }
    return false;
}

void
ReductionMember::ReceiveGrant(const RoceHeader& h)
{
    Reduction& r = Find(h.imm);
    if (h.seq > r.limit)
    {
        r.limit = h.seq;
        m_ports[r.spec.port]->NotifyWork();
    }
}

void
ReductionMember::ReceiveResult(const RoceHeader& h)
{
    Reduction& r = Find(h.imm);
    NS_ABORT_MSG_IF(h.seq >= r.got.size() || r.got[h.seq] ||
                        !r.layout.Receives(r.spec.index, h.seq),
                    "node " << m_node << ": reduction " << h.imm << ": result chunk " << h.seq
                            << " arrived twice, out of range or for another member");
    r.got[h.seq] = true;
    r.gotBytes += h.payload;
    m_resultBytes += h.payload;
    FinishIfDone(h.imm);
}

void
ReductionMember::FinishIfDone(uint64_t id)
{
    Reduction& r = Find(id);
    const uint64_t result = r.layout.GetResultBytes(r.spec.index);
    const bool received = r.gotBytes >= result;
    // A reduction's result needs every contribution, this member's among them; an
    // all-gather's other shards need none of it.
    NS_ABORT_MSG_IF(received && result > 0 && r.next < r.toSend &&
                        r.spec.op != ReductionOp::AllGather,
                    "node " << m_node << ": reduction " << id
                            << ": the whole result before this member's contribution");
    if (!r.started || !received || r.next < r.toSend)
    {
        return;
    }
    auto done = std::move(r.spec.done);
    m_reductions.erase(id);
    if (done)
    {
        done();
    }
}

uint64_t
ReductionMember::GetChunksSent() const
{
    return m_chunksSent;
}

uint64_t
ReductionMember::GetResultBytes() const
{
    return m_resultBytes;
}

uint64_t
ReductionMember::GetPayloadSent() const
{
    return m_payloadSent;
}

} // namespace ns3
