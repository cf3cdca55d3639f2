/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cc-timely.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CcTimely");
NS_OBJECT_ENSURE_REGISTERED(CcTimely);

TypeId
CcTimely::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CcTimely")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Mlfabric")
            .AddConstructor<CcTimely>()
            .AddAttribute("Alpha",
                          "EWMA weight of the newest RTT difference; range [0, 1]; "
                          "default 0.875",
                          DoubleValue(0.875),
                          MakeDoubleAccessor(&CcTimely::m_alpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Beta",
                          "Multiplicative-decrease factor beta; range [0, 1]; default 0.8",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&CcTimely::m_beta),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AiRate",
                          "delta: additive increase step, bit/s; default 10 Mb/s",
                          DataRateValue(DataRate("10Mb/s")),
                          MakeDataRateAccessor(&CcTimely::m_ai),
                          MakeDataRateChecker())
            .AddAttribute("HaiRate",
                          "Hyper-active increase step, bit/s; default 50 Mb/s (N = 5 times "
                          "delta)",
                          DataRateValue(DataRate("50Mb/s")),
                          MakeDataRateAccessor(&CcTimely::m_hai),
                          MakeDataRateChecker())
            .AddAttribute("HaiThreshold",
                          "Increases in a row after which increases use the hyper-active "
                          "step; range [1, 1000]; default 5",
                          UintegerValue(5),
                          MakeUintegerAccessor(&CcTimely::m_haiAfter),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("TLow",
                          "T_low: RTTs below it always increase the rate; default 50 us",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&CcTimely::m_tLow),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("THigh",
                          "T_high: RTTs above it always decrease the rate; >= 1 ns; "
                          "default 500 us",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&CcTimely::m_tHigh),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("SegmentBytes",
                          "The rate is updated once per this many acknowledged bytes, the "
                          "paper's completion events of 16-64 KB segments; 0 updates once "
                          "per round trip, as the HPCC ns-3 simulator does; default 64 KiB",
                          UintegerValue(64 * 1024),
                          MakeUintegerAccessor(&CcTimely::m_segmentBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("MinRtt",
                          "minRTT: normalises the RTT gradient; 0 (default) takes the "
                          "queue pair's base RTT, the paper's minimum RTT of the path",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&CcTimely::m_minRtt),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CountLowRttIncreases",
                          "Count every increase, those below T_low included, towards the "
                          "hyper-active step, as the HPCC ns-3 simulator does; false "
                          "(default): count updates with a gradient <= 0 in a row "
                          "(Algorithm 1)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CcTimely::m_countLowRtt),
                          MakeBooleanChecker())
            .AddAttribute("MinRate",
                          "Rate floor, bit/s; default 100 Mb/s",
                          DataRateValue(DataRate("100Mb/s")),
                          MakeDataRateAccessor(&CcTimely::m_minRate),
                          MakeDataRateChecker());
    return tid;
}

std::string
CcTimely::GetName() const
{
    return "timely";
}

bool
CcTimely::NeedsTimestamp() const
{
    return true;
}

void
CcTimely::Init(CcQueuePairView* qp)
{
    RdmaCongestionOps::Init(qp);
    m_lineRate = qp->GetLineRateBps();
    m_rate = m_lineRate;
    m_rttDiff = 0;
    m_havePrev = false;
    m_increases = 0;
    m_nonPositive = 0;
    m_lastUpdateSeq = 0;
    m_gradientRtt = m_minRtt.IsStrictlyPositive() ? m_minRtt : qp->GetBaseRtt();
    if (!m_gradientRtt.IsStrictlyPositive())
    {
        m_gradientRtt = MicroSeconds(20); // a view without a base RTT: the paper's figure
    }
    ApplyRate(m_rate);
    ApplyWindow(0);
}

double
CcTimely::GetRttDiff() const
{
    return m_rttDiff;
}

uint64_t
CcTimely::GetCurrentRate() const
{
    return m_rate;
}

uint32_t
CcTimely::GetIncreaseCount() const
{
    return m_increases;
}

uint32_t
CcTimely::GetNonPositiveGradientCount() const
{
    return m_nonPositive;
}

Time
CcTimely::GetMinRtt() const
{
    return m_gradientRtt;
}

void
CcTimely::OnNack(const AckSample& ack)
{
    OnAck(ack);
}

void
CcTimely::OnTimeout()
{
    if (m_qp == nullptr)
    {
        return;
    }
    Decrease(1 - m_beta);
    m_nonPositive = 0;
    m_havePrev = false;
    m_rttDiff = 0;
}

void
CcTimely::OnAck(const AckSample& ack)
{
    if (m_qp == nullptr || !ack.rtt.IsStrictlyPositive())
    {
        return;
    }
    if (m_havePrev && ack.ackedSeq <= m_lastUpdateSeq)
    {
        return; // one update per segment, or per round trip
    }
    m_lastUpdateSeq = m_segmentBytes > 0 ? ack.ackedSeq + m_segmentBytes - 1 : m_qp->GetSndNxt();
    const Time rtt = ack.rtt;
    if (!m_havePrev)
    {
        m_prevRtt = rtt;
        m_havePrev = true;
        return;
    }
    const double newDiff = (rtt - m_prevRtt).GetSeconds();
    m_prevRtt = rtt;
    m_rttDiff = (1 - m_alpha) * m_rttDiff + m_alpha * newDiff;
    const double gradient = m_rttDiff / m_gradientRtt.GetSeconds();
    m_nonPositive = gradient <= 0 ? m_nonPositive + 1 : 0;
    NS_LOG_LOGIC(this << " rtt " << rtt.As(Time::US) << " gradient " << gradient);

    if (rtt < m_tLow)
    {
        m_rate = std::min(m_lineRate, m_rate + m_ai.GetBitRate());
        ++m_increases;
        ApplyRate(m_rate);
    }
    else if (rtt > m_tHigh)
    {
        Decrease(1 - m_beta * (1 - m_tHigh.GetSeconds() / rtt.GetSeconds()));
    }
    else if (gradient <= 0)
    {
        Increase();
    }
    else
    {
        Decrease(1 - m_beta * gradient);
    }
}

void
CcTimely::Increase()
{
    const bool hyper = m_countLowRtt ? m_increases >= m_haiAfter : m_nonPositive > m_haiAfter;
    const uint64_t step = hyper ? m_hai.GetBitRate() : m_ai.GetBitRate();
    m_rate = std::min(m_lineRate, m_rate + step);
    ++m_increases;
    ApplyRate(m_rate);
}

void
CcTimely::Decrease(double factor)
{
    const uint64_t floor = std::min(m_minRate.GetBitRate(), m_lineRate);
    const auto cut = static_cast<uint64_t>(std::llround(m_rate * std::clamp(factor, 0.0, 1.0)));
    m_rate = std::max(floor, cut);
    m_increases = 0;
    ApplyRate(m_rate);
}

} // namespace ns3
