/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "zero-time-backend.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ZeroTimeBackend");
NS_OBJECT_ENSURE_REGISTERED(ZeroTimeBackend);

TypeId
ZeroTimeBackend::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ZeroTimeBackend")
                            .SetParent<NetworkBackend>()
                            .SetGroupName("Mlfabric")
                            .AddConstructor<ZeroTimeBackend>();
    return tid;
}

void
ZeroTimeBackend::SetRankCount(uint32_t ranks)
{
    m_ranks = ranks;
}

uint32_t
ZeroTimeBackend::GetRankCount() const
{
    return m_ranks;
}

uint64_t
ZeroTimeBackend::GetDeliveredMessages() const
{
    return m_delivered;
}

void
ZeroTimeBackend::Send(const Message& message, MessageCallback sent, MessageCallback arrived)
{
    if (message.src >= m_ranks || message.dst >= m_ranks)
    {
        throw InputError("message from rank " + std::to_string(message.src) + " to rank " +
                         std::to_string(message.dst) + ": the network has " +
                         std::to_string(m_ranks) + " ranks");
    }
    Simulator::ScheduleNow(
        [this, message, sent = std::move(sent), arrived = std::move(arrived)]()
        {
            ++m_delivered;
            if (arrived)
            {
                arrived(message);
            }
            if (sent)
            {
                sent(message);
            }
        });
}

void
ZeroTimeBackend::Schedule(Time, std::function<void()> fn)
{
    Simulator::ScheduleNow(std::move(fn));
}

} // namespace ns3
