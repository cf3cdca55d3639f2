/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_RUNNER_H
#define MLFABRIC_COLLECTIVE_RUNNER_H

#include "ns3/collective-rank.h"
#include "ns3/network-backend.h"
#include "ns3/ptr.h"
#include "ns3/system-config.h"

#include <functional>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * Runs the collectives of every rank over one NetworkBackend: it carries each rank's
 * messages and timers through the backend and hands arrivals and expiries back to the
 * right CollectiveRank. A replay engine uses it for its COMM_COLL nodes; tests use it on
 * its own.
 */
class CollectiveRunner : public CollectiveRank::Output
{
  public:
    /** Called when a collective has finished on one rank. */
    using FinishedCallback = std::function<void(uint32_t rank, uint32_t collectiveId)>;

    /**
     * \param backend the network
     * \param config the system configuration; copied
     */
    CollectiveRunner(Ptr<NetworkBackend> backend, const SystemConfig& config);

    /** \param callback called on every rank's completion of every collective */
    void SetFinishedCallback(FinishedCallback callback);

    /**
     * Start a collective on one rank (see CollectiveRank::Start).
     * \param rank the rank
     * \param collectiveId id shared by the ranks of the collective
     * \param plan the decomposition
     * \param explicitPriority comm_priority, for EXPLICIT scheduling
     */
    void Start(uint32_t rank,
               uint32_t collectiveId,
               std::shared_ptr<const CollectivePlan> plan,
               int64_t explicitPriority = 0);

    /** \param rank a rank \return payload bytes it has sent */
    uint64_t
    GetBytesSent(uint32_t rank) const
    {
        return m_bytesSent.at(rank);
    }

    /** \param rank a rank \return payload bytes that have arrived at it */
    uint64_t
    GetBytesReceived(uint32_t rank) const
    {
        return m_bytesReceived.at(rank);
    }

    /** \return messages sent by all ranks */
    uint64_t
    GetMessageCount() const
    {
        return m_messages;
    }

    /**
     * One of the collectives' messages has arrived at its receiver (what Send's
     * receiver-side callback does, for a message another process sent).
     * \param message as sent
     */
    void Arrive(const NetworkBackend::Message& message);

    // CollectiveRank::Output
    void SendMessage(uint32_t src, uint32_t dst, uint64_t bytes, uint64_t tag) override;
    void StartTimer(uint32_t rank, uint64_t delayNs, uint64_t token) override;
    void CollectiveFinished(uint32_t rank, uint32_t collectiveId) override;
    void ReduceInSwitch(uint32_t rank,
                        const std::vector<uint32_t>& members,
                        uint64_t bytes,
                        uint64_t tag,
                        NetworkBackend::InSwitchOp op) override;

  private:
    /** \return the rank's state machine, created on first use */
    CollectiveRank& RankAt(uint32_t rank);

    Ptr<NetworkBackend> m_backend;                        //!< the network
    SystemConfig m_config;                                //!< system configuration
    std::vector<std::unique_ptr<CollectiveRank>> m_ranks; //!< by rank
    std::vector<uint64_t> m_bytesSent;                    //!< by rank
    std::vector<uint64_t> m_bytesReceived;                //!< by rank
    uint64_t m_messages{0};                               //!< messages sent
    FinishedCallback m_finished;                          //!< completion callback
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_RUNNER_H */
