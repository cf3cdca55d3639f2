/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CC_HPCC_H
#define MLFABRIC_CC_HPCC_H

#include "ns3/congestion-ops.h"
#include "ns3/data-rate.h"

#include <array>

namespace ns3
{

/**
 * \ingroup mlfabric-cc
 * HPCC, as in Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019
 * (Algorithm 1).
 *
 * Every ACK echoes the INT records of every hop. Per hop, against the previous ACK's
 * record: u = min(qlen, qlen') / (B T) + txRate / B, with txRate from the byte and
 * time deltas; the most loaded hop gives u and its time delta tau. The normalised
 * inflight U is an EWMA over the base RTT T: U = (1 - tau/T) U + (tau/T) u.
 * The window follows W = Wc / (U/eta) + W_AI if U >= eta or after MaxStage additive
 * steps, else W = Wc + W_AI. The reference window Wc (and the stage) is updated only
 * once per RTT, when an ACK passes lastUpdateSeq (then set to snd_nxt); other ACKs
 * react from Wc without moving it. The pacing rate is W / T.
 *
 * A NACK echoes the INT of the packet that found the gap and is used as an ACK (as the
 * HPCC simulator does). The paper defines no reaction to a timeout; here a timeout
 * halves Wc and the window (a loss-based backstop, as TCP's), resets the stage and
 * drops the INT reference, so the next ACK starts a fresh measurement.
 */
class CcHpcc : public RdmaCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    std::string GetName() const override;
    void Init(CcQueuePairView* qp) override;
    void OnAck(const AckSample& ack) override;
    void OnNack(const AckSample& ack) override;
    void OnTimeout() override;
    bool NeedsInt() const override;

    /** \return the normalised inflight estimate U */
    double GetUtilization() const;
    /** \return the reference window Wc, bytes */
    uint64_t GetReferenceWindow() const;
    /** \return the window last set, bytes */
    uint64_t GetWindow() const;
    /** \return additive steps since the last multiplicative one */
    uint32_t GetIncreaseStage() const;

  protected:
    /**
     * Take the utilisation an ACK reports into U. HPCC measures every hop from the
     * echoed INT records against the previous ACK's; a variant with other telemetry
     * overrides this and keeps the window law.
     * \param ack the ACK or NACK
     * \return true if U was updated and the window should follow
     */
    virtual bool MeasureUtilization(const AckSample& ack);

    /**
     * Set U directly (telemetry that reports it whole).
     * \param u the normalised inflight estimate
     */
    void SetUtilization(double u);

    /**
     * Mark the start of the first RTT: the reference moves when an ACK passes snd_nxt.
     */
    void StartFirstRtt();

    /** \return true before the first RTT has been marked */
    bool IsFirstRttPending() const;

  private:
    /**
     * Update U from the INT records of an ACK and keep them as the next reference.
     * \param hops the records, one per hop
     * \param nHops how many
     */
    void MeasureInflight(const IntHop* hops, uint32_t nHops);
    /**
     * \param updateReference move Wc and the stage (once per RTT)
     * \return the window, bytes
     */
    uint64_t ComputeWindow(bool updateReference);
    /** Set the window and the matching pacing rate. \param window bytes */
    void SetWindow(uint64_t window);

    // Attributes
    double m_eta;        //!< target utilisation
    uint32_t m_maxStage; //!< additive steps before a multiplicative one
    DataRate m_aiRate;   //!< W_AI expressed as a rate: W_AI = aiRate T
    bool m_fastReact;    //!< react on every ACK, not only once per RTT
    DataRate m_minRate;  //!< floor of the pacing rate

    // State
    uint64_t m_lineRate{0};                 //!< bit/s
    Time m_baseRtt;                         //!< T
    double m_maxWindow{0};                  //!< line rate x T, bytes
    double m_minWindow{0};                  //!< min rate x T, bytes
    double m_windowAi{0};                   //!< W_AI, bytes
    double m_u{1.0};                        //!< U
    double m_wc{0};                         //!< Wc, bytes
    uint64_t m_window{0};                   //!< W last set, bytes
    uint32_t m_incStage{0};                 //!< additive steps since the last multiplicative one
    uint64_t m_lastUpdateSeq{0};            //!< the reference moves when an ACK passes it
    std::array<IntHop, kMaxIntHops> m_hops; //!< previous INT records
    uint32_t m_nHops{0};                    //!< valid entries of m_hops; 0 = no reference yet
};

} // namespace ns3

#endif /* MLFABRIC_CC_HPCC_H */
