/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CC_DCTCP_H
#define MLFABRIC_CC_DCTCP_H

#include "ns3/congestion-ops.h"
#include "ns3/data-rate.h"

namespace ns3
{

/**
 * \ingroup mlfabric-cc
 * DCTCP (Alizadeh et al., SIGCOMM 2010) adapted to a rate-paced RoCE queue pair.
 *
 * Per window of data (the bytes in flight when the window opened), the fraction F of
 * acknowledged bytes whose ACK echoed ECN updates alpha = (1 - g) alpha + g F.
 * An ECN-echo ACK outside congestion window reduction cuts the rate once,
 * rate = rate (1 - alpha/2), and starts a reduction that lasts until everything sent
 * before the cut is acknowledged. Each window that ends outside a reduction adds
 * AiRate. The rate stays in [MinRate, line rate].
 *
 * Loss is met as TCP meets it (RFC 8257 section 3.5, RFC 5681): a NACK (fast
 * retransmit) outside a reduction halves the rate and starts a reduction; a
 * retransmission timeout remembers half the rate as the slow-start threshold and
 * restarts from one MTU per base RTT, doubling per window up to the threshold before
 * additive increase resumes.
 *
 * With RateWindow (the default) the queue pair also keeps at most rate x base RTT in
 * flight: the ACK clock of TCP's congestion window, without which a rate-paced sender
 * keeps injecting at its old rate for the whole (growing) RTT that a cut takes to show.
 */
class CcDctcp : public RdmaCongestionOps
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

    /** \return alpha */
    double GetAlpha() const;
    /** \return the current rate, bit/s */
    uint64_t GetCurrentRate() const;
    /** \return true during congestion window reduction */
    bool InReduction() const;
    /** \return the slow-start threshold after a timeout, bit/s; 0 when none */
    uint64_t GetSlowStartThreshold() const;

  private:
    /** Hand the rate, and with RateWindow the matching window, to the queue pair. */
    void Apply();
    /** \param factor multiply the rate by it and start a reduction */
    void Reduce(double factor);

    // Attributes
    double m_g;            //!< alpha gain
    double m_initialAlpha; //!< alpha before the first window ends
    DataRate m_ai;         //!< additive increase per window
    DataRate m_minRate;    //!< rate floor
    bool m_rateWindow;     //!< bound the bytes in flight to rate x base RTT

    // State
    uint64_t m_lineRate{0};     //!< bit/s
    uint64_t m_rate{0};         //!< bit/s
    double m_alpha{1.0};        //!< fraction-of-marks EWMA
    bool m_windowOpen{false};   //!< a window is being measured
    uint64_t m_windowEnd{0};    //!< it ends when an ACK reaches this sequence
    uint64_t m_ackedBytes{0};   //!< bytes acknowledged in the window
    uint64_t m_markedBytes{0};  //!< of which with ECN echo
    bool m_reducing{false};     //!< in congestion window reduction
    uint64_t m_reductionEnd{0}; //!< it ends when an ACK reaches this sequence
    uint64_t m_ssthresh{0};     //!< slow start below this rate after a timeout; 0 = none
};

} // namespace ns3

#endif /* MLFABRIC_CC_DCTCP_H */
