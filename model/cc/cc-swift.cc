/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cc-swift.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CcSwift");
NS_OBJECT_ENSURE_REGISTERED(CcSwift);

TypeId
CcSwift::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CcSwift")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Mlfabric")
            .AddConstructor<CcSwift>()
            .AddAttribute("BaseTarget",
                          "Queueing delay the target allows over the path's unloaded RTT; "
                          ">= 0; default 5 us",
                          TimeValue(MicroSeconds(5)),
                          MakeTimeAccessor(&CcSwift::m_baseTarget),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PerHopTarget",
                          "h: target delay added per switch hop; >= 0; default 1 us",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&CcSwift::m_perHop),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FsRange",
                          "fs_range: largest flow-scaling addition to the target; >= 0 "
                          "(0 disables flow scaling); default 10 us",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&CcSwift::m_fsRange),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FsMinCwnd",
                          "fs_min_cwnd: window, packets, at and below which flow scaling "
                          "is FsRange; range [1e-6, 1e6]; default 0.1",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&CcSwift::m_fsMinCwnd),
                          MakeDoubleChecker<double>(1e-6, 1e6))
            .AddAttribute("FsMaxCwnd",
                          "fs_max_cwnd: window, packets, at and above which flow scaling "
                          "is 0; range [1e-6, 1e6]; default 100",
                          DoubleValue(100.0),
                          MakeDoubleAccessor(&CcSwift::m_fsMaxCwnd),
                          MakeDoubleChecker<double>(1e-6, 1e6))
            .AddAttribute("AiPackets",
                          "ai: additive increase, packets per RTT; range [0, 1000]; "
                          "default 1",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&CcSwift::m_ai),
                          MakeDoubleChecker<double>(0.0, 1000.0))
            .AddAttribute("Beta",
                          "beta: multiplicative-decrease gain on (delay - target)/delay; "
                          "range [0, 1]; default 0.8",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&CcSwift::m_beta),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MaxMdf",
                          "max_mdf: largest fraction of cwnd one decrease removes; "
                          "range [0, 1); default 0.5",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&CcSwift::m_maxMdf),
                          MakeDoubleChecker<double>(0.0, 0.999999))
            .AddAttribute("MinCwnd",
                          "Smallest cwnd, packets (below 1 the queue pair is paced); "
                          "range [1e-6, 1]; default 0.001",
                          DoubleValue(0.001),
                          MakeDoubleAccessor(&CcSwift::m_minCwnd),
                          MakeDoubleChecker<double>(1e-6, 1.0))
            .AddAttribute("MaxCwnd",
                          "Largest cwnd, packets; 0 (default) = line rate x (unloaded RTT + "
                          "BaseTarget + hops x PerHopTarget)",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&CcSwift::m_maxCwnd),
                          MakeDoubleChecker<double>(0.0, 1e9))
            .AddAttribute("RetxResetThreshold",
                          "Timeouts in a row that reset cwnd to MinCwnd; range [1, 1000]; "
                          "default 5",
                          UintegerValue(5),
                          MakeUintegerAccessor(&CcSwift::m_retxReset),
                          MakeUintegerChecker<uint32_t>(1, 1000));
    return tid;
}

std::string
CcSwift::GetName() const
{
    return "swift";
}

bool
CcSwift::NeedsTimestamp() const
{
    return true;
}

void
CcSwift::Init(CcQueuePairView* qp)
{
    RdmaCongestionOps::Init(qp);
    m_lineRate = qp->GetLineRateBps();
    m_mtu = std::max<uint32_t>(qp->GetMtuBytes(), 1);
    m_baseRtt = qp->GetBaseRtt();
    m_hops = qp->GetHopCount();
    m_rtt = m_baseRtt;
    m_decreased = false;
    m_retxCount = 0;
    const double bitsPerPacket = 8.0 * m_mtu;
    const Time fullTarget = m_baseRtt + m_baseTarget + m_perHop * static_cast<int64_t>(m_hops);
    m_cwndCeiling =
        m_maxCwnd > 0 ? m_maxCwnd : m_lineRate * fullTarget.GetSeconds() / bitsPerPacket;
    m_cwndCeiling = std::max(m_cwndCeiling, m_minCwnd);
    // Start at line rate: one unloaded-path BDP.
    m_cwnd = m_lineRate * m_baseRtt.GetSeconds() / bitsPerPacket;
    Apply();
}

double
CcSwift::GetCwnd() const
{
    return m_cwnd;
}

Time
CcSwift::GetTargetDelay(double cwnd) const
{
    Time target = m_baseRtt + m_baseTarget + m_perHop * static_cast<int64_t>(m_hops);
    const double range = m_fsRange.GetSeconds();
    double scaling = 0;
    if (range <= 0 || cwnd >= m_fsMaxCwnd)
    {
        scaling = 0;
    }
    else if (cwnd <= m_fsMinCwnd)
    {
        scaling = range;
    }
    else
    {
        const double a = range / (1 / std::sqrt(m_fsMinCwnd) - 1 / std::sqrt(m_fsMaxCwnd));
        const double b = -a / std::sqrt(m_fsMaxCwnd);
        scaling = std::clamp(a / std::sqrt(cwnd) + b, 0.0, range);
    }
    return target + Seconds(scaling);
}

bool
CcSwift::CanDecrease() const
{
    return !m_decreased || Simulator::Now() - m_lastDecrease >= m_rtt;
}

void
CcSwift::Cut(double factor)
{
    m_cwnd *= factor;
    m_lastDecrease = Simulator::Now();
    m_decreased = true;
}

void
CcSwift::OnAck(const AckSample& ack)
{
    if (m_qp == nullptr || !ack.rtt.IsStrictlyPositive())
    {
        return;
    }
    m_retxCount = 0;
    m_rtt = ack.rtt;
    const Time target = GetTargetDelay(m_cwnd);
    const double acked = static_cast<double>(ack.newlyAcked) / m_mtu;
    if (ack.rtt < target)
    {
        m_cwnd += m_cwnd >= 1 ? m_ai / m_cwnd * acked : m_ai * acked;
    }
    else if (CanDecrease())
    {
        const double delay = ack.rtt.GetSeconds();
        const double excess = (delay - target.GetSeconds()) / delay;
        Cut(std::max(1 - m_beta * excess, 1 - m_maxMdf));
    }
    NS_LOG_LOGIC(this << " rtt " << ack.rtt.As(Time::US) << " target " << target.As(Time::US)
                      << " cwnd " << m_cwnd);
    Apply();
}

void
CcSwift::OnNack(const AckSample& ack)
{
    if (m_qp == nullptr)
    {
        return;
    }
    m_retxCount = 0;
    if (CanDecrease())
    {
        Cut(1 - m_maxMdf);
    }
    Apply();
}

void
CcSwift::OnTimeout()
{
    if (m_qp == nullptr)
    {
        return;
    }
    ++m_retxCount;
    if (m_retxCount >= m_retxReset)
    {
        m_cwnd = m_minCwnd;
        m_lastDecrease = Simulator::Now();
        m_decreased = true;
    }
    else if (CanDecrease())
    {
        Cut(1 - m_maxMdf);
    }
    Apply();
}

void
CcSwift::Apply()
{
    m_cwnd = std::clamp(m_cwnd, m_minCwnd, m_cwndCeiling);
    const auto window = static_cast<uint64_t>(std::ceil(m_cwnd * m_mtu));
    ApplyWindow(std::max<uint64_t>(window, 1));
    uint64_t rate = m_lineRate;
    if (m_cwnd < 1 && m_rtt.IsStrictlyPositive())
    {
        // Below one packet the window cannot clock packets out: pace them instead.
        const double paced = m_cwnd * m_mtu * 8 / m_rtt.GetSeconds();
        rate = std::clamp<uint64_t>(static_cast<uint64_t>(std::llround(paced)), 1, m_lineRate);
    }
    ApplyRate(rate);
}

} // namespace ns3
