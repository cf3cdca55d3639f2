/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-analytical-observer.h"

namespace ns3
{

ReplayAnalyticalObserver::ReplayAnalyticalObserver(Ptr<AnalyticalBackend> backend)
    : m_backend(backend)
{
}

void
ReplayAnalyticalObserver::Start(const ReplayWatchSettings&, std::function<bool()>)
{
}

ReplayNetworkFigures
ReplayAnalyticalObserver::Collect(bool)
{
    ReplayNetworkFigures figures;
    figures.deliveredBytes = m_backend->GetDeliveredBytes();
    return figures;
}

} // namespace ns3
