/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FLOW_DRAIN_QUEUE_H
#define MLFABRIC_FLOW_DRAIN_QUEUE_H

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-flow
 * When each queue pair's head message will have left, earliest first.
 *
 * A re-solve moves the times of many queue pairs at once; rescheduling one simulator
 * event each would cost a scheduler removal per flow (linear in ns-3's priority-queue
 * scheduler), so the backend keeps one event for the earliest time and this heap for
 * the rest. A moved time is pushed anew and the old entry skipped when it surfaces; the
 * heap is rebuilt when such stale entries outnumber the live ones.
 */
class FlowDrainQueue
{
  public:
    /** A time no queue pair is due at. */
    static constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

    /** \param qp a queue pair \param timePs when its head message will have left */
    void Set(uint32_t qp, int64_t timePs);

    /** \param qp a queue pair that has nothing to send */
    void Clear(uint32_t qp);

    /** \return the earliest time of a queue pair, or kNever */
    int64_t NextTime();

    /**
     * Take the earliest queue pair if it is due: one at a time, since handling it may
     * move the times of others.
     * \param nowPs the current time
     * \param qp set to the earliest queue pair due at or before \p nowPs (ties in the
     *        order they were set); it is cleared
     * \return false if none is due
     */
    bool PopDue(int64_t nowPs, uint32_t& qp);

    /** \return entries held, stale ones included */
    size_t
    GetEntryCount() const
    {
        return m_heap.size();
    }

  private:
    /** One heap entry. */
    struct Entry
    {
        int64_t timePs; //!< due time
        uint64_t order; //!< set order, for ties
        uint32_t qp;    //!< queue pair
    };

    /** \return true if \p e is the queue pair's current time */
    bool IsLive(const Entry& e) const;
    /** Drop stale entries from the top. */
    void SkipStale();
    /** Rebuild the heap from the live entries when stale ones dominate. */
    void MaybeCompact();

    std::vector<Entry> m_heap;     //!< min-heap on (time, order)
    std::vector<int64_t> m_timeOf; //!< queue pair -> its live time, or kNever
    std::vector<uint64_t> m_setAt; //!< queue pair -> order of its live entry
    uint64_t m_order{0};           //!< entries pushed so far
    uint32_t m_live{0};            //!< queue pairs with a time
};

} // namespace ns3

#endif /* MLFABRIC_FLOW_DRAIN_QUEUE_H */
