/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cc-nscc.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CcNscc");
NS_OBJECT_ENSURE_REGISTERED(CcNscc);

namespace
{
// The reference network the htsim model scales its constants from: 100 Gb/s x 12 us.
constexpr double kReferenceBdpBytes = 150000;
constexpr double kReferenceRttPs = 12e6;
} // namespace

TypeId
CcNscc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CcNscc")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Mlfabric")
            .AddConstructor<CcNscc>()
            .AddAttribute("TargetQueueDelay",
                          "Target queueing delay (RTT less the unloaded RTT); 0 (default): "
                          "the path's unloaded RTT, as the UEC htsim model sets it",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&CcNscc::m_targetAttr),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Gamma",
                          "Multiplicative-decrease gain on (avg delay - target) / avg delay; "
                          "range [0, 1]; default 0.8",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&CcNscc::m_gamma),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("DelayEwmaGain",
                          "Gain of the delay's moving average; range (0, 1]; default 0.0125",
                          DoubleValue(0.0125),
                          MakeDoubleAccessor(&CcNscc::m_ewmaGain),
                          MakeDoubleChecker<double>(1e-9, 1.0))
            .AddAttribute("QuickAdaptFactor",
                          "QuickAdapt when the average delay exceeds this many targets; "
                          "range [1, 1000]; default 4",
                          DoubleValue(4.0),
                          MakeDoubleAccessor(&CcNscc::m_qaFactor),
                          MakeDoubleChecker<double>(1.0, 1000.0))
            .AddAttribute("QuickAdaptGate",
                          "QuickAdapt only if the last period acknowledged less than "
                          "MaxWindow / 2^gate; range [0, 16]; default 3",
                          UintegerValue(3),
                          MakeUintegerAccessor(&CcNscc::m_qaGate),
                          MakeUintegerChecker<uint32_t>(0, 16))
            .AddAttribute("FastIncreaseDelay",
                          "Fast increase after a window of ACKs whose delay is below this; "
                          "default 1 us",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&CcNscc::m_fastDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("AdjustMss",
                          "An adjustment period ends after this many MSS acknowledged or one "
                          "unloaded RTT; range [1, 1024]; default 8",
                          UintegerValue(8),
                          MakeUintegerAccessor(&CcNscc::m_adjustMss),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("MinWindow",
                          "Smallest window, in MSS (the queue pair's MTU); range [0.01, 1e6]; "
                          "default 1",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&CcNscc::m_minWindowMss),
                          MakeDoubleChecker<double>(0.01, 1e6));
    return tid;
}

std::string
CcNscc::GetName() const
{
    return "nscc";
}

bool
CcNscc::NeedsTimestamp() const
{
    return true;
}

double
CcNscc::GetCwnd() const
{
    return m_cwnd;
}

Time
CcNscc::GetTarget() const
{
    return m_target;
}

double
CcNscc::GetScale() const
{
    return m_a;
}

double
CcNscc::GetMaxWindow() const
{
    return m_maxWnd;
}

void
CcNscc::Init(CcQueuePairView* qp)
{
    RdmaCongestionOps::Init(qp);
    m_mss = std::max<uint32_t>(qp->GetMtuBytes(), 1);
    m_baseRtt = qp->GetBaseRtt();
    // In whole picoseconds, so that round paths give round windows.
    const double bdp =
        static_cast<double>(qp->GetLineRateBps()) * m_baseRtt.GetPicoSeconds() / 8e12;
    m_a = bdp / kReferenceBdpBytes;
    m_target = m_targetAttr.IsStrictlyPositive() ? m_targetAttr : m_baseRtt;
    const double target = std::max(m_target.GetSeconds(), 1e-12);
    const double b = m_target.GetPicoSeconds() / kReferenceRttPs;
    m_alpha = 4 * m_mss * m_a * b / target;
    m_fi = 5 * m_mss * m_a;
    m_eta = 0.15 * m_mss * m_a;
    m_maxWnd = 1.5 * bdp;
    m_minWnd = m_minWindowMss * m_mss;
    m_cwnd = bdp;
    m_inc = 0;
    m_haveDelay = false;
    m_periodAcked = 0;
    m_periodStart = Simulator::Now();
    m_lowDelayRun = 0;
    m_lastDecrease = Time(-1);
    m_lastQuickAdapt = Time(-1);
    qp->SetRateBps(qp->GetLineRateBps());
    Apply();
}

void
CcNscc::OnAck(const AckSample& ack)
{
    if (!m_qp || ack.newlyAcked == 0)
    {
        return;
    }
    const double acked = static_cast<double>(ack.newlyAcked);
    const Time delay = ack.rtt.IsStrictlyPositive() ? Max(ack.rtt - m_baseRtt, Time(0)) : Time(0);
    const double d = delay.GetSeconds();
    m_avgDelay = m_haveDelay ? (1 - m_ewmaGain) * m_avgDelay + m_ewmaGain * d : d;
    m_haveDelay = true;
    const Time now = Simulator::Now();

    if (!ack.ecnEcho && delay < m_target)
    {
        m_inc += m_alpha * acked * (m_target - delay).GetSeconds();
        m_lowDelayRun = delay < m_fastDelay ? m_lowDelayRun + ack.newlyAcked : 0;
        if (m_lowDelayRun > m_cwnd)
        {
            m_cwnd += 0.25 * m_a * acked;
        }
    }
    else if (!ack.ecnEcho)
    {
        m_inc += m_fi * acked;
        m_lowDelayRun = 0;
    }
    else if (delay >= m_target)
    {
        m_lowDelayRun = 0;
        if (m_lastDecrease.IsStrictlyNegative() || now - m_lastDecrease >= m_baseRtt)
        {
            const double avg = std::max(m_avgDelay, m_target.GetSeconds());
            const double factor = std::max(1 - m_gamma * (avg - m_target.GetSeconds()) / avg, 0.5);
            m_cwnd *= factor;
            m_lastDecrease = now;
        }
    }
    else
    {
        m_lowDelayRun = 0; // marked below target: the window holds
    }

    m_periodAcked += ack.newlyAcked;
    if (m_periodAcked >= m_adjustMss * m_mss || now - m_periodStart >= m_baseRtt)
    {
        Adjust();
    }
    Apply();
}

void
CcNscc::Adjust()
{
    if (m_avgDelay > m_qaFactor * m_target.GetSeconds() && QuickAdapt())
    {
        return;
    }
    m_cwnd += m_inc / std::max(m_cwnd, 1.0) + m_eta;
    m_inc = 0;
    m_periodAcked = 0;
    m_periodStart = Simulator::Now();
}

bool
CcNscc::QuickAdapt()
{
    const Time now = Simulator::Now();
    const double achieved = static_cast<double>(m_periodAcked);
    if ((!m_lastQuickAdapt.IsStrictlyNegative() && now - m_lastQuickAdapt < m_baseRtt) ||
        achieved >= m_maxWnd / std::ldexp(1.0, static_cast<int>(m_qaGate)))
    {
        return false;
    }
    m_cwnd = std::max(achieved, m_minWnd);
    m_lastQuickAdapt = now;
    m_inc = 0;
    m_periodAcked = 0;
    m_periodStart = now;
    return true;
}

void
CcNscc::OnNack(const AckSample& ack)
{
    if (!m_qp)
    {
        return;
    }
    m_cwnd -= m_mss;
    QuickAdapt();
    Apply();
}

void
CcNscc::OnTimeout()
{
    if (!m_qp)
    {
        return;
    }
    m_cwnd = m_minWnd;
    m_inc = 0;
    Apply();
}

void
CcNscc::Apply()
{
    m_cwnd = std::clamp(m_cwnd, m_minWnd, m_maxWnd);
    ApplyWindow(static_cast<uint64_t>(std::ceil(m_cwnd)));
}

} // namespace ns3
