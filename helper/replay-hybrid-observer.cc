/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-hybrid-observer.h"

#include "ns3/log.h"

#include <iostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayHybridObserver");

ReplayHybridObserver::ReplayHybridObserver(std::unique_ptr<ReplayPacketObserver> packet,
                                           Ptr<HybridNetworkBackend> backend)
    : m_packet(std::move(packet))
    , m_backend(backend)
{
    // The stuck watch must wait for flow-level messages too.
    m_packet->SetQuiet([backend]() { return backend->IsIdle(); });
}

void
ReplayHybridObserver::Start(const ReplayWatchSettings& settings, std::function<bool()> finished)
{
    m_packet->Start(settings, std::move(finished));
}

bool
ReplayHybridObserver::IsSettled() const
{
    return m_packet->IsSettled();
}

ReplayNetworkFigures
ReplayHybridObserver::Collect(bool finished)
{
    ReplayNetworkFigures figures = m_packet->Collect(finished);
    figures.deliveredBytes = m_backend->GetDeliveredBytes();
    using Level = HybridNetworkBackend::Level;
    const std::pair<Level, const char*> levels[] = {{Level::Flow, "hybrid flow level"},
                                                    {Level::Packet, "hybrid packet level"},
                                                    {Level::Crossing, "hybrid packet, crossing"}};
    for (const auto& [level, name] : levels)
    {
        const HybridNetworkBackend::Count c = m_backend->GetCount(level);
        figures.counters[std::string(name) + " messages"] = c.messages;
        figures.counters[std::string(name) + " bytes"] = c.bytes;
        NS_LOG_INFO(HybridNetworkBackend::ToString(level)
                    << ": " << c.messages << " messages, " << c.bytes << " B");
    }
    const HybridNetworkBackend::Count crossing = m_backend->GetCount(Level::Crossing);
    if (crossing.messages > 0)
    {
        const std::string warning =
            "hybrid: " + std::to_string(crossing.messages) + " message(s) of " +
            std::to_string(crossing.bytes) +
            " B crossed scale-up and RoCE links and ran at packet level; flow-level "
            "messages on the same scale-up links saw neither their bytes nor the relay's "
            "backpressure, and may finish early (doc/replay.md, hybrid)";
        std::cerr << "warning: " << warning << std::endl;
        figures.warnings.push_back(warning);
    }
    const FlowRateAllocator& rates = m_backend->GetFlowBackend()->GetAllocator();
    figures.counters["flow queue pairs"] = m_backend->GetFlowBackend()->GetQueuePairCount();
    figures.counters["flow re-solves"] = rates.GetSolveCount();
    return figures;
}

} // namespace ns3
