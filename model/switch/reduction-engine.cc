/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "reduction-engine.h"

#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReductionEngine");
NS_OBJECT_ENSURE_REGISTERED(ReductionEngine);

TypeId
ReductionEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ReductionEngine")
            .SetParent<Object>()
            .SetGroupName("Mlfabric")
            .AddConstructor<ReductionEngine>()
            .AddAttribute("BufferBytes",
                          "Bytes of partial sums the engine holds at once, shared by the "
                          "reductions under way; it bounds every member's window of "
                          "outstanding chunks. Default 8 MiB, a round figure: set the "
                          "switch's own. 0 is refused when a reduction opens.",
                          UintegerValue(8 * 1024 * 1024),
                          MakeUintegerAccessor(&ReductionEngine::m_bufferBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("WindowBytes",
                          "Most bytes of the buffer one reduction reserves for its window, as "
                          "SHARP gives each group a quota of outstanding operations, so that "
                          "reductions under way at once share the buffer instead of the "
                          "first taking all of it; 0: the whole free buffer. Default 1 MiB, a "
                          "round figure above the round trip of a 400 Gb/s link's 20 us.",
                          UintegerValue(1024 * 1024),
                          MakeUintegerAccessor(&ReductionEngine::m_windowBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("ReductionRate",
                          "Rate at which the engine reduces a complete chunk (result "
                          "bytes); 0 bps: no limit beyond the links'",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&ReductionEngine::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("Latency",
                          "Time from a chunk's reduction to its result being ready to go "
                          "down",
                          TimeValue(NanoSeconds(0)),
                          MakeTimeAccessor(&ReductionEngine::m_latency),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("HeldBytes",
                            "Bytes of partial sums held, after every change",
                            MakeTraceSourceAccessor(&ReductionEngine::m_heldTrace),
                            "ns3::ReductionEngine::HeldBytesCallback");
    return tid;
}

void
ReductionEngine::SetNodeId(uint32_t node)
{
    m_node = node;
}

void
ReductionEngine::SetCallbacks(GrantCallback grant, ResultCallback result)
{
    m_grant = std::move(grant);
    m_result = std::move(result);
}

void
ReductionEngine::DoDispose()
{
    m_grant = nullptr;
    m_result = nullptr;
    m_open.clear();
    m_waiting.clear();
    m_readyToAdd.clear();
    Object::DoDispose();
}

ReductionEngine::Reduction&
ReductionEngine::Find(uint64_t id)
{
    auto it = m_open.find(id);
    NS_ABORT_MSG_IF(it == m_open.end(),
                    "switch " << m_node << ": reduction " << id << " is not open");
    return it->second;
}

void
ReductionEngine::Open(const Spec& spec)
{
    NS_LOG_FUNCTION(this << spec.id << spec.members << spec.bytes << spec.chunkBytes);
    const std::string who = "switch " + std::to_string(m_node) + ": in-switch reduction " +
                            std::to_string(spec.id) + ": ";
    if (m_bufferBytes == 0)
    {
        throw InputError(who + "the reduction buffer (ReductionEngine::BufferBytes) is 0 bytes");
    }
    const uint32_t fewest = spec.op == ReductionOp::AllReduce ? 1 : 2;
    if (spec.members < fewest || spec.bytes == 0 || spec.chunkBytes == 0)
    {
        throw InputError(who + "needs " + (fewest == 1 ? "members" : "2 members or more") +
                         ", bytes and a chunk size, got " + std::to_string(spec.members) +
                         " members, " + std::to_string(spec.bytes) + " bytes, chunks of " +
                         std::to_string(spec.chunkBytes) + " bytes");
    }
    if (spec.chunkBytes > m_bufferBytes)
    {
        throw InputError(who + "a chunk of " + std::to_string(spec.chunkBytes) +
                         " bytes does not fit the reduction buffer of " +
                         std::to_string(m_bufferBytes) + " bytes");
    }
    if (m_open.count(spec.id))
    {
        throw InputError(who + "opened twice");
    }
    Reduction r;
    r.spec = spec;
    r.layout = {spec.op, spec.members, spec.bytes, spec.chunkBytes};
    r.chunks = r.layout.GetChunkCount();
    r.sent.assign(spec.members, 0);
    m_open.emplace(spec.id, std::move(r));
    m_waiting.push_back(spec.id);
    AdmitWaiting();
}

void
ReductionEngine::AdmitWaiting()
{
    while (!m_waiting.empty())
    {
        Reduction& r = Find(m_waiting.front());
        const uint64_t fits = (m_bufferBytes - m_reserved) / r.spec.chunkBytes;
        if (fits == 0)
        {
            return; // in order: a later, smaller reduction does not overtake
        }
        const uint64_t quota =
            m_windowBytes > 0 ? std::max<uint64_t>(1, m_windowBytes / r.spec.chunkBytes) : fits;
        r.window = std::min({fits, quota, r.chunks});
        m_reserved += r.window * r.spec.chunkBytes;
        m_waiting.pop_front();
        NS_LOG_LOGIC("reduction " << r.spec.id << ": window of " << r.window << " chunks");
        GrantAll(r);
    }
}

void
ReductionEngine::GrantAll(Reduction& r)
{
    const uint64_t limit = std::min(r.chunks, r.freed + r.window);
    // Credit goes back a quarter window at a time (the last chunks at once), so that
    // grants take little of the links down.
    const uint64_t batch = std::max<uint64_t>(1, r.window / 4);
    if (limit <= r.granted || (limit < r.chunks && limit - r.granted < batch))
    {
        return;
    }
    r.granted = limit;
    for (uint32_t m = 0; m < r.spec.members; ++m)
    {
        if (m_grant)
        {
            m_grant(r.spec.id, m, limit);
        }
    }
}

void
ReductionEngine::Contribute(uint64_t id, uint32_t member, uint64_t chunk)
{
    NS_LOG_FUNCTION(this << id << member << chunk);
    Reduction& r = Find(id);
    NS_ABORT_MSG_IF(member >= r.spec.members,
                    "switch " << m_node << ": reduction " << id << " has no member " << member);
    NS_ABORT_MSG_IF(r.sent[member] >= r.layout.GetSentChunkCount(member) ||
                        chunk != r.layout.GetSentChunk(member, r.sent[member]),
                    "switch " << m_node << ": reduction " << id << ": member " << member
                              << " sent chunk " << chunk << " where its chunk number "
                              << r.sent[member]
                              << " was due (the transport must be reliable and in order)");
    NS_ABORT_MSG_IF(chunk >= std::min(r.chunks, r.freed + r.window),
                    "switch " << m_node << ": reduction " << id << ": member " << member
                              << " sent chunk " << chunk << " beyond its credit");
    ++r.sent[member];
    const uint64_t slot = chunk - r.freed;
    while (r.counts.size() <= slot)
    {
        r.counts.push_back(0);
        r.queuedForReduce.push_back(false);
    }
    if (r.counts[slot]++ == 0)
    {
        m_held += r.layout.GetChunkSize(chunk);
        m_peak = std::max(m_peak, m_held);
        NS_ASSERT_MSG(m_held <= m_reserved, "partial sums beyond the windows granted");
        m_heldTrace(m_held);
    }
    if (r.counts[slot] == r.layout.GetContributorCount(chunk))
    {
        r.queuedForReduce[slot] = true;
        Complete(id, chunk);
    }
}

void
ReductionEngine::Complete(uint64_t id, uint64_t chunk)
{
    Reduction& r = Find(id);
    if (r.spec.op == ReductionOp::AllGather)
    {
        // One contribution: nothing to add, the switch replicates it.
        ScheduleResult(id, chunk, r.layout.GetChunkSize(chunk));
        return;
    }
    m_readyToAdd.emplace_back(id, chunk);
    StartReduce();
}

void
ReductionEngine::ScheduleResult(uint64_t id, uint64_t chunk, uint32_t bytes)
{
    Simulator::Schedule(m_latency,
                        [this, id, chunk, bytes]()
                        {
                            if (m_result)
                            {
                                m_result(id, chunk, bytes);
                            }
                        });
}

void
ReductionEngine::StartReduce()
{
    if (m_adding || m_readyToAdd.empty())
    {
        return;
    }
    const auto [id, chunk] = m_readyToAdd.front();
    m_readyToAdd.pop_front();
    Reduction& r = Find(id);
    const uint32_t bytes = r.layout.GetChunkSize(chunk);
    const Time busy = m_rate.GetBitRate() > 0 ? m_rate.CalculateBytesTxTime(bytes) : Time(0);
    m_adding = true;
    Simulator::Schedule(busy, &ReductionEngine::FinishReduce, this, id, chunk);
}

void
ReductionEngine::FinishReduce(uint64_t id, uint64_t chunk)
{
    m_adding = false;
    Reduction& r = Find(id);
    ++r.reduced;
    ++m_reducedChunks;
    ScheduleResult(id, chunk, r.layout.GetChunkSize(chunk));
    StartReduce();
}

void
ReductionEngine::Delivered(uint64_t id, uint64_t chunk)
{
    NS_LOG_FUNCTION(this << id << chunk);
    Reduction& r = Find(id);
    NS_ABORT_MSG_IF(chunk < r.freed || chunk - r.freed >= r.counts.size() ||
                        !r.queuedForReduce[chunk - r.freed],
                    "switch " << m_node << ": reduction " << id << ": chunk " << chunk
                              << " delivered twice, or before it was complete");
    const uint64_t slot = chunk - r.freed;
    NS_ABORT_MSG_IF(r.counts[slot] == 0,
                    "switch " << m_node << ": reduction " << id << ": chunk " << chunk
                              << " delivered twice");
    r.counts[slot] = 0; // freed; the prefix of freed chunks leaves the window below
    m_held -= r.layout.GetChunkSize(chunk);
    m_heldTrace(m_held);
    const uint64_t before = r.freed;
    while (!r.counts.empty() && r.counts.front() == 0 && r.queuedForReduce.front())
    {
        r.counts.pop_front();
        r.queuedForReduce.pop_front();
        ++r.freed;
    }
    if (r.freed == r.chunks)
    {
        NS_LOG_LOGIC("reduction " << id << " closed");
        m_reserved -= r.window * r.spec.chunkBytes;
        m_open.erase(id);
        AdmitWaiting();
        return;
    }
    if (r.freed != before)
    {
        GrantAll(r);
    }
}

uint64_t
ReductionEngine::GetWindow(uint64_t id) const
{
    auto it = m_open.find(id);
    return it == m_open.end() ? 0 : it->second.window;
}

uint64_t
ReductionEngine::GetHeldBytes() const
{
    return m_held;
}

uint64_t
ReductionEngine::GetPeakHeldBytes() const
{
    return m_peak;
}

uint64_t
ReductionEngine::GetReducedChunks() const
{
    return m_reducedChunks;
}

size_t
ReductionEngine::GetOpenCount() const
{
    return m_open.size();
}

uint64_t
ReductionEngine::GetBufferBytes() const
{
    return m_bufferBytes;
}

} // namespace ns3
