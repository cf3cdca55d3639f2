/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CC_DCQCN_HPCCNS3_H
#define MLFABRIC_CC_DCQCN_HPCCNS3_H

#include "ns3/congestion-ops.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"

namespace ns3
{

/**
 * \ingroup mlfabric-cc
 * DCQCN as the HPCC ns-3 simulator models it (its CC_MODE 1, "Mellanox DCQCN"), for
 * side-by-side runs with published results of that simulator.
 *
 * Differences from CcDcqcn: the congestion signal is the ECN echo of an ACK (a CNP,
 * if one arrives, counts the same); the first signal sets alpha = 1 and
 * R_T = R_C = RateOnFirstCnp R_C and starts two slotted clocks. Alpha is updated at the
 * end of every AlphaInterval slot, (1 - g) alpha + g if a signal arrived in the slot,
 * (1 - g) alpha otherwise. The rate is cut at the end of every DecreaseInterval slot
 * (offset 1 ns after the alpha slots) in which a signal arrived:
 * R_T = R_C (unless ClampTargetRate is false and no increase happened since the last
 * cut), R_C = max(MinRate, R_C (1 - alpha/2)), and the increase timer restarts.
 * Increases come from the timer only (no byte counter): stage < F fast recovery,
 * stage == F additive (R_T += R_AI), stage > F hyper (R_T += R_HAI); R_T is capped
 * at line rate and R_C = (R_C + R_T)/2.
 *
 * Slots without a signal are applied when next needed rather than by events, so an
 * idle queue pair costs no events; the result is the same as the peer's free-running
 * timers.
 */
class CcDcqcnHpccNs3 : public RdmaCongestionOps
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
    void OnAck(const AckSample& ack) override;
    void OnNack(const AckSample& ack) override;
    void OnCnp() override;

    /** \return alpha now, including the slots that ended since its last update */
    double GetAlpha() const;
    /** \return the current rate R_C, bit/s */
    uint64_t GetCurrentRate() const;
    /** \return the target rate R_T, bit/s */
    uint64_t GetTargetRate() const;
    /** \return increase events since the last cut */
    uint32_t GetStage() const;

  protected:
    /** Cancel the alpha, rate-decrease and increase timers and drop the queue pair. */
    void DoDispose() override;

  private:
    /** A congestion signal (CNP or ECN-echo ACK) arrived. */
    void Signal();
    /**
     * Alpha after the slots that ended by now.
     * \param[in,out] alpha alpha at the start of slot slotStart
     * \param[in,out] slotStart start of the oldest unprocessed slot
     * \param[in,out] signalInSlot whether that slot saw a signal
     */
    void AdvanceAlpha(double& alpha, Time& slotStart, bool& signalInSlot) const;
    /** End of an alpha slot that saw a signal. */
    void AlphaSlotEnd();
    /** End of a decrease slot that saw a signal: cut the rate. */
    void DecreaseSlotEnd();
    /** Schedule the end of the current decrease slot. */
    void ScheduleDecrease();
    /** The increase timer expired. */
    void TimerExpired();

    // Attributes
    double m_g;              //!< alpha gain
    Time m_alphaInterval;    //!< alpha slot length
    Time m_decreaseInterval; //!< decrease slot length
    Time m_timerPeriod;      //!< rate-increase timer period
    uint32_t m_fastRecovery; //!< F
    DataRate m_rateAi;       //!< R_AI
    DataRate m_rateHai;      //!< R_HAI
    DataRate m_minRate;      //!< floor of R_C
    bool m_clampTarget;      //!< always set R_T = R_C on a cut
    double m_rateOnFirstCnp; //!< fraction of R_C kept on the first signal

    // State
    uint64_t m_lineRate{0};       //!< bit/s
    uint64_t m_rate{0};           //!< R_C, bit/s
    uint64_t m_target{0};         //!< R_T, bit/s
    bool m_started{false};        //!< a signal has arrived; the clocks run
    double m_alpha{1.0};          //!< alpha at the start of m_alphaSlot
    Time m_alphaSlot;             //!< start of the oldest unprocessed alpha slot
    bool m_alphaSignal{false};    //!< that slot saw a signal
    Time m_decreaseOrigin;        //!< decrease slots end at origin + k interval, k >= 1
    bool m_decreaseSignal{false}; //!< the current decrease slot saw a signal
    uint32_t m_stage{0};          //!< increase events since the last cut
    EventId m_alphaEvent;         //!< end of the alpha slot with a signal
    EventId m_decreaseEvent;      //!< end of the decrease slot with a signal
    EventId m_timer;              //!< the rate-increase timer
};

} // namespace ns3

#endif /* MLFABRIC_CC_DCQCN_HPCCNS3_H */
