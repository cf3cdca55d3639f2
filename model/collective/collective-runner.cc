/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-runner.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveRunner");

CollectiveRunner::CollectiveRunner(Ptr<NetworkBackend> backend, const SystemConfig& config)
    : m_backend(backend)
    , m_config(config)
{
    const uint32_t n = m_backend->GetRankCount();
    m_ranks.resize(n);
    m_bytesSent.assign(n, 0);
    m_bytesReceived.assign(n, 0);
}

void
CollectiveRunner::SetFinishedCallback(FinishedCallback callback)
{
    m_finished = std::move(callback);
}

CollectiveRank&
CollectiveRunner::RankAt(uint32_t rank)
{
    if (rank >= m_ranks.size())
    {
        throw InputError("rank " + std::to_string(rank) + " is outside a network of " +
                         std::to_string(m_ranks.size()) + " NPUs");
    }
    if (!m_ranks[rank])
    {
        m_ranks[rank] = std::make_unique<CollectiveRank>(rank, m_config, *this);
    }
    return *m_ranks[rank];
}

void
CollectiveRunner::Start(uint32_t rank,
                        uint32_t collectiveId,
                        std::shared_ptr<const CollectivePlan> plan,
                        int64_t explicitPriority)
{
    RankAt(rank).Start(collectiveId, std::move(plan), explicitPriority);
}

void
CollectiveRunner::SendMessage(uint32_t src, uint32_t dst, uint64_t bytes, uint64_t tag)
{
    m_bytesSent[src] += bytes;
    ++m_messages;
    NetworkBackend::Message message{src, dst, bytes, tag};
    m_backend->Send(message, nullptr, [this](const NetworkBackend::Message& m) { Arrive(m); });
}

void
CollectiveRunner::Arrive(const NetworkBackend::Message& message)
{
    m_bytesReceived[message.dst] += message.bytes;
    RankAt(message.dst).Receive(message.src, message.tag);
}

void
CollectiveRunner::ReduceInSwitch(uint32_t rank,
                                 const std::vector<uint32_t>& members,
                                 uint64_t bytes,
                                 uint64_t tag,
                                 NetworkBackend::InSwitchOp op)
{
    // The data crosses the rank's link up once and its result down once.
    m_bytesSent[rank] += bytes;
    ++m_messages;
    NetworkBackend::Contribution contribution;
    contribution.rank = rank;
    contribution.members = std::make_shared<const std::vector<uint32_t>>(members);
    contribution.bytes = bytes;
    contribution.tag = tag;
    contribution.op = op;
    m_backend->ReduceInSwitch(contribution,
                              [this](const NetworkBackend::Contribution& c)
                              {
                                  m_bytesReceived[c.rank] += NetworkBackend::ResultBytes(c);
                                  RankAt(c.rank).Receive(c.rank, c.tag);
                              });
}

void
CollectiveRunner::StartTimer(uint32_t rank, uint64_t delayNs, uint64_t token)
{
    // Two words, which std::function holds without an allocation of its own; a rank, once
    // made, lives as long as the runner.
    CollectiveRank* expiring = &RankAt(rank);
    m_backend->Schedule(NanoSeconds(delayNs),
                        [expiring, token]() { expiring->TimerExpired(token); });
}

void
CollectiveRunner::CollectiveFinished(uint32_t rank, uint32_t collectiveId)
{
    NS_LOG_FUNCTION(this << rank << collectiveId);
    if (m_finished)
    {
        m_finished(rank, collectiveId);
    }
}

} // namespace ns3
