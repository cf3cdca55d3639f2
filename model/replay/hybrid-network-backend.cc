/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hybrid-network-backend.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HybridNetworkBackend");
NS_OBJECT_ENSURE_REGISTERED(HybridNetworkBackend);

TypeId
HybridNetworkBackend::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HybridNetworkBackend")
            .SetParent<NetworkBackend>()
            .SetGroupName("Mlfabric")
            .AddConstructor<HybridNetworkBackend>()
            .AddTraceSource("Routed",
                            "A message was given to the flow level or the packet level",
                            MakeTraceSourceAccessor(&HybridNetworkBackend::m_routed),
                            "ns3::HybridNetworkBackend::RoutedCallback");
    return tid;
}

void
HybridNetworkBackend::Attach(Ptr<RdmaNetworkBackend> packet,
                             Ptr<FlowBackend> flow,
                             Classifier classify)
{
    NS_ABORT_MSG_UNLESS(packet && flow && classify, "HybridNetworkBackend: both levels needed");
    NS_ABORT_MSG_UNLESS(packet->GetRankCount() == flow->GetRankCount(),
                        "HybridNetworkBackend: the levels have different rank counts");
    m_packet = packet;
    m_flow = flow;
    m_classify = std::move(classify);
}

void
HybridNetworkBackend::DoDispose()
{
    m_packet = nullptr;
    m_flow = nullptr;
    m_classify = nullptr;
    m_level.clear();
    NetworkBackend::DoDispose();
}

uint32_t
HybridNetworkBackend::GetRankCount() const
{
    return m_packet ? m_packet->GetRankCount() : 0;
}

HybridNetworkBackend::Level
HybridNetworkBackend::LevelOf(uint32_t src, uint32_t dst)
{
    auto it = m_level.find({src, dst});
    if (it == m_level.end())
    {
        it = m_level.emplace(std::make_pair(src, dst), m_classify(src, dst)).first;
        NS_LOG_INFO("rank " << src << " to rank " << dst << ": " << ToString(it->second));
    }
    return it->second;
}

void
HybridNetworkBackend::Send(const Message& message, MessageCallback sent, MessageCallback arrived)
{
    NS_ABORT_MSG_UNLESS(m_packet, "HybridNetworkBackend: Attach first");
    if (CompletesWithoutNetwork(message, sent, arrived))
    {
        return;
    }
    const Level level = LevelOf(message.src, message.dst);
    Count& count = m_counts[static_cast<uint8_t>(level)];
    ++count.messages;
    count.bytes += message.bytes;
    m_routed(message.src, message.dst, message.bytes, static_cast<uint8_t>(level));
    if (level != Level::Flow)
    {
        m_packet->Send(message, std::move(sent), std::move(arrived));
        return;
    }
    m_packet->Reserve(message);
    // Both notifications always come; the message is open until the second one.
    m_flowOpen += 2;
    m_flow->Send(
        message,
        [this, sent = std::move(sent)](const Message& m)
        {
            --m_flowOpen;
            if (sent)
            {
                sent(m);
            }
        },
        [this, arrived = std::move(arrived)](const Message& m)
        {
            --m_flowOpen;
            if (arrived)
            {
                arrived(m);
            }
        });
}

void
HybridNetworkBackend::ReduceInSwitch(const Contribution& contribution, ContributionCallback done)
{
    m_packet->ReduceInSwitch(contribution, std::move(done));
}

void
HybridNetworkBackend::Schedule(Time delay, std::function<void()> fn)
{
    m_packet->Schedule(delay, std::move(fn));
}

bool
HybridNetworkBackend::IsIdle() const
{
    return m_flowOpen == 0 && m_packet->IsIdle();
}

uint64_t
HybridNetworkBackend::GetDeliveredBytes() const
{
    return m_packet->GetDeliveredBytes() + m_flow->GetDeliveredBytes();
}

HybridNetworkBackend::Count
HybridNetworkBackend::GetCount(Level level) const
{
    return m_counts[static_cast<uint8_t>(level)];
}

Ptr<RdmaNetworkBackend>
HybridNetworkBackend::GetPacketBackend() const
{
    return m_packet;
}

Ptr<FlowBackend>
HybridNetworkBackend::GetFlowBackend() const
{
    return m_flow;
}

HybridNetworkBackend::Level
HybridNetworkBackend::LevelOfPath(const Fabric& fabric, const std::vector<uint32_t>& links)
{
    uint32_t scaleUp = 0;
    bool oneDimension = true;
    int32_t dimension = -1;
    for (uint32_t l : links)
    {
        if (fabric.GetLinkScaleUp(l) == nullptr)
        {
            continue;
        }
        const int32_t d = fabric.GetLink(l).dimension;
        oneDimension = oneDimension && (scaleUp == 0 || d == dimension);
        dimension = d;
        ++scaleUp;
    }
    if (scaleUp == 0)
    {
        return Level::Packet;
    }
    return scaleUp == links.size() && oneDimension ? Level::Flow : Level::Crossing;
}

std::string
HybridNetworkBackend::ToString(Level level)
{
    switch (level)
    {
    case Level::Flow:
        return "flow level (scale-up only)";
    case Level::Crossing:
        return "packet level (crosses scale-up and RoCE)";
    case Level::Packet:
        break;
    }
    return "packet level (RoCE only)";
}

} // namespace ns3
