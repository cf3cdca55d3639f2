/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cc-dcqcn.h"

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

NS_LOG_COMPONENT_DEFINE("CcDcqcn");
NS_OBJECT_ENSURE_REGISTERED(CcDcqcn);

TypeId
CcDcqcn::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CcDcqcn")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Mlfabric")
            .AddConstructor<CcDcqcn>()
            .AddAttribute("Gain",
                          "Gain g of the alpha EWMA; range (0, 1]; default 1/256 (paper)",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&CcDcqcn::m_g),
                          MakeDoubleChecker<double>(std::numeric_limits<double>::min(), 1.0))
            .AddAttribute("AlphaInterval",
                          "K: alpha decays by (1 - g) once per interval without a CNP; "
                          ">= 1 ns; default 55 us (paper)",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&CcDcqcn::m_alphaInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("IncreaseTimer",
                          "T: period of the rate-increase timer; >= 1 ns; default 55 us (paper)",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&CcDcqcn::m_timerPeriod),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ByteCounter",
                          "B: bytes sent per byte-counter increase event; 0 disables the "
                          "byte counter (the timer alone then never reaches hyper increase); "
                          "default 10000000 bytes (paper: 10 MB)",
                          UintegerValue(10000000),
                          MakeUintegerAccessor(&CcDcqcn::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("FastRecoverySteps",
                          "F: increase events spent in fast recovery before additive "
                          "increase; range [0, 1000]; default 5 (paper)",
                          UintegerValue(5),
                          MakeUintegerAccessor(&CcDcqcn::m_fastRecovery),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("RateAi",
                          "R_AI: target-rate step of additive increase, bit/s; 0 (default) "
                          "scales it with the line rate, line rate / 1000: the paper's "
                          "40 Mb/s at its 40 Gb/s, 100 Mb/s at 100 Gb/s",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&CcDcqcn::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("RateHai",
                          "R_HAI: target-rate step of hyper increase, bit/s; 0 (default) "
                          "is 10 R_AI (the ratio of the Mellanox and HPCC-ns3 defaults)",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&CcDcqcn::m_rateHai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Floor of the current rate, bit/s; default 100 Mb/s",
                          DataRateValue(DataRate("100Mb/s")),
                          MakeDataRateAccessor(&CcDcqcn::m_minRate),
                          MakeDataRateChecker());
    return tid;
}

std::string
CcDcqcn::GetName() const
{
    return "dcqcn";
}

void
CcDcqcn::Init(CcQueuePairView* qp)
{
    RdmaCongestionOps::Init(qp);
    m_lineRate = qp->GetLineRateBps();
    m_aiBps = m_rateAi.GetBitRate() > 0 ? m_rateAi.GetBitRate() : m_lineRate / 1000;
    m_haiBps = m_rateHai.GetBitRate() > 0 ? m_rateHai.GetBitRate() : 10 * m_aiBps;
    m_rate = m_lineRate;
    m_target = m_lineRate;
    m_alpha = 1.0;
    m_alphaStamp = Simulator::Now();
    m_cnpSeen = false;
    m_timerCount = 0;
    m_bcCount = 0;
    m_bytes = 0;
    ApplyRate(m_rate);
    ApplyWindow(0);
}

void
CcDcqcn::Stop()
{
    m_timer.Cancel();
    RdmaCongestionOps::Stop();
}

void
CcDcqcn::DoDispose()
{
    m_timer.Cancel();
    m_qp = nullptr;
    RdmaCongestionOps::DoDispose();
}

bool
CcDcqcn::NeedsCnp() const
{
    return true;
}

double
CcDcqcn::GetAlpha() const
{
    if (!m_cnpSeen)
    {
        return m_alpha;
    }
    // Equivalent to a timer restarted at every CNP, without its events.
    const int64_t periods =
        (Simulator::Now() - m_alphaStamp).GetTimeStep() / m_alphaInterval.GetTimeStep();
    return m_alpha * std::pow(1.0 - m_g, static_cast<double>(periods));
}

void
CcDcqcn::DecayAlpha()
{
    if (!m_cnpSeen)
    {
        return;
    }
    const int64_t periods =
        (Simulator::Now() - m_alphaStamp).GetTimeStep() / m_alphaInterval.GetTimeStep();
    m_alpha *= std::pow(1.0 - m_g, static_cast<double>(periods));
    m_alphaStamp += m_alphaInterval * periods;
}

uint64_t
CcDcqcn::GetCurrentRate() const
{
    return m_rate;
}

uint64_t
CcDcqcn::GetTargetRate() const
{
    return m_target;
}

uint32_t
CcDcqcn::GetTimerCount() const
{
    return m_timerCount;
}

uint32_t
CcDcqcn::GetByteCounterCount() const
{
    return m_bcCount;
}

bool
CcDcqcn::AtLineRate() const
{
    return m_rate >= m_lineRate && m_target >= m_lineRate;
}

void
CcDcqcn::OnCnp()
{
    if (m_qp == nullptr)
    {
        return;
    }
    NS_LOG_FUNCTION(this);
    DecayAlpha();
    // The cut uses alpha before this CNP's update (paper, eq. 1).
    const uint64_t floor = std::min(m_minRate.GetBitRate(), m_lineRate);
    m_target = m_rate;
    const auto cut = static_cast<uint64_t>(std::llround(m_rate * (1.0 - m_alpha / 2)));
    m_rate = std::max(floor, cut);
    m_alpha = (1 - m_g) * m_alpha + m_g;
    m_alphaStamp = Simulator::Now();
    m_cnpSeen = true;

    m_timerCount = 0;
    m_bcCount = 0;
    m_bytes = 0;
    m_timer.Cancel();
    m_timer = Simulator::Schedule(m_timerPeriod, &CcDcqcn::TimerExpired, this);
    ApplyRate(m_rate);
}

void
CcDcqcn::OnSend(uint32_t payloadBytes)
{
    if (m_qp == nullptr || m_byteCounter == 0 || !m_cnpSeen || AtLineRate())
    {
        return;
    }
    m_bytes += payloadBytes;
    while (m_bytes >= m_byteCounter)
    {
        m_bytes -= m_byteCounter;
        ++m_bcCount;
        Increase();
    }
}

void
CcDcqcn::TimerExpired()
{
    ++m_timerCount;
    Increase();
    // At line rate further events change nothing until the next CNP restarts the timer.
    if (!AtLineRate())
    {
        m_timer = Simulator::Schedule(m_timerPeriod, &CcDcqcn::TimerExpired, this);
    }
}

void
CcDcqcn::Increase()
{
    // A disabled byte counter never counts, so the timer alone stops at additive increase.
    const uint32_t bc = m_byteCounter > 0 ? m_bcCount : 0;
    const uint32_t most = std::max(m_timerCount, bc);
    const uint32_t least = std::min(m_timerCount, bc);
    if (most <= m_fastRecovery)
    {
        NS_LOG_LOGIC(this << " fast recovery");
    }
    else if (least > m_fastRecovery)
    {
        NS_LOG_LOGIC(this << " hyper increase " << least - m_fastRecovery);
        m_target += (least - m_fastRecovery) * m_haiBps;
    }
    else
    {
        NS_LOG_LOGIC(this << " additive increase");
        m_target += m_aiBps;
    }
    m_target = std::min(m_target, m_lineRate);
    // Round up so that R_C reaches R_T instead of stalling one bit/s below it.
    m_rate = std::min(m_lineRate, (m_rate + m_target + 1) / 2);
    ApplyRate(m_rate);
}

} // namespace ns3
