/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rank-map-backend.h"

#include "ns3/abort.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RankMapBackend");
NS_OBJECT_ENSURE_REGISTERED(RankMapBackend);

TypeId
RankMapBackend::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RankMapBackend")
                            .SetParent<NetworkBackend>()
                            .SetGroupName("Mlfabric")
                            .AddConstructor<RankMapBackend>();
    return tid;
}

void
RankMapBackend::Attach(Ptr<NetworkBackend> network, const std::vector<uint32_t>& npus)
{
    NS_ABORT_MSG_IF(!network, "RankMapBackend::Attach without a network");
    m_network = network;
    m_npus = npus;
    std::vector<bool> taken(network->GetRankCount(), false);
    for (uint32_t r = 0; r < npus.size(); ++r)
    {
        NS_ABORT_MSG_IF(npus[r] >= taken.size(),
                        "rank " << r << " on NPU " << npus[r] << " of a network of "
                                << taken.size());
        NS_ABORT_MSG_IF(taken[npus[r]], "NPU " << npus[r] << " holds two ranks");
        taken[npus[r]] = true;
    }
}

uint32_t
RankMapBackend::GetNpu(uint32_t rank) const
{
    return m_npus.at(rank);
}

uint32_t
RankMapBackend::GetRankCount() const
{
    return static_cast<uint32_t>(m_npus.size());
}

void
RankMapBackend::Send(const Message& message, MessageCallback sent, MessageCallback arrived)
{
    if (message.src >= m_npus.size() || message.dst >= m_npus.size())
    {
        throw InputError("message " + std::to_string(message.src) + " -> " +
                         std::to_string(message.dst) + ": rank outside the job of " +
                         std::to_string(m_npus.size()) + " ranks");
    }
    Message onNetwork = message;
    onNetwork.src = m_npus[message.src];
    onNetwork.dst = m_npus[message.dst];
    // The job's callbacks see the message as the job posted it.
    auto back = [message](MessageCallback cb) -> MessageCallback
    {
        if (!cb)
        {
            return cb;
        }
        return [message, cb = std::move(cb)](const Message& m)
        {
            Message mine = m;
            mine.src = message.src;
            mine.dst = message.dst;
            cb(mine);
        };
    };
    m_network->Send(onNetwork, back(std::move(sent)), back(std::move(arrived)));
}

void
RankMapBackend::ReduceInSwitch(const Contribution& contribution, ContributionCallback done)
{
    std::vector<uint32_t> npus;
    for (uint32_t rank : *contribution.members)
    {
        npus.push_back(GetNpu(rank));
    }
    std::sort(npus.begin(), npus.end());
    Contribution onNetwork = contribution;
    onNetwork.rank = GetNpu(contribution.rank);
    onNetwork.members = std::make_shared<const std::vector<uint32_t>>(std::move(npus));
    // The job's callback sees the contribution as the job made it.
    m_network->ReduceInSwitch(onNetwork,
                              [contribution, done = std::move(done)](const Contribution&)
                              { done(contribution); });
}

void
RankMapBackend::Schedule(Time delay, std::function<void()> fn)
{
    m_network->Schedule(delay, std::move(fn));
}

Time
RankMapBackend::Now() const
{
    return m_network->Now();
}

void
RankMapBackend::DoDispose()
{
    m_network = nullptr;
    NetworkBackend::DoDispose();
}

} // namespace ns3
