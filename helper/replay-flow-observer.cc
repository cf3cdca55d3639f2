/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-flow-observer.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayFlowObserver");

ReplayFlowObserver::ReplayFlowObserver(Ptr<FlowBackend> backend)
    : m_backend(backend)
{
}

void
ReplayFlowObserver::Start(const ReplayWatchSettings&, std::function<bool()>)
{
}

ReplayNetworkFigures
ReplayFlowObserver::Collect(bool)
{
    ReplayNetworkFigures figures;
    figures.deliveredBytes = m_backend->GetDeliveredBytes();
    const FlowRateAllocator& rates = m_backend->GetAllocator();
    figures.counters["flow queue pairs"] = m_backend->GetQueuePairCount();
    figures.counters["flow re-solves"] = rates.GetSolveCount();
    figures.counters["flow rates re-solved"] = rates.GetSolvedFlowCount();
    figures.counters["flows at once (peak)"] = rates.GetPeakActiveCount();
    NS_LOG_INFO("flow level: " << m_backend->GetQueuePairCount() << " queue pairs, "
                               << rates.GetSolveCount() << " re-solves of "
                               << rates.GetSolvedFlowCount() << " flow rates, at most "
                               << rates.GetPeakActiveCount() << " flows at once");
    return figures;
}

} // namespace ns3
