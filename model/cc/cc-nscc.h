/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CC_NSCC_H
#define MLFABRIC_CC_NSCC_H

#include "ns3/congestion-ops.h"

namespace ns3
{

/**
 * \ingroup mlfabric-cc
 * An NSCC-like sender window control: Ultra Ethernet's network-signal congestion
 * control, after the NSCC of the UEC htsim model (the UEC 1.0 text and its official
 * constants are not public; doc/congestion-control.md lists the sources).
 *
 * Every constant scales with the path: a = BDP / (100 Gb/s x 12 us), the target
 * queueing delay is TargetQueueDelay (0: the path's unloaded RTT), b = target / 12 us.
 * Per ACK, with delay = RTT - unloaded RTT and the ACK's ECN echo:
 * - unmarked, delay < target: inc += alpha x acked x (target - delay), alpha =
 *   4 MSS a b / target; after more than cwnd bytes acknowledged with delay below
 *   FastIncreaseDelay, cwnd += 0.25 a x acked at once (fast increase);
 * - unmarked, delay >= target: inc += 5 MSS a x acked (fair increase);
 * - marked, delay >= target: cwnd *= max(1 - Gamma (avg - target) / avg, 0.5), at most
 *   once per unloaded RTT, avg the delay's moving average (gain DelayEwmaGain);
 * - marked, delay < target: no change (the path, not the rate, is at fault).
 * Every unloaded RTT or 8 MSS acknowledged, cwnd += inc / cwnd + eta (eta = 0.15 MSS a)
 * and inc restarts. QuickAdapt: when avg exceeds QuickAdaptFactor x target, or a NACK
 * arrives, and what the last period acknowledged is below MaxWindow / 2^QuickAdaptGate,
 * cwnd drops to it (at most once per unloaded RTT). A NACK also takes one MSS off cwnd;
 * a timeout sets cwnd to MinWindow. cwnd stays in [MinWindow, 1.5 BDP]. The queue pair
 * is window-limited and sends at line rate.
 */
class CcNscc : public RdmaCongestionOps
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

    /** \return cwnd in bytes */
    double GetCwnd() const;
    /** \return the target queueing delay of this queue pair's path */
    Time GetTarget() const;
    /** \return the path's scale a = BDP / 150 kB */
    double GetScale() const;
    /** \return the largest window, 1.5 BDP, bytes */
    double GetMaxWindow() const;

  private:
    /** End an adjustment period: apply the increase, maybe QuickAdapt. */
    void Adjust();
    /** Drop cwnd to what the last period achieved, if the gate allows. \return done */
    bool QuickAdapt();
    /** Clamp cwnd and hand it to the queue pair. */
    void Apply();

    // Attributes
    Time m_targetAttr;     //!< TargetQueueDelay; 0 = the unloaded RTT
    double m_gamma;        //!< multiplicative-decrease gain
    double m_ewmaGain;     //!< delay moving-average gain
    double m_qaFactor;     //!< QuickAdapt threshold, multiples of the target
    uint32_t m_qaGate;     //!< QuickAdapt only below MaxWindow / 2^gate achieved
    Time m_fastDelay;      //!< fast increase below this delay
    uint32_t m_adjustMss;  //!< adjust after this many MSS acknowledged (or one RTT)
    double m_minWindowMss; //!< MinWindow, in MSS

    // Derived per path
    double m_mss{4096}; //!< bytes
    double m_a{1};      //!< BDP / 150 kB
    Time m_target;      //!< target queueing delay
    double m_alpha{0};  //!< proportional increase, bytes per second of headroom
    double m_fi{0};     //!< fair increase per acknowledged byte, bytes
    double m_eta{0};    //!< additive increase per period, bytes
    double m_maxWnd{0}; //!< 1.5 BDP, bytes
    double m_minWnd{0}; //!< bytes
    Time m_baseRtt;     //!< unloaded RTT

    // State
    double m_cwnd{0};                //!< bytes
    double m_inc{0};                 //!< increase gathered this period, bytes squared
    double m_avgDelay{0};            //!< seconds
    bool m_haveDelay{false};         //!< m_avgDelay holds a sample
    uint64_t m_periodAcked{0};       //!< bytes acknowledged this period
    Time m_periodStart;              //!< when this period began
    uint64_t m_lowDelayRun{0};       //!< bytes acknowledged in a row with delay < FastIncreaseDelay
    Time m_lastDecrease{Time(-1)};   //!< last multiplicative decrease
    Time m_lastQuickAdapt{Time(-1)}; //!< last QuickAdapt
};

} // namespace ns3

#endif /* MLFABRIC_CC_NSCC_H */
