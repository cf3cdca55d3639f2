/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_RANK_H
#define MLFABRIC_COLLECTIVE_RANK_H

#include "ns3/collective-phase.h"
#include "ns3/collective-plan.h"
#include "ns3/system-config.h"

#include <cstdint>
#include <memory>
#include <set>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * Runs every collective one rank takes part in: its chunks, their dimension queues and
 * the per-phase state machines.
 *
 * It is event driven and knows nothing of the network: the driver starts collectives,
 * passes in the messages that arrive for them and the timers that expire, and carries
 * out the sends and timers the rank asks for through Output. Each dimension queue runs
 * at most ceil(active-chunks-per-dimension / queues-per-dimension) chunks at a time;
 * waiting chunks are taken by scheduling-policy priority, then issue order, then chunk
 * number, so that every rank of a group agrees on the order.
 */
class CollectiveRank
{
  public:
    /** What the rank asks of its driver. */
    class Output
    {
      public:
        virtual ~Output() = default;
        /**
         * Carry a message to another rank; call Receive on \p dst when it arrives.
         * \param src this rank
         * \param dst destination rank
         * \param bytes size
         * \param tag a CollectiveTag
         */
        virtual void SendMessage(uint32_t src, uint32_t dst, uint64_t bytes, uint64_t tag) = 0;
        /**
         * Call TimerExpired(token) on \p rank after \p delayNs.
         * \param rank this rank
         * \param delayNs the delay, ns
         * \param token opaque
         */
        virtual void StartTimer(uint32_t rank, uint64_t delayNs, uint64_t token) = 0;
        /**
         * A collective has finished on this rank.
         * \param rank this rank
         * \param collectiveId the collective
         */
        virtual void CollectiveFinished(uint32_t rank, uint32_t collectiveId) = 0;
        /**
         * Reduce in the switch of a dimension: \p rank hands over \p bytes, and once
         * every member's data is reduced the result arrives, reported as Receive(rank,
         * tag). The default refuses: a driver without a network cannot reduce in it.
         * \param rank the contributing rank
         * \param members every rank of the reduction, ascending, \p rank included
         * \param bytes the rank's data
         * \param tag the same for every member of one reduction
         * \param op what the switch does with the data
         */
        virtual void ReduceInSwitch(uint32_t rank,
                                    const std::vector<uint32_t>& members,
                                    uint64_t bytes,
                                    uint64_t tag,
                                    NetworkBackend::InSwitchOp op);
    };

    /**
     * \param rank this rank's global id
     * \param config the system configuration (queues, delays, local memory bandwidth)
     * \param output the driver
     */
    CollectiveRank(uint32_t rank, const SystemConfig& config, Output& output);

    /**
     * Start a collective on this rank. Every rank of the collective's group must start
     * it with the same id and plan. A collective with nothing to exchange finishes at
     * once (CollectiveFinished is called before Start returns). Throws InputError if
     * this rank is not in the plan's group.
     * \param collectiveId id shared by all ranks, at most CollectiveTag::kMaxCollectiveId
     * \param plan the decomposition
     * \param explicitPriority the trace's comm_priority (EXPLICIT scheduling only)
     */
    void Start(uint32_t collectiveId,
               std::shared_ptr<const CollectivePlan> plan,
               int64_t explicitPriority = 0);

    /**
     * A collective message for this rank has arrived (possibly before the collective
     * was started here).
     * \param src the sender
     * \param tag the message's CollectiveTag
     */
    void Receive(uint32_t src, uint64_t tag);

    /**
     * A timer started through Output::StartTimer has expired.
     * \param token its token
     */
    void TimerExpired(uint64_t token);

    /** \return this rank */
    uint32_t
    GetRank() const
    {
        return m_rank;
    }

    /** \return collectives started and not finished */
    size_t
    GetActiveCount() const
    {
        return m_collectives.size();
    }

    /**
     * \return collectives other ranks have sent messages for but this rank never
     * started: at the end of a run, a sign that the ranks issued different collectives
     */
    size_t
    GetUnstartedCount() const
    {
        return m_unstarted.size();
    }

  private:
    /** A message that came before its phase started. */
    struct EarlyMessage
    {
        uint32_t phase; //!< its phase
        uint32_t src;   //!< its sender
    };

    /** One chunk's progress. */
    struct Chunk
    {
        uint32_t phase{0};                    //!< current phase
        std::unique_ptr<PhaseExecution> exec; //!< set while the phase runs
        std::vector<EarlyMessage> early;      //!< messages for phases not running yet
    };

    /** One collective's progress on this rank. */
    struct Collective
    {
        std::shared_ptr<const CollectivePlan> plan; //!< the decomposition
        int64_t priority{0};                        //!< higher runs first
        uint64_t sequence{0};                       //!< issue order on this rank
        std::vector<Chunk> chunks;                  //!< all chunks
        uint32_t chunksLeft{0};                     //!< chunks not finished
    };

    /** A chunk waiting for a queue slot; ordered by (priority desc, sequence, chunk). */
    using Waiting = std::tuple<int64_t, uint64_t, uint32_t, uint32_t>;

    /** One dimension queue. */
    struct Queue
    {
        uint32_t running{0};       //!< chunks in a phase on this queue
        std::set<Waiting> waiting; //!< chunks waiting for a slot
    };

    class Io;

    /** \return the queue key of the chunk's current phase */
    uint64_t QueueKey(const Collective& c, uint32_t chunk) const;
    /** \return ring direction of the chunk's current phase (+1 or -1) */
    int32_t Direction(const Collective& c, uint32_t chunk) const;
    /** Put a chunk in its current phase's queue, without starting anything. */
    void Enqueue(uint32_t id, uint32_t chunk);
    /** Start waiting chunks of a queue while it has free slots. */
    void Promote(uint64_t queueKey);
    /** Start the chunk's current phase. */
    void Begin(uint32_t id, uint32_t chunk);
    /** After a phase state machine ran: move the chunk on if its phase is done. */
    void Settle(uint32_t id, uint32_t chunk);

    uint32_t m_rank;                                        //!< this rank
    Output& m_output;                                       //!< the driver
    SchedulingPolicy m_policy;                              //!< order of waiting chunks
    uint32_t m_queuesPerDimension;                          //!< queues of each dimension
    uint32_t m_slotsPerQueue;                               //!< chunks a queue runs at once
    double m_localMemBw;                                    //!< bytes per ns, 0 if not given
    uint64_t m_issued{0};                                   //!< collectives started
    std::unordered_map<uint32_t, Collective> m_collectives; //!< running, by id
    std::unordered_map<uint32_t, std::vector<std::pair<uint32_t, uint64_t>>>
        m_unstarted;                              //!< (src, tag) of early messages
    std::unordered_map<uint64_t, Queue> m_queues; //!< by QueueKey
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_RANK_H */
