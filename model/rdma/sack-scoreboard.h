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
 * arrived past a gap) and which of the gaps it takes for lost.
 *
 * A gap counts as lost once ReorderBytes of reported data lie beyond it (0: at the
 * first report, as IRN does), or at a timeout; each lost gap is resent once, and again
 * only after a timeout.
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
     * \param[out] seq the first byte of the next gap to resend
     * \param[out] end one past its last byte (the gap may need several packets)
     * \return false when nothing is to be resent
     */
    bool NextResend(uint64_t& seq, uint64_t& end) const;

    /** The bytes below \p upTo of the gaps to resend have been. \param upTo one past */
    void Resent(uint64_t upTo);

    /** \return bytes reported held past the cumulative point */
    uint64_t GetSackedBytes() const;

  private:
    uint64_t m_reorderBytes{0};
    uint64_t m_una{0};
    uint64_t m_lostUpTo{0};   //!< gaps below it are lost
    uint64_t m_resendNext{0}; //!< gaps below it were resent since they were lost
    uint64_t m_sacked{0};
    std::map<uint64_t, uint64_t> m_ranges; //!< reported bytes: begin -> end
};

} // namespace ns3

#endif /* MLFABRIC_SACK_SCOREBOARD_H */
