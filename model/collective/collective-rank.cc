/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-rank.h"

#include "ns3/abort.h"
#include "ns3/collective-phase-factory.h"
#include "ns3/collective-tag.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveRank");

/** PhaseIo of one phase of one chunk: tags its messages and timers. */
class CollectiveRank::Io : public PhaseIo
{
  public:
    Io(CollectiveRank& rank, uint32_t id, uint32_t chunk, const Collective& c)
        : m_rank(rank)
        , m_topology(c.plan->TopologyOf(chunk))
        , m_dimension(c.plan->phases[c.chunks[chunk].phase].dimension)
        , m_tag(CollectiveTag{id, chunk, c.chunks[chunk].phase}.Encode())
    {
    }

    void
    Send(uint32_t peer, uint64_t bytes) override
    {
        const uint32_t dst = m_topology.RankAt(m_rank.m_rank, m_dimension, peer);
        m_rank.m_output.SendMessage(m_rank.m_rank, dst, bytes, m_tag);
    }

    void
    Wait(uint64_t delayNs) override
    {
        m_rank.m_output.StartTimer(m_rank.m_rank, delayNs, m_tag);
    }

    void
    ReduceInSwitch(uint64_t bytes, NetworkBackend::InSwitchOp op) override
    {
        const uint32_t size = m_topology.GetSize(m_dimension);
        std::vector<uint32_t> members;
        members.reserve(size);
        for (uint32_t i = 0; i < size; ++i)
        {
            members.push_back(m_topology.RankAt(m_rank.m_rank, m_dimension, i));
        }
        std::sort(members.begin(), members.end());
        m_rank.m_output.ReduceInSwitch(m_rank.m_rank, members, bytes, m_tag, op);
    }

  private:
    CollectiveRank& m_rank;
    const CollectiveTopology& m_topology;
    uint32_t m_dimension;
    uint64_t m_tag;
};

void
CollectiveRank::Output::ReduceInSwitch(uint32_t rank,
                                       const std::vector<uint32_t>& members,
                                       uint64_t,
                                       uint64_t,
                                       NetworkBackend::InSwitchOp)
{
    throw InputError("rank " + std::to_string(rank) + ": an in-network reduction over " +
                     std::to_string(members.size()) +
                     " ranks needs a network with a reduction switch");
}

CollectiveRank::CollectiveRank(uint32_t rank, const SystemConfig& config, Output& output)
    : m_rank(rank)
    , m_output(output)
    , m_policy(config.schedulingPolicy)
    , m_queuesPerDimension(std::max<uint32_t>(1, config.queuesPerDimension))
    , m_slotsPerQueue(std::max<uint32_t>(
          1, (config.activeChunksPerDimension + m_queuesPerDimension - 1) / m_queuesPerDimension))
    , m_localMemBw(config.localMemBwGBps)
{
}

void
CollectiveRank::Start(uint32_t collectiveId,
                      std::shared_ptr<const CollectivePlan> plan,
                      int64_t explicitPriority)
{
    NS_LOG_FUNCTION(this << m_rank << collectiveId);
    NS_ABORT_MSG_IF(collectiveId > CollectiveTag::kMaxCollectiveId,
                    "collective id " << collectiveId << " does not fit a tag");
    NS_ABORT_MSG_IF(m_collectives.count(collectiveId) != 0,
                    "collective " << collectiveId << " started twice on rank " << m_rank);
    if (!plan->topology->Contains(m_rank))
    {
        throw InputError("rank " + std::to_string(m_rank) + " runs " + ToString(plan->type) +
                         " of a group it does not belong to");
    }
    const uint64_t sequence = m_issued++;
    if (plan->chunkCount == 0)
    {
        m_output.CollectiveFinished(m_rank, collectiveId);
        return;
    }
    Collective& c = m_collectives[collectiveId];
    c.plan = std::move(plan);
    c.sequence = sequence;
    switch (m_policy)
    {
    case SchedulingPolicy::Lifo:
        c.priority = static_cast<int64_t>(sequence);
        break;
    case SchedulingPolicy::Fifo:
        c.priority = -static_cast<int64_t>(sequence);
        break;
    case SchedulingPolicy::Explicit:
        c.priority = explicitPriority;
        break;
    }
    c.chunks.resize(c.plan->chunkCount);
    c.chunksLeft = c.plan->chunkCount;

    auto early = m_unstarted.find(collectiveId);
    if (early != m_unstarted.end())
    {
        for (const auto& [src, tag] : early->second)
        {
            const CollectiveTag t = CollectiveTag::Decode(tag);
            c.chunks.at(t.chunk).early.push_back({t.phase, src});
        }
        m_unstarted.erase(early);
    }
    std::vector<uint64_t> queues;
    for (uint32_t chunk = 0; chunk < c.plan->chunkCount; ++chunk)
    {
        Enqueue(collectiveId, chunk);
        queues.push_back(QueueKey(c, chunk));
    }
    std::sort(queues.begin(), queues.end());
    queues.erase(std::unique(queues.begin(), queues.end()), queues.end());
    for (uint64_t key : queues)
    {
        Promote(key);
    }
}

uint64_t
CollectiveRank::QueueKey(const Collective& c, uint32_t chunk) const
{
    // A dimension's queues: first visits take the first half, second visits the second
    // half, single visits any. With one queue per dimension the second visits get a
    // queue of their own, which keeps a localBWAware all-reduce free of astra-sim#137.
    const CollectivePhaseSpec& phase = c.plan->phases[c.chunks[chunk].phase];
    const uint32_t q = m_queuesPerDimension;
    const uint32_t firstHalf = std::max<uint32_t>(1, q / 2);
    // Every channel has queues of its own: NCCL runs its channels side by side.
    const uint32_t channels = c.plan->GetChannelCount();
    const uint32_t channel = chunk % channels;
    const uint32_t inChannel = chunk / channels;
    uint64_t index = 0;
    switch (phase.queue)
    {
    case QueueClass::Shared:
        index = inChannel % q;
        break;
    case QueueClass::FirstVisit:
        index = inChannel % firstHalf;
        break;
    case QueueClass::SecondVisit:
        index = q == 1 ? 1 : firstHalf + inChannel % (q - firstHalf);
        break;
    }
    return (static_cast<uint64_t>(phase.dimension) << 32) | (static_cast<uint64_t>(channel) << 16) |
           index;
}

int32_t
CollectiveRank::Direction(const Collective& c, uint32_t chunk) const
{
    const CollectivePhaseSpec& phase = c.plan->phases[c.chunks[chunk].phase];
    switch (phase.queue)
    {
    case QueueClass::FirstVisit:
        return 1;
    case QueueClass::SecondVisit:
        return -1;
    case QueueClass::Shared:
        break;
    }
    // The upper half of a dimension's queues runs its rings the other way round.
    const uint32_t index = chunk / c.plan->GetChannelCount() % m_queuesPerDimension;
    return m_queuesPerDimension > 1 && index >= m_queuesPerDimension / 2 ? -1 : 1;
}

void
CollectiveRank::Enqueue(uint32_t id, uint32_t chunk)
{
    const Collective& c = m_collectives.at(id);
    m_queues[QueueKey(c, chunk)].waiting.emplace(-c.priority, c.sequence, chunk, id);
}

void
CollectiveRank::Promote(uint64_t queueKey)
{
    Queue& queue = m_queues[queueKey];
    while (queue.running < m_slotsPerQueue && !queue.waiting.empty())
    {
        const Waiting next = *queue.waiting.begin();
        queue.waiting.erase(queue.waiting.begin());
        ++queue.running;
        Begin(std::get<3>(next), std::get<2>(next));
    }
}

void
CollectiveRank::Begin(uint32_t id, uint32_t chunk)
{
    Collective& c = m_collectives.at(id);
    Chunk& ch = c.chunks[chunk];
    const CollectivePhaseSpec& spec = c.plan->phases[ch.phase];
    const CollectiveTopology& topology = c.plan->TopologyOf(chunk);

    PhaseContext ctx;
    ctx.spec = spec;
    ctx.index = topology.IndexOf(m_rank, spec.dimension);
    ctx.size = topology.GetSize(spec.dimension);
    ctx.direction = Direction(c, chunk);
    ctx.chunk = chunk;
    ctx.root = c.plan->root;
    ctx.handoffNs = c.plan->handoffNs;
    ctx.localMemBwBytesPerNs = m_localMemBw;
    ch.exec = CreatePhaseExecution(ctx);

    Io io(*this, id, chunk, c);
    auto it = ch.early.begin();
    while (it != ch.early.end())
    {
        if (it->phase == ch.phase)
        {
            ch.exec->Deliver(topology.IndexOf(it->src, spec.dimension), io);
            it = ch.early.erase(it);
        }
        else
        {
            ++it;
        }
    }
    ch.exec->Start(io);
    Settle(id, chunk);
}

void
CollectiveRank::Settle(uint32_t id, uint32_t chunk)
{
    auto found = m_collectives.find(id);
    if (found == m_collectives.end())
    {
        return;
    }
    Collective& c = found->second;
    Chunk& ch = c.chunks[chunk];
    if (!ch.exec || !ch.exec->IsDone())
    {
        return;
    }
    const uint64_t oldQueue = QueueKey(c, chunk);
    ch.exec.reset();
    --m_queues[oldQueue].running;
    if (++ch.phase < c.plan->phases.size())
    {
        // As ASTRA-sim: join the next queue, let the old queue start its next chunk,
        // then let the new queue start this one.
        Enqueue(id, chunk);
        const uint64_t newQueue = QueueKey(c, chunk);
        Promote(oldQueue);
        Promote(newQueue);
        return;
    }
    const bool collectiveDone = --c.chunksLeft == 0;
    if (collectiveDone)
    {
        m_collectives.erase(found);
    }
    Promote(oldQueue);
    if (collectiveDone)
    {
        m_output.CollectiveFinished(m_rank, id);
    }
}

void
CollectiveRank::Receive(uint32_t src, uint64_t tag)
{
    const CollectiveTag t = CollectiveTag::Decode(tag);
    auto found = m_collectives.find(t.collectiveId);
    if (found == m_collectives.end())
    {
        m_unstarted[t.collectiveId].emplace_back(src, tag);
        return;
    }
    Collective& c = found->second;
    NS_ABORT_MSG_IF(t.chunk >= c.chunks.size(), "message for a chunk that does not exist");
    Chunk& ch = c.chunks[t.chunk];
    NS_ABORT_MSG_IF(t.phase < ch.phase,
                    "rank " << m_rank << ": message for a finished phase of collective "
                            << t.collectiveId);
    if (t.phase > ch.phase || !ch.exec)
    {
        ch.early.push_back({t.phase, src});
        return;
    }
    Io io(*this, t.collectiveId, t.chunk, c);
    ch.exec->Deliver(c.plan->TopologyOf(t.chunk).IndexOf(src, c.plan->phases[ch.phase].dimension),
                     io);
    Settle(t.collectiveId, t.chunk);
}

void
CollectiveRank::TimerExpired(uint64_t token)
{
    const CollectiveTag t = CollectiveTag::Decode(token);
    auto found = m_collectives.find(t.collectiveId);
    if (found == m_collectives.end())
    {
        return;
    }
    Collective& c = found->second;
    Chunk& ch = c.chunks.at(t.chunk);
    if (ch.phase != t.phase || !ch.exec)
    {
        return;
    }
    Io io(*this, t.collectiveId, t.chunk, c);
    ch.exec->OnTimer(io);
    Settle(t.collectiveId, t.chunk);
}

} // namespace ns3
