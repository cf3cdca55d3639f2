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
 * gradient = rtt_diff / MinRtt. RTT < T_low: rate += delta. RTT > T_high:
 * rate *= 1 - beta (1 - T_high / RTT). Otherwise a gradient <= 0 increases the rate
 * (by the hyper-active step once HaiThreshold increases in a row have been made,
 * else by delta) and a positive gradient gives rate *= 1 - beta gradient.
 * The rate stays in [MinRate, line rate].
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
    bool NeedsTimestamp() const override;

    /** \return the smoothed RTT difference, seconds */
    double GetRttDiff() const;
    /** \return the current rate, bit/s */
    uint64_t GetCurrentRate() const;
    /** \return increases made in a row */
    uint32_t GetIncreaseCount() const;

  private:
    /** Increase by delta, or by the hyper-active step after enough increases in a row. */
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
    Time m_minRtt;       //!< normalises the gradient
    DataRate m_minRate;  //!< rate floor

    // State
    uint64_t m_lineRate{0};      //!< bit/s
    uint64_t m_rate{0};          //!< bit/s
    double m_rttDiff{0};         //!< seconds
    Time m_prevRtt;              //!< RTT at the previous update
    bool m_havePrev{false};      //!< m_prevRtt is valid
    uint32_t m_increases{0};     //!< increases in a row
    uint64_t m_lastUpdateSeq{0}; //!< next update when an ACK passes it
    uint64_t m_segmentBytes{0};  //!< acknowledged bytes between updates; 0 = per RTT
};

} // namespace ns3

#endif /* MLFABRIC_CC_TIMELY_H */
