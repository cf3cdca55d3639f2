/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ZERO_TIME_BACKEND_H
#define MLFABRIC_ZERO_TIME_BACKEND_H

#include "ns3/network-backend.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * A network in which nothing takes time: every message arrives at once, and work
 * scheduled through it (compute, local reductions, remote memory) runs at once too.
 *
 * A replay over it keeps only what orders the nodes, their dependencies and the
 * matching of collectives and messages across ranks, which is what a check for
 * deadlocks needs (et-info's dry run). Each delivery is a simulator event at the
 * current time, so nothing runs inside the caller's Send or Schedule; the receiver is
 * told first, then the sender, as by the analytical models.
 */
class ZeroTimeBackend : public NetworkBackend
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ZeroTimeBackend() = default;

    /** \param ranks the ranks the network connects */
    void SetRankCount(uint32_t ranks);

    uint32_t GetRankCount() const override;
    void Send(const Message& message, MessageCallback sent, MessageCallback arrived) override;
    /**
     * Run \p fn now, whatever \p delay says.
     * \param delay ignored: nothing takes time here
     * \param fn the work to run
     */
    void Schedule(Time delay, std::function<void()> fn) override;

    /** \return messages delivered so far */
    uint64_t GetDeliveredMessages() const;

  private:
    uint32_t m_ranks{0};     //!< ranks of the network
    uint64_t m_delivered{0}; //!< messages delivered
};

} // namespace ns3

#endif /* MLFABRIC_ZERO_TIME_BACKEND_H */
