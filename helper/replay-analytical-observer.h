/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_ANALYTICAL_OBSERVER_H
#define MLFABRIC_REPLAY_ANALYTICAL_OBSERVER_H

#include "ns3/analytical-backend.h"
#include "ns3/ptr.h"
#include "ns3/replay-network-observer.h"

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * What an analytical backend reports: the bytes it delivered. It needs no watching: a
 * replay over it ends when its events run out.
 */
class ReplayAnalyticalObserver : public ReplayNetworkObserver
{
  public:
    /** \param backend the backend observed */
    explicit ReplayAnalyticalObserver(Ptr<AnalyticalBackend> backend);

    void Start(const ReplayWatchSettings& settings, std::function<bool()> finished) override;
    ReplayNetworkFigures Collect(bool finished) override;

  private:
    Ptr<AnalyticalBackend> m_backend; //!< the backend observed
};

} // namespace ns3

#endif /* MLFABRIC_REPLAY_ANALYTICAL_OBSERVER_H */
