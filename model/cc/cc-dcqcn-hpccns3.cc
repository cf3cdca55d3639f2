/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cc-dcqcn-hpccns3.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CcDcqcnHpccNs3");
NS_OBJECT_ENSURE_REGISTERED(CcDcqcnHpccNs3);

TypeId
CcDcqcnHpccNs3::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CcDcqcnHpccNs3")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Mlfabric")
            .AddConstructor<CcDcqcnHpccNs3>()
            .AddAttribute("Gain",
                          "Gain g of the alpha EWMA (EWMA_GAIN); range (0, 1]; default 1/16 "
                          "(the peer's RdmaHw default)",
                          DoubleValue(1.0 / 16),
                          MakeDoubleAccessor(&CcDcqcnHpccNs3::m_g),
                          MakeDoubleChecker<double>(std::numeric_limits<double>::min(), 1.0))
            .AddAttribute("AlphaInterval",
                          "Alpha update slot (ALPHA_RESUME_INTERVAL); >= 1 ns; default 55 us",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&CcDcqcnHpccNs3::m_alphaInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("DecreaseInterval",
                          "Rate-decrease check slot (RATE_DECREASE_INTERVAL); >= 1 ns; "
                          "default 4 us",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&CcDcqcnHpccNs3::m_decreaseInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("IncreaseTimer",
                          "Rate-increase timer period (RP_TIMER); >= 1 ns; default 1500 us "
                          "(the peer's RdmaHw default)",
                          TimeValue(MicroSeconds(1500)),
                          MakeTimeAccessor(&CcDcqcnHpccNs3::m_timerPeriod),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("FastRecoverySteps",
                          "F (FAST_RECOVERY_TIMES): increase events in fast recovery; "
                          "range [0, 1000]; default 5",
                          UintegerValue(5),
                          MakeUintegerAccessor(&CcDcqcnHpccNs3::m_fastRecovery),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("RateAi",
                          "R_AI (RATE_AI): target-rate step of additive increase, bit/s; "
                          "default 5 Mb/s",
                          DataRateValue(DataRate("5Mb/s")),
                          MakeDataRateAccessor(&CcDcqcnHpccNs3::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("RateHai",
                          "R_HAI (RATE_HAI): target-rate step of hyper increase, bit/s; "
                          "default 50 Mb/s",
                          DataRateValue(DataRate("50Mb/s")),
                          MakeDataRateAccessor(&CcDcqcnHpccNs3::m_rateHai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Floor of the current rate (MIN_RATE), bit/s; default 100 Mb/s",
                          DataRateValue(DataRate("100Mb/s")),
                          MakeDataRateAccessor(&CcDcqcnHpccNs3::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("ClampTargetRate",
                          "CLAMP_TARGET_RATE: set R_T = R_C on every cut; when false "
                          "(default) R_T is kept if no increase happened since the last cut",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CcDcqcnHpccNs3::m_clampTarget),
                          MakeBooleanChecker())
            .AddAttribute("RateOnFirstCnp",
                          "Fraction of the rate kept when the first signal arrives; "
                          "range (0, 1]; default 1",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&CcDcqcnHpccNs3::m_rateOnFirstCnp),
                          MakeDoubleChecker<double>(std::numeric_limits<double>::min(), 1.0));
    return tid;
}

std::string
CcDcqcnHpccNs3::GetName() const
{
    return "dcqcn-hpccns3";
}

void
CcDcqcnHpccNs3::Init(CcQueuePairView* qp)
{
    RdmaCongestionOps::Init(qp);
    m_lineRate = qp->GetLineRateBps();
    m_rate = m_lineRate;
    m_target = m_lineRate;
    m_started = false;
    m_alpha = 1.0;
    m_stage = 0;
    ApplyRate(m_rate);
    ApplyWindow(0);
}

void
CcDcqcnHpccNs3::Stop()
{
    m_alphaEvent.Cancel();
    m_decreaseEvent.Cancel();
    m_timer.Cancel();
    RdmaCongestionOps::Stop();
}

void
CcDcqcnHpccNs3::DoDispose()
{
    m_alphaEvent.Cancel();
    m_decreaseEvent.Cancel();
    m_timer.Cancel();
    m_qp = nullptr;
    RdmaCongestionOps::DoDispose();
}

double
CcDcqcnHpccNs3::GetAlpha() const
{
    if (!m_started)
    {
        return m_alpha;
    }
    double alpha = m_alpha;
    Time slot = m_alphaSlot;
    bool signal = m_alphaSignal;
    AdvanceAlpha(alpha, slot, signal);
    return alpha;
}

uint64_t
CcDcqcnHpccNs3::GetCurrentRate() const
{
    return m_rate;
}

uint64_t
CcDcqcnHpccNs3::GetTargetRate() const
{
    return m_target;
}

uint32_t
CcDcqcnHpccNs3::GetStage() const
{
    return m_stage;
}

void
CcDcqcnHpccNs3::AdvanceAlpha(double& alpha, Time& slotStart, bool& signalInSlot) const
{
    int64_t ended = (Simulator::Now() - slotStart).GetTimeStep() / m_alphaInterval.GetTimeStep();
    if (ended <= 0)
    {
        return;
    }
    if (signalInSlot)
    {
        alpha = (1 - m_g) * alpha + m_g;
        signalInSlot = false;
        slotStart += m_alphaInterval;
        --ended;
    }
    alpha *= std::pow(1 - m_g, static_cast<double>(ended));
    slotStart += m_alphaInterval * ended;
}

void
CcDcqcnHpccNs3::OnAck(const AckSample& ack)
{
    if (ack.ecnEcho)
    {
        Signal();
    }
}

void
CcDcqcnHpccNs3::OnNack(const AckSample& ack)
{
    if (ack.ecnEcho)
    {
        Signal();
    }
}

void
CcDcqcnHpccNs3::OnCnp()
{
    Signal();
}

void
CcDcqcnHpccNs3::Signal()
{
    if (m_qp == nullptr)
    {
        return;
    }
    const Time now = Simulator::Now();
    if (!m_started)
    {
        NS_LOG_FUNCTION(this << "first signal");
        m_started = true;
        // The first signal initialises alpha and is not counted in its first slot.
        m_alpha = 1.0;
        m_alphaSlot = now;
        m_alphaSignal = false;
        // Cuts follow alpha updates by 1 ns, so a cut sees the alpha of its instant.
        m_decreaseOrigin = now + NanoSeconds(1);
        m_decreaseSignal = true;
        const auto kept = static_cast<uint64_t>(std::llround(m_rateOnFirstCnp * m_rate));
        m_rate = std::max<uint64_t>(kept, 1);
        m_target = m_rate;
        ScheduleDecrease();
        ApplyRate(m_rate);
        return;
    }
    AdvanceAlpha(m_alpha, m_alphaSlot, m_alphaSignal);
    if (!m_alphaSignal)
    {
        m_alphaSignal = true;
        m_alphaEvent.Cancel();
        m_alphaEvent = Simulator::Schedule(
            m_alphaSlot + m_alphaInterval - now, &CcDcqcnHpccNs3::AlphaSlotEnd, this);
    }
    if (!m_decreaseSignal)
    {
        m_decreaseSignal = true;
        ScheduleDecrease();
    }
}

void
CcDcqcnHpccNs3::AlphaSlotEnd()
{
    AdvanceAlpha(m_alpha, m_alphaSlot, m_alphaSignal);
}

void
CcDcqcnHpccNs3::ScheduleDecrease()
{
    const Time now = Simulator::Now();
    const int64_t step = m_decreaseInterval.GetTimeStep();
    const int64_t k = std::max<int64_t>(1, (now - m_decreaseOrigin).GetTimeStep() / step + 1);
    m_decreaseEvent.Cancel();
    m_decreaseEvent = Simulator::Schedule(
        m_decreaseOrigin + m_decreaseInterval * k - now, &CcDcqcnHpccNs3::DecreaseSlotEnd, this);
}

void
CcDcqcnHpccNs3::DecreaseSlotEnd()
{
    AdvanceAlpha(m_alpha, m_alphaSlot, m_alphaSignal);
    m_decreaseSignal = false;
    if (m_clampTarget || m_stage != 0)
    {
        m_target = m_rate;
    }
    const uint64_t floor = std::min(m_minRate.GetBitRate(), m_lineRate);
    const auto cut = static_cast<uint64_t>(std::llround(m_rate * (1 - m_alpha / 2)));
    m_rate = std::max(floor, cut);
    m_stage = 0;
    NS_LOG_LOGIC(this << " cut to " << m_rate << " alpha " << m_alpha);
    m_timer.Cancel();
    m_timer = Simulator::Schedule(m_timerPeriod, &CcDcqcnHpccNs3::TimerExpired, this);
    ApplyRate(m_rate);
}

void
CcDcqcnHpccNs3::TimerExpired()
{
    if (m_stage == m_fastRecovery)
    {
        m_target += m_rateAi.GetBitRate();
    }
    else if (m_stage > m_fastRecovery)
    {
        m_target += m_rateHai.GetBitRate();
    }
    m_target = std::min(m_target, m_lineRate);
    // Round up so that R_C reaches R_T instead of stalling one bit/s below it.
    m_rate = std::min(m_lineRate, (m_rate + m_target + 1) / 2);
    ++m_stage;
    ApplyRate(m_rate);
    // At line rate further events change nothing until the next cut restarts the timer.
    if (m_rate < m_lineRate || m_target < m_lineRate)
    {
        m_timer = Simulator::Schedule(m_timerPeriod, &CcDcqcnHpccNs3::TimerExpired, this);
    }
}

} // namespace ns3
