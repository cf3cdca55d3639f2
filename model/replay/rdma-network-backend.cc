/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-network-backend.h"

#include "ns3/boolean.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNetworkBackend");
NS_OBJECT_ENSURE_REGISTERED(RdmaNetworkBackend);

TypeId
RdmaNetworkBackend::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNetworkBackend")
            .SetParent<NetworkBackend>()
            .SetGroupName("Mlfabric")
            .AddConstructor<RdmaNetworkBackend>()
            .AddAttribute("QpPerMessage",
                          "Open a new queue pair for every message (ASTRA-sim's ns-3 "
                          "backend) instead of one per rank pair",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaNetworkBackend::m_qpPerMessage),
                          MakeBooleanChecker())
            .AddAttribute("Priority",
                          "Traffic class of workload messages",
                          UintegerValue(3),
                          MakeUintegerAccessor(&RdmaNetworkBackend::m_priority),
                          MakeUintegerChecker<uint8_t>(0, 6));
    return tid;
}

void
RdmaNetworkBackend::Attach(const std::vector<Ptr<RdmaNic>>& nics, Connector connect)
{
    m_nics = nics;
    m_connect = std::move(connect);
    for (uint32_t rank = 0; rank < nics.size(); ++rank)
    {
        m_rankOf[nics[rank]->GetNodeId()] = rank;
        nics[rank]->TraceConnectWithoutContext(
            "MessageSent",
            Callback<void, Ptr<RdmaQueuePair>, uint64_t, uint64_t, uint64_t, Time>(
                [this](Ptr<RdmaQueuePair> qp, uint64_t messageId, uint64_t tag, uint64_t, Time)
                {
                    if (m_remoteArrived)
                    {
                        OnSentOnQueuePair(PeekPointer(qp), messageId);
                        return;
                    }
                    OnSent(tag);
                }));
        nics[rank]->TraceConnectWithoutContext(
            "MessageReceived",
            Callback<void, uint32_t, uint32_t, uint64_t, uint64_t>(
                [this, rank](uint32_t srcNode, uint32_t, uint64_t tag, uint64_t bytes)
                {
                    if (m_remoteArrived)
                    {
                        OnArrivedFromWire(rank, srcNode, tag, bytes);
                        return;
                    }
                    OnArrived(tag);
                }));
    }
}

void
RdmaNetworkBackend::ConnectEveryPair()
{
    Message pair;
    for (pair.src = 0; pair.src < m_nics.size(); ++pair.src)
    {
        for (pair.dst = 0; pair.dst < m_nics.size(); ++pair.dst)
        {
            Reserve(pair);
        }
    }
}

void
RdmaNetworkBackend::SetProcessRanks(std::vector<bool> local, MessageCallback arrived)
{
    NS_ABORT_MSG_IF(local.size() != m_nics.size() || !arrived,
                    "SetProcessRanks needs a flag per rank and a handler");
    NS_ABORT_MSG_IF(m_qpPerMessage, "queue pairs per message cannot be matched across processes");
    m_local = std::move(local);
    m_remoteArrived = std::move(arrived);
}

uint32_t
RdmaNetworkBackend::GetRankCount() const
{
    return static_cast<uint32_t>(m_nics.size());
}

uint64_t
RdmaNetworkBackend::GetDeliveredBytes() const
{
    uint64_t bytes = 0;
    for (const Ptr<RdmaNic>& nic : m_nics)
    {
        bytes += nic->GetCounters().deliveredBytes;
    }
    return bytes;
}

void
RdmaNetworkBackend::DoDispose()
{
    m_qps.clear();
    m_pending.clear();
    m_byQueuePair.clear();
    m_remoteArrived = nullptr;
    m_reductions.Clear();
    m_nics.clear();
    m_connect = nullptr;
    NetworkBackend::DoDispose();
}

uint64_t
RdmaNetworkBackend::GetPendingCount() const
{
    return m_pending.size();
}

Ptr<RdmaQueuePair>
RdmaNetworkBackend::QueuePairFor(const Message& message)
{
    if (m_qpPerMessage)
    {
        return m_connect(message.src, message.dst, m_priority);
    }
    auto& qp = m_qps[{message.src, message.dst}];
    if (!qp)
    {
        qp = m_connect(message.src, message.dst, m_priority);
    }
    return qp;
}

void
RdmaNetworkBackend::Send(const Message& message, MessageCallback sent, MessageCallback arrived)
{
    if (CompletesWithoutNetwork(message, sent, arrived))
    {
        return;
    }
    const uint64_t id = m_nextId++;
    Ptr<RdmaQueuePair> qp = QueuePairFor(message);
    if (!m_remoteArrived)
    {
        m_pending.emplace(id, Pending{message, std::move(sent), std::move(arrived)});
        m_nics[message.src]->PostSend(qp, message.bytes, id);
        return;
    }
    NS_ABORT_MSG_IF(!m_local[message.src],
                    "rank " << message.src << " sends from another process's NPU");
    // The receiver hears of it through m_remoteArrived, on its own process.
    Pending pending{message, std::move(sent), nullptr};
    pending.hasArrived = true;
    m_pending.emplace(id, std::move(pending));
    const uint64_t messageId = m_nics[message.src]->PostSend(qp, message.bytes, message.tag);
    m_byQueuePair.emplace(std::make_pair(PeekPointer(qp), messageId), id);
}

void
RdmaNetworkBackend::Reserve(const Message& message)
{
    if (message.src != message.dst && message.src < m_nics.size() && message.dst < m_nics.size())
    {
        QueuePairFor(message);
    }
}

void
RdmaNetworkBackend::SetReductionPlacer(PacketInSwitchReductions::Placer placer)
{
    m_reductions.Attach(m_nics, std::move(placer), m_priority);
}

void
RdmaNetworkBackend::ReduceInSwitch(const Contribution& contribution, ContributionCallback done)
{
    if (m_remoteArrived)
    {
        throw InputError("rank " + std::to_string(contribution.rank) +
                         ": in-network reduction (nvls, inNetwork) runs in one process: its "
                         "members' contributions and results are not carried across processes");
    }
    if (!m_reductions.IsAttached())
    {
        NetworkBackend::ReduceInSwitch(contribution, std::move(done));
        return;
    }
    m_reductions.Reduce(contribution, std::move(done));
}

void
RdmaNetworkBackend::Schedule(Time delay, std::function<void()> fn)
{
    ++m_scheduled;
    Simulator::Schedule(delay,
                        [this, fn = std::move(fn)]()
                        {
                            --m_scheduled;
                            fn();
                        });
}

bool
RdmaNetworkBackend::IsIdle() const
{
    return m_pending.empty() && m_scheduled == 0 && m_reductions.GetOpenCount() == 0;
}

void
RdmaNetworkBackend::OnSent(uint64_t id)
{
    auto it = m_pending.find(id);
    if (it == m_pending.end())
    {
        return;
    }
    it->second.hasLeft = true;
    if (it->second.sent)
    {
        it->second.sent(it->second.message);
    }
    Retire(it);
}

void
RdmaNetworkBackend::OnArrived(uint64_t id)
{
    auto it = m_pending.find(id);
    if (it == m_pending.end())
    {
        return;
    }
    it->second.hasArrived = true;
    if (it->second.arrived)
    {
        it->second.arrived(it->second.message);
    }
    Retire(it);
}

void
RdmaNetworkBackend::OnSentOnQueuePair(const RdmaQueuePair* qp, uint64_t messageId)
{
    auto it = m_byQueuePair.find({qp, messageId});
    if (it == m_byQueuePair.end())
    {
        return;
    }
    const uint64_t id = it->second;
    m_byQueuePair.erase(it);
    OnSent(id);
}

void
RdmaNetworkBackend::OnArrivedFromWire(uint32_t dst, uint32_t srcNode, uint64_t tag, uint64_t bytes)
{
    Message message;
    message.src = m_rankOf.at(srcNode);
    message.dst = dst;
    message.bytes = bytes;
    message.tag = tag;
    m_remoteArrived(message);
}

void
RdmaNetworkBackend::Retire(std::unordered_map<uint64_t, Pending>::iterator it)
{
    if (it->second.hasLeft && it->second.hasArrived)
    {
        m_pending.erase(it);
    }
}

} // namespace ns3
