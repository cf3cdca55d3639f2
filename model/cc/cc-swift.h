/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CC_SWIFT_H
#define MLFABRIC_CC_SWIFT_H

#include "ns3/congestion-ops.h"

namespace ns3
{

/**
 * \ingroup mlfabric-cc
 * Swift, as in Kumar et al., "Swift: Delay is Simple and Effective for Congestion
 * Control in the Datacenter", SIGCOMM 2020 (Algorithm 1, fabric delay only).
 *
 * cwnd is kept in packets (MTU payloads) and may fall below one packet, when the
 * queue pair is paced at cwnd MTU / RTT. The target delay is the unloaded RTT of the
 * path plus BaseTarget, plus PerHopTarget per switch hop, plus flow scaling
 * clamp(a / sqrt(cwnd) + b, 0, FsRange), with a and b chosen so that the flow
 * scaling is FsRange at FsMinCwnd and 0 at FsMaxCwnd. (The paper's base target
 * includes the unloaded RTT; adding the measured one lets one setting fit every path.)
 * An ACK whose RTT is below target adds AiPackets / cwnd per acknowledged packet
 * (AiPackets per packet below one packet); otherwise, at most once per RTT,
 * cwnd *= max(1 - Beta (1 - target / delay), 1 - MaxMdf). A NACK or a timeout cuts by
 * 1 - MaxMdf (at most once per RTT); RetxResetThreshold timeouts in a row reset cwnd
 * to MinCwnd.
 */
class CcSwift : public RdmaCongestionOps
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

    /** \return cwnd in packets */
    double GetCwnd() const;
    /**
     * \param cwnd a window in packets
     * \return the target delay for that window on this queue pair's path
     */
    Time GetTargetDelay(double cwnd) const;

  private:
    /** \return true if no decrease happened within the last RTT */
    bool CanDecrease() const;
    /** Multiply cwnd and remember when. \param factor the factor */
    void Cut(double factor);
    /** Clamp cwnd and hand window and pacing rate to the queue pair. */
    void Apply();

    // Attributes
    Time m_baseTarget;    //!< queueing allowed over the unloaded RTT
    Time m_perHop;        //!< h: per switch hop
    Time m_fsRange;       //!< flow-scaling range
    double m_fsMinCwnd;   //!< flow scaling is FsRange at and below this cwnd
    double m_fsMaxCwnd;   //!< flow scaling is 0 at and above this cwnd
    double m_ai;          //!< additive increase, packets per RTT
    double m_beta;        //!< multiplicative-decrease gain
    double m_maxMdf;      //!< largest multiplicative decrease
    double m_minCwnd;     //!< packets
    double m_maxCwnd;     //!< packets; 0 = line rate x target delay
    uint32_t m_retxReset; //!< timeouts in a row that reset cwnd

    // State
    uint64_t m_lineRate{0};  //!< bit/s
    uint32_t m_mtu{0};       //!< bytes per packet
    Time m_baseRtt;          //!< unloaded RTT of the path
    uint32_t m_hops{0};      //!< switch hops of the path
    double m_cwnd{1};        //!< packets
    double m_cwndCeiling{1}; //!< packets
    Time m_rtt;              //!< latest RTT sample
    Time m_lastDecrease;     //!< time of the latest decrease
    bool m_decreased{false}; //!< m_lastDecrease is valid
    uint32_t m_retxCount{0}; //!< timeouts in a row
};

} // namespace ns3

#endif /* MLFABRIC_CC_SWIFT_H */
