/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CC_TIMELY_H
#define MLFABRIC_CC_TIMELY_H

#include "ns3/congestion-ops.h"
#include "ns3/data-rate.h"

namespace ns3
{

/**
 * \ingroup mlfabric-cc
 * TIMELY, as in Mittal et al., "TIMELY: RTT-based Congestion Control for the
 * Datacenter", SIGCOMM 2015 (Algorithm 1).
 *
 * Once per RTT (when an ACK passes the sequence sent at the previous update) the RTT
 * sample drives the rate: rtt_diff = (1 - alpha) rtt_diff + alpha (rtt - prev_rtt);
 * gradient = rtt_diff / minRTT, minRTT the path's base RTT unless MinRtt is set.
 * RTT < T_low: rate += delta. RTT > T_high: rate *= 1 - beta (1 - T_high / RTT).
 * Otherwise a gradient <= 0 increases the rate, by the hyper-active step when the
 * HaiThreshold updates before it all had gradients <= 0 (Algorithm 1's HAI mode), else by
 * delta, and a positive gradient gives rate *= 1 - beta gradient. With
 * CountLowRttIncreases the hyper-active count is that of the HPCC ns-3 simulator
 * instead: increases in a row, those below T_low included. The rate stays in
 * [MinRate, line rate].
 *
 * A NACK echoes the timestamp of the packet that found the gap and is an RTT sample
 * like an ACK. The paper defines no reaction to a timeout; here a timeout cuts the
 * rate by beta, the largest cut of a gradient, and restarts the gradient from the next
 * sample.
 */
class CcTimely : public RdmaCongestionOps
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
    bool NeedsTimestamp() const override;

    /** \return the smoothed RTT difference, seconds */
    double GetRttDiff() const;
    /** \return the current rate, bit/s */
    uint64_t GetCurrentRate() const;
    /** \return increases made in a row */
    uint32_t GetIncreaseCount() const;
    /** \return updates in a row whose gradient was <= 0 */
    uint32_t GetNonPositiveGradientCount() const;
    /** \return the minRTT that normalises the gradient */
    Time GetMinRtt() const;

  private:
    /** Increase by delta, or by the hyper-active step in HAI mode. */
    void Increase();
    /** \param factor multiply the rate by it (clamped to [0, 1]) */
    void Decrease(double factor);

    // Attributes
    double m_alpha;      //!< EWMA weight of the newest RTT difference
    double m_beta;       //!< multiplicative-decrease factor
    DataRate m_ai;       //!< delta
    DataRate m_hai;      //!< hyper-active increase step
    uint32_t m_haiAfter; //!< increases in a row before hyper-active steps
    Time m_tLow;         //!< below: always increase
    Time m_tHigh;        //!< above: always decrease
    Time m_minRtt;       //!< normalises the gradient; 0 = the base RTT
    DataRate m_minRate;  //!< rate floor
    bool m_countLowRtt;  //!< hyper-active count as the HPCC ns-3 simulator's

    // State
    uint64_t m_lineRate{0};      //!< bit/s
    uint64_t m_rate{0};          //!< bit/s
    double m_rttDiff{0};         //!< seconds
    Time m_prevRtt;              //!< RTT at the previous update
    bool m_havePrev{false};      //!< m_prevRtt is valid
    uint32_t m_increases{0};     //!< increases in a row
    uint32_t m_nonPositive{0};   //!< updates in a row with a gradient <= 0
    Time m_gradientRtt;          //!< minRTT in effect
    uint64_t m_lastUpdateSeq{0}; //!< next update when an ACK passes it
    uint64_t m_segmentBytes{0};  //!< acknowledged bytes between updates; 0 = per RTT
};

} // namespace ns3

#endif /* MLFABRIC_CC_TIMELY_H */
