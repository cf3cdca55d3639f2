/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_PHASE_H
#define MLFABRIC_COLLECTIVE_PHASE_H

#include "ns3/collective-plan.h"
#include "ns3/network-backend.h"

#include <cstdint>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * What one rank knows when it runs one phase of one chunk.
 *
 * Peers are positions (indices) along the phase's dimension; CollectiveRank maps them
 * to global ranks.
 */
struct PhaseContext
{
    CollectivePhaseSpec spec;       //!< the phase
    uint32_t index{0};              //!< this rank's position along the dimension
    uint32_t size{1};               //!< ranks along the dimension
    int32_t direction{1};           //!< +1 clockwise (to index + 1), -1 anticlockwise
    uint32_t chunk{0};              //!< the chunk's number within its collective
    uint32_t root{0};               //!< rooted collectives: the root's position
    uint64_t handoffNs{0};          //!< hand-off before a send / after a receipt
    double localMemBwBytesPerNs{0}; //!< local memory bandwidth; 0: reductions are free

    /** \param i any position, possibly negative \return it modulo size */
    uint32_t
    Wrap(int64_t i) const
    {
        const int64_t n = size;
        return static_cast<uint32_t>(((i % n) + n) % n);
    }

    /**
     * ASTRA-sim's local reduction of a received message: one write and two reads of
     * \p bytes at local-mem-bw, each truncated to whole ns.
     * \param bytes the message
     * \return the time, ns
     */
    uint64_t
    ReductionNs(uint64_t bytes) const
    {
        if (localMemBwBytesPerNs <= 0)
        {
            return 0;
        }
        return 3 * static_cast<uint64_t>(static_cast<double>(bytes) / localMemBwBytesPerNs);
    }
};

/**
 * \ingroup mlfabric-collective
 * What a phase asks of the rank running it.
 */
class PhaseIo
{
  public:
    virtual ~PhaseIo() = default;
    /**
     * Send a message of this phase.
     * \param peer destination position along the dimension
     * \param bytes message size
     */
    virtual void Send(uint32_t peer, uint64_t bytes) = 0;
    /**
     * Call the phase's OnTimer after a delay (local hand-off or reduction).
     * \param delayNs the delay
     */
    virtual void Wait(uint64_t delayNs) = 0;
    /**
     * Hand this rank's data to the dimension's switch, which reduces it with every other
     * position's (or, for an all-gather, multicasts it to them); the result comes back as
     * a message from this rank's own position.
     * \param bytes the data
     * \param op what the switch does with it
     */
    virtual void ReduceInSwitch(uint64_t bytes, NetworkBackend::InSwitchOp op) = 0;
};

/**
 * \ingroup mlfabric-collective
 * One rank's state machine for one phase of one chunk of a collective.
 *
 * The rank starts it, hands it the phase's messages as they arrive and its timers as
 * they expire; the phase answers with sends and timers through PhaseIo until it is done.
 * A message counts as received when it has arrived and the phase has posted a matching
 * receive (same peer), whichever comes last; messages from one peer match in order.
 */
class PhaseExecution
{
  public:
    /** \param context the phase as seen from this rank */
    explicit PhaseExecution(const PhaseContext& context);
    virtual ~PhaseExecution() = default;

    PhaseExecution(const PhaseExecution&) = delete;
    PhaseExecution& operator=(const PhaseExecution&) = delete;

    /**
     * Begin: the chunk got its queue slot.
     * \param io the rank
     */
    virtual void Start(PhaseIo& io) = 0;

    /**
     * A message of this phase arrived. It may come before Start.
     * \param peer its sender's position
     * \param io the rank
     */
    void Deliver(uint32_t peer, PhaseIo& io);

    /**
     * A delay requested with PhaseIo::Wait has passed.
     * \param io the rank
     */
    virtual void OnTimer(PhaseIo& io) = 0;

    /** \return true once the phase has finished on this rank */
    bool
    IsDone() const
    {
        return m_done;
    }

  protected:
    /**
     * A posted receive has matched an arrived message.
     * \param peer the sender's position
     * \param io the rank
     */
    virtual void OnReceived(uint32_t peer, PhaseIo& io) = 0;

    /**
     * Post a receive from \p peer; completes at once if its message is already here.
     * \param peer the expected sender's position
     * \param io the rank
     */
    void PostReceive(uint32_t peer, PhaseIo& io);

    /** Mark the phase finished on this rank. */
    void
    Finish()
    {
        m_done = true;
    }

    /** \return the phase as seen from this rank */
    const PhaseContext&
    Context() const
    {
        return m_context;
    }

  private:
    /** Unmatched receives and messages from one peer. */
    struct Pending
    {
        uint32_t posted{0};  //!< receives waiting for a message
        uint32_t arrived{0}; //!< messages waiting for a receive
    };

    PhaseContext m_context;                          //!< the phase
    std::unordered_map<uint32_t, Pending> m_pending; //!< by peer, only while non-empty
    bool m_done{false};                              //!< finished
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_PHASE_H */
