/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_EGRESS_QUEUES_H
#define MLFABRIC_EGRESS_QUEUES_H

#include "ns3/roce-port.h"

#include <array>
#include <cstdint>
#include <deque>

namespace ns3
{

/**
 * \ingroup mlfabric-switch
 * A packet waiting at a switch egress port.
 */
struct QueuedFrame
{
    RoceFrame frame;         //!< the packet and its wire size
    uint32_t inPort{0};      //!< ingress port, for buffer accounting
    uint32_t bufferBytes{0}; //!< bytes charged to the buffer at ingress
    uint16_t flags{0};       //!< RoceHeader flags, read once at ingress
    bool isData{false};      //!< a DATA packet (ECN and INT apply)
    bool staged{false};      //!< charged to the shared pool, its credits already returned
    uint32_t payload{0};     //!< message payload, for accounting
};

/**
 * \ingroup mlfabric-switch
 * The eight priority queues of a switch egress port and their scheduler.
 *
 * Priorities in the strict mask are served first, highest first (control traffic);
 * the others share the port by deficit weighted round robin with a quantum per
 * priority. Paused priorities are skipped.
 */
class EgressQueues
{
  public:
    /** Empty queues, every DWRR weight 1; Configure() sets the scheduler. */
    EgressQueues();

    /**
     * \param strictMask priorities served strictly before the others
     * \param quantumBytes DWRR quantum of every other priority (at least a maximum frame)
     */
    void Configure(uint8_t strictMask, uint32_t quantumBytes);
    /**
     * Set the DWRR weight (quantum multiplier) of \p priority.
     * \param priority 0..7
     * \param weight quanta it gets per round
     */
    void SetWeight(uint8_t priority, uint32_t weight);

    /** Append a frame to its priority's queue. \param frame the frame, taken over */
    void Enqueue(QueuedFrame&& frame);
    /**
     * Take the next frame to send, skipping paused priorities.
     * \param port the egress port (its pause state)
     * \param out the frame
     * \return false when nothing is eligible
     */
    bool Dequeue(const RocePort& port, QueuedFrame& out);

    /** \param priority 0..7 \return bytes queued at \p priority (wire bytes) */
    uint64_t GetBytes(uint8_t priority) const;
    /** \return bytes queued at all priorities */
    uint64_t GetTotalBytes() const;
    /** \return true if no frame is queued */
    bool IsEmpty() const;
    /** \return buffer bytes charged for the queued frames */
    uint64_t GetBufferBytes() const;
    /** \return message payload queued */
    uint64_t GetPayload() const;
    /** \return the priorities with a frame queued, bit p for priority p */
    uint8_t
    GetNonEmptyMask() const
    {
        return m_nonEmpty;
    }

  private:
    /** Pop the head of \p priority into \p out. */
    void Pop(uint8_t priority, QueuedFrame& out);
    /** Move the DWRR turn \p steps priorities on, as that many skipped visits do. */
    void Advance(int steps);

    std::array<std::deque<QueuedFrame>, kNumPriorities> m_queues;
    std::array<uint64_t, kNumPriorities> m_bytes{};
    std::array<uint64_t, kNumPriorities> m_deficit{};
    std::array<uint32_t, kNumPriorities> m_weight{};
    uint64_t m_total{0};
    uint64_t m_bufferBytes{0};
    uint64_t m_payload{0};
    uint8_t m_strictMask{0};
    uint8_t m_nonEmpty{0}; //!< bit p set while priority p has a frame queued
    uint32_t m_quantum{0};
    uint8_t m_current{0};      //!< DWRR: priority whose turn it is
    bool m_turnStarted{false}; //!< DWRR: its quantum was added for this turn
};

} // namespace ns3

#endif /* MLFABRIC_EGRESS_QUEUES_H */
