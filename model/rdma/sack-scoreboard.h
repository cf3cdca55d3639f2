/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_SACK_SCOREBOARD_H
#define MLFABRIC_SACK_SCOREBOARD_H

#include <cstdint>
#include <map>

namespace ns3
{

/**
 * \ingroup mlfabric-rdma
 * What a selective-repeat sender knows of the bytes it sent past its oldest
 * unacknowledged one: which the receiver reported (selective NACKs name a packet that
 * arrived past a gap), which it was told were lost (a trimmed packet's NACK names it)
 * and which of the gaps it takes for lost.
 *
 * A gap counts as lost once ReorderBytes of reported data lie beyond it (0: at the
 * first report, as IRN does), or at a timeout; a range named lost is lost at once. Each
 * lost byte is resent once, and again only after a timeout or a new report of its loss.
 */
class SackScoreboard
{
  public:
    /** \param bytes reported bytes past a gap that make it lost */
    void SetReorderBytes(uint64_t bytes);

    /**
     * The receiver holds [begin, end).
     * \param begin first byte
     * \param end one past the last
     */
    void Sack(uint64_t begin, uint64_t end);

    /**
     * The receiver reports [begin, end) lost (its payload was trimmed on the way).
     * \param begin first byte
     * \param end one past the last
     * \return true if some of it is now to be resent
     */
    bool MarkLost(uint64_t begin, uint64_t end);

    /** Every byte below \p una is acknowledged. \param una the cumulative point */
    void Acknowledge(uint64_t una);

    /**
     * Take gaps for lost by the reports held.
     * \return true if the lost point moved and a gap below it waits to be resent
     */
    bool DetectLoss();

    /**
     * A timeout: every gap below \p sentHigh is lost, and resent from the start.
     * \param sentHigh one past the highest byte sent
     */
    void LoseAll(uint64_t sentHigh);

    /**
     * \param[out] seq the first byte of the next lost range to resend, lowest first
     * \param[out] end one past its last byte (the range may need several packets)
     * \return false when nothing is to be resent
     */
    bool NextResend(uint64_t& seq, uint64_t& end) const;

    /**
     * [seq, upTo) has been resent.
     * \param seq its first byte, as NextResend gave it
     * \param upTo one past its last
     */
    void Resent(uint64_t seq, uint64_t upTo);

    /** \return bytes reported held past the cumulative point */
    uint64_t GetSackedBytes() const;

    /** \return bytes taken for lost and not yet resent (out of the network) */
    uint64_t GetLostPendingBytes() const;

    /**
     * \param begin first byte
     * \param end one past the last
     * \return true if every byte of [begin, end) is acknowledged or reported held
     */
    bool Covers(uint64_t begin, uint64_t end) const;

  private:
    /** A set of byte ranges: begin -> end, disjoint and not touching. */
    using Ranges = std::map<uint64_t, uint64_t>;

    /** \return the first byte at or after \p at outside the ranges of \p set */
    static uint64_t SkipCovered(const Ranges& set, uint64_t at);
    /** \return the first range start of \p set above \p at; UINT64_MAX if none */
    static uint64_t NextStart(const Ranges& set, uint64_t at);

    uint64_t m_reorderBytes{0};
    uint64_t m_una{0};
    uint64_t m_lostUpTo{0}; //!< gaps below it are lost
    uint64_t m_sacked{0};
    Ranges m_ranges; //!< reported bytes
    Ranges m_named;  //!< bytes the receiver named lost, not yet resent
    Ranges m_resent; //!< lost bytes resent since they were last taken for lost
};

} // namespace ns3

#endif /* MLFABRIC_SACK_SCOREBOARD_H */
