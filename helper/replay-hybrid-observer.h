/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_HYBRID_OBSERVER_H
#define MLFABRIC_REPLAY_HYBRID_OBSERVER_H

#include "ns3/hybrid-network-backend.h"
#include "ns3/ptr.h"
#include "ns3/replay-network-observer.h"
#include "ns3/replay-packet-observer.h"

#include <memory>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * What a hybrid network reports: the packet level's instruments and network stats (the
 * RoCE network with its scale-up links as the packet-level messages load them), the
 * payload both levels delivered, and how many messages and bytes ran at each level.
 */
class ReplayHybridObserver : public ReplayNetworkObserver
{
  public:
    /**
     * \param packet the observer of the packet level's network
     * \param backend the hybrid backend
     */
    ReplayHybridObserver(std::unique_ptr<ReplayPacketObserver> packet,
                         Ptr<HybridNetworkBackend> backend);

    void Start(const ReplayWatchSettings& settings, std::function<bool()> finished) override;
    bool IsSettled() const override;
    ReplayNetworkFigures Collect(bool finished) override;

  private:
    std::unique_ptr<ReplayPacketObserver> m_packet; //!< the packet level's instruments
    Ptr<HybridNetworkBackend> m_backend;            //!< the backend observed
};

} // namespace ns3

#endif /* MLFABRIC_REPLAY_HYBRID_OBSERVER_H */
