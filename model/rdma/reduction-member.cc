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
    NS_ABORT_MSG_IF(spec.port >= m_ports.size() || spec.chunkBytes == 0,
                    "node " << m_node << ": reduction " << spec.id << " on port " << spec.port);
    NS_ABORT_MSG_IF(m_reductions.count(spec.id),
                    "node " << m_node << ": reduction " << spec.id << " joined twice");
    Reduction r;
    r.chunks = (spec.bytes + spec.chunkBytes - 1) / spec.chunkBytes;
    r.got.assign(r.chunks, false);
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
}

bool
ReductionMember::Ready(const Reduction& r)
{
    return r.started && r.next < std::min(r.limit, r.chunks);
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
        const uint64_t chunk = r.next++;
        const auto payload = static_cast<uint32_t>(
            std::min<uint64_t>(r.spec.chunkBytes, r.spec.bytes - chunk * r.spec.chunkBytes));
        frame.header = MakeRoceHeader();
        RoceHeader& h = *frame.header;
        h.type = RoceHeader::DATA;
        h.flags = kInNetworkFlag;
        if (r.next == r.chunks)
        {
            h.Set(RoceHeader::LAST);
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
    NS_ABORT_MSG_IF(h.seq >= r.chunks || r.got[h.seq],
                    "node " << m_node << ": reduction " << h.imm << ": result chunk " << h.seq
                            << " arrived twice or out of range");
    r.got[h.seq] = true;
    r.gotBytes += h.payload;
    m_resultBytes += h.payload;
    if (r.gotBytes < r.spec.bytes)
    {
        return;
    }
    NS_ABORT_MSG_IF(!r.started, "node " << m_node << ": a result before its contribution");
    auto done = std::move(r.spec.done);
    m_reductions.erase(h.imm);
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
