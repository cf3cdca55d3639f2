/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cc-dctcp.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CcDctcp");
NS_OBJECT_ENSURE_REGISTERED(CcDctcp);

TypeId
CcDctcp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CcDctcp")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Mlfabric")
            .AddConstructor<CcDctcp>()
            .AddAttribute("Gain",
                          "g: weight of the newest window's marked fraction in alpha; "
                          "range (0, 1]; default 1/16 (DCTCP paper)",
                          DoubleValue(1.0 / 16),
                          MakeDoubleAccessor(&CcDctcp::m_g),
                          MakeDoubleChecker<double>(std::numeric_limits<double>::min(), 1.0))
            .AddAttribute("InitialAlpha",
                          "alpha before the first window ends; range [0, 1]; default 1 "
                          "(as Linux DCTCP)",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&CcDctcp::m_initialAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AiRate",
                          "Additive increase per window, bit/s; default 1000 Mb/s (the "
                          "HPCC-ns3 DCTCP_RATE_AI)",
                          DataRateValue(DataRate("1000Mb/s")),
                          MakeDataRateAccessor(&CcDctcp::m_ai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Rate floor, bit/s; default 100 Mb/s",
                          DataRateValue(DataRate("100Mb/s")),
                          MakeDataRateAccessor(&CcDctcp::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("RateWindow",
                          "Also keep at most rate x base RTT bytes in flight (at least one "
                          "MTU), as TCP's congestion window does and the HPCC ns-3 "
                          "simulator's DCTCP (VAR_WIN) does; false: pacing alone; "
                          "default true",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CcDctcp::m_rateWindow),
                          MakeBooleanChecker());
    return tid;
}

std::string
CcDctcp::GetName() const
{
    return "dctcp";
}

void
CcDctcp::Init(CcQueuePairView* qp)
{
    RdmaCongestionOps::Init(qp);
    m_lineRate = qp->GetLineRateBps();
    m_rate = m_lineRate;
    m_alpha = m_initialAlpha;
    m_windowOpen = false;
    m_ackedBytes = 0;
    m_markedBytes = 0;
    m_reducing = false;
    m_ssthresh = 0;
    Apply();
}

void
CcDctcp::Apply()
{
    ApplyRate(m_rate);
    if (!m_rateWindow)
    {
        ApplyWindow(0);
        return;
    }
    const double bytes = m_rate * m_qp->GetBaseRtt().GetSeconds() / 8;
    ApplyWindow(
        std::max<uint64_t>(static_cast<uint64_t>(std::llround(bytes)), m_qp->GetMtuBytes()));
}

double
CcDctcp::GetAlpha() const
{
    return m_alpha;
}

uint64_t
CcDctcp::GetCurrentRate() const
{
    return m_rate;
}

bool
CcDctcp::InReduction() const
{
    return m_reducing;
}

uint64_t
CcDctcp::GetSlowStartThreshold() const
{
    return m_ssthresh;
}

void
CcDctcp::Reduce(double factor)
{
    const uint64_t floor = std::min(m_minRate.GetBitRate(), m_lineRate);
    const auto cut = static_cast<uint64_t>(std::llround(m_rate * factor));
    m_rate = std::max(floor, cut);
    m_reducing = true;
    m_reductionEnd = m_qp->GetSndNxt();
    Apply();
}

void
CcDctcp::OnNack(const AckSample& ack)
{
    if (m_qp == nullptr)
    {
        return;
    }
    if (m_reducing && ack.ackedSeq >= m_reductionEnd)
    {
        m_reducing = false;
    }
    // A loss episode: halve once per window, as TCP's fast recovery does.
    if (!m_reducing)
    {
        NS_LOG_LOGIC(this << " loss: halve " << m_rate);
        Reduce(0.5);
    }
}

void
CcDctcp::OnTimeout()
{
    if (m_qp == nullptr)
    {
        return;
    }
    // RFC 5681: ssthresh = flight / 2, then one segment per round trip and slow start.
    const uint64_t floor = std::min(m_minRate.GetBitRate(), m_lineRate);
    m_ssthresh = std::max(floor, m_rate / 2);
    const double oneMtu = m_qp->GetMtuBytes() * 8.0 / m_qp->GetBaseRtt().GetSeconds();
    m_rate = std::clamp<uint64_t>(static_cast<uint64_t>(std::llround(oneMtu)), floor, m_lineRate);
    m_reducing = false;
    m_windowOpen = false;
    m_ackedBytes = 0;
    m_markedBytes = 0;
    NS_LOG_LOGIC(this << " timeout: restart at " << m_rate << ", ssthresh " << m_ssthresh);
    Apply();
}

void
CcDctcp::OnAck(const AckSample& ack)
{
    if (m_qp == nullptr)
    {
        return;
    }
    if (!m_windowOpen)
    {
        m_windowOpen = true;
        m_windowEnd = m_qp->GetSndNxt();
    }
    m_ackedBytes += ack.newlyAcked;
    if (ack.ecnEcho)
    {
        m_markedBytes += ack.newlyAcked;
    }

    bool windowEnded = false;
    if (ack.ackedSeq >= m_windowEnd && m_ackedBytes > 0)
    {
        const double fraction = static_cast<double>(m_markedBytes) / m_ackedBytes;
        m_alpha = (1 - m_g) * m_alpha + m_g * fraction;
        NS_LOG_LOGIC(this << " window fraction " << fraction << " alpha " << m_alpha);
        m_ackedBytes = 0;
        m_markedBytes = 0;
        m_windowEnd = m_qp->GetSndNxt();
        windowEnded = true;
    }
    if (m_reducing && ack.ackedSeq >= m_reductionEnd)
    {
        m_reducing = false;
    }

    if (ack.ecnEcho && !m_reducing)
    {
        m_ssthresh = 0;
        Reduce(1 - m_alpha / 2);
    }
    else if (windowEnded && !m_reducing)
    {
        if (m_rate < m_ssthresh)
        {
            m_rate = std::min(m_ssthresh, 2 * m_rate);
        }
        else
        {
            m_ssthresh = 0;
            m_rate = std::min(m_lineRate, m_rate + m_ai.GetBitRate());
        }
        Apply();
    }
}

} // namespace ns3
