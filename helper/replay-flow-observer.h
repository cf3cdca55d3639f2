/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_FLOW_OBSERVER_H
#define MLFABRIC_REPLAY_FLOW_OBSERVER_H

#include "ns3/flow-backend.h"
#include "ns3/ptr.h"
#include "ns3/replay-network-observer.h"

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * What the flow-level backend reports: the bytes it delivered. Like the analytical
 * backends it needs no watching: a replay over it ends when its events run out.
 */
class ReplayFlowObserver : public ReplayNetworkObserver
{
  public:
    /** \param backend the backend observed */
    explicit ReplayFlowObserver(Ptr<FlowBackend> backend);

    void Start(const ReplayWatchSettings& settings, std::function<bool()> finished) override;
    ReplayNetworkFigures Collect(bool finished) override;

  private:
    Ptr<FlowBackend> m_backend; //!< the backend observed
};

} // namespace ns3

#endif /* MLFABRIC_REPLAY_FLOW_OBSERVER_H */
