/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_RECEIVE_BITMAP_H
#define MLFABRIC_RECEIVE_BITMAP_H

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-rdma
 * The bounded receive bitmap of a selective-repeat receiver (IRN).
 *
 * It accepts a packet that arrives ahead of the next in-order byte if it starts within
 * CapacityBytes of it, remembers which bytes arrived (as ranges, the byte-sequence form
 * of a packet bitmap), and advances the in-order point over them once the gap fills.
 * It also holds the ends of messages whose last packet came early, so that a message
 * completes when every one of its bytes has arrived, not when its last packet did.
 */
class ReceiveBitmap
{
  public:
    /** What became of a packet. */
    enum Outcome
    {
        IN_ORDER,     //!< it started at the in-order point, which advanced
        OUT_OF_ORDER, //!< it arrived ahead of a gap and was kept
        DUPLICATE,    //!< every byte of it had arrived before
        BEYOND,       //!< it starts past the bitmap's reach: discarded
    };

    /** A message whose last byte is now in order. */
    struct Completed
    {
        uint64_t end{0}; //!< one past its last byte
        uint64_t tag{0}; //!< its tag
    };

    /** \param capacityBytes how far past the in-order point a packet may start */
    void SetCapacity(uint64_t capacityBytes);
    /** \return that reach, bytes */
    uint64_t GetCapacity() const;

    /**
     * Record a data packet.
     * \param seq its first byte
     * \param bytes its payload (at least 1)
     * \param last it ends a message
     * \param tag that message's tag (when \p last)
     * \return what became of it; IN_ORDER may complete messages (TakeCompleted)
     */
    Outcome Receive(uint64_t seq, uint32_t bytes, bool last, uint64_t tag);

    /** \return the next in-order byte */
    uint64_t GetExpected() const;
    /** \return bytes held past a gap */
    uint64_t GetHeldBytes() const;
    /** \return bytes that arrived for the first time with the last Receive() */
    uint64_t GetNewBytes() const;
    /** \return bytes the last Receive() moved the in-order point by */
    uint64_t GetAdvance() const;

    /** \return the messages completed by the last Receive(), in order; clears them */
    std::vector<Completed> TakeCompleted();

  private:
    /** Move the in-order point over the held ranges that now touch it. */
    void Advance();

    uint64_t m_capacity{0};
    uint64_t m_expected{0};
    uint64_t m_held{0};
    uint64_t m_newBytes{0};
    uint64_t m_advance{0};
    std::map<uint64_t, uint64_t> m_ranges;   //!< held bytes past the gap: begin -> end
    std::map<uint64_t, uint64_t> m_lastEnds; //!< message ends seen ahead: end -> tag
    std::vector<Completed> m_completed;
};

} // namespace ns3

#endif /* MLFABRIC_RECEIVE_BITMAP_H */
