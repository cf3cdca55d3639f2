/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cc-hpcc.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CcHpcc");
NS_OBJECT_ENSURE_REGISTERED(CcHpcc);

TypeId
CcHpcc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CcHpcc")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Mlfabric")
            .AddConstructor<CcHpcc>()
            .AddAttribute("TargetUtilization",
                          "eta: target utilisation of the bottleneck; range (0, 1]; "
                          "default 0.95 (paper)",
                          DoubleValue(0.95),
                          MakeDoubleAccessor(&CcHpcc::m_eta),
                          MakeDoubleChecker<double>(std::numeric_limits<double>::min(), 1.0))
            .AddAttribute("MaxStage",
                          "maxStage: additive steps before the next multiplicative step "
                          "even below eta; range [0, 1000]; default 5 (paper)",
                          UintegerValue(5),
                          MakeUintegerAccessor(&CcHpcc::m_maxStage),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("AiRate",
                          "Additive increase W_AI expressed as a rate, W_AI = AiRate x base "
                          "RTT, bit/s; default 40 Mb/s (the authors' 100 Gb/s setting)",
                          DataRateValue(DataRate("40Mb/s")),
                          MakeDataRateAccessor(&CcHpcc::m_aiRate),
                          MakeDataRateChecker())
            .AddAttribute("FastReact",
                          "Adjust the window on every ACK from the reference window; when "
                          "false only once per RTT; default true",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CcHpcc::m_fastReact),
                          MakeBooleanChecker())
            .AddAttribute("MinRate",
                          "Floor of the pacing rate (the window floor is MinRate x base "
                          "RTT), bit/s; default 100 Mb/s",
                          DataRateValue(DataRate("100Mb/s")),
                          MakeDataRateAccessor(&CcHpcc::m_minRate),
                          MakeDataRateChecker());
    return tid;
}

std::string
CcHpcc::GetName() const
{
    return "hpcc";
}

bool
CcHpcc::NeedsInt() const
{
    return true;
}

void
CcHpcc::Init(CcQueuePairView* qp)
{
    RdmaCongestionOps::Init(qp);
    m_lineRate = qp->GetLineRateBps();
    m_baseRtt = qp->GetBaseRtt();
    NS_ABORT_MSG_IF(!m_baseRtt.IsStrictlyPositive(), "HPCC needs the queue pair's base RTT");
    const double t = m_baseRtt.GetSeconds();
    m_maxWindow = m_lineRate * t / 8;
    m_minWindow = std::min(m_minRate.GetBitRate(), m_lineRate) * t / 8;
    m_windowAi = m_aiRate.GetBitRate() * t / 8;
    m_u = 1.0;
    m_wc = m_maxWindow;
    m_incStage = 0;
    m_lastUpdateSeq = 0;
    m_nHops = 0;
    // Start at line rate with one BDP in flight (the paper's W_init = B T) and U = 1, a
    // fully used path, as the authors' simulator does.
    m_window = static_cast<uint64_t>(std::llround(m_maxWindow));
    ApplyWindow(m_window);
    ApplyRate(m_lineRate);
}

double
CcHpcc::GetUtilization() const
{
    return m_u;
}

uint64_t
CcHpcc::GetReferenceWindow() const
{
    return static_cast<uint64_t>(std::llround(m_wc));
}

uint64_t
CcHpcc::GetWindow() const
{
    return m_window;
}

uint32_t
CcHpcc::GetIncreaseStage() const
{
    return m_incStage;
}

void
CcHpcc::OnAck(const AckSample& ack)
{
    if (m_qp == nullptr || !MeasureUtilization(ack))
    {
        return;
    }
    if (ack.ackedSeq > m_lastUpdateSeq)
    {
        SetWindow(ComputeWindow(true));
        m_lastUpdateSeq = m_qp->GetSndNxt();
    }
    else if (m_fastReact)
    {
        SetWindow(ComputeWindow(false));
    }
}

bool
CcHpcc::MeasureUtilization(const AckSample& ack)
{
    if (ack.nHops == 0 || ack.hops == nullptr)
    {
        return false;
    }
    const uint32_t n = std::min(ack.nHops, kMaxIntHops);
    if (n != m_nHops)
    {
        // First INT, or the path changed: the records are a reference, not a sample.
        std::copy(ack.hops, ack.hops + n, m_hops.begin());
        if (m_nHops == 0)
        {
            StartFirstRtt();
        }
        m_nHops = n;
        return false;
    }
    MeasureInflight(ack.hops, n);
    return true;
}

void
CcHpcc::SetUtilization(double u)
{
    m_u = u;
}

void
CcHpcc::StartFirstRtt()
{
    m_lastUpdateSeq = m_qp->GetSndNxt();
}

bool
CcHpcc::IsFirstRttPending() const
{
    return m_lastUpdateSeq == 0;
}

void
CcHpcc::OnNack(const AckSample& ack)
{
    OnAck(ack);
}

void
CcHpcc::OnTimeout()
{
    if (m_qp == nullptr)
    {
        return;
    }
    m_wc = std::clamp(m_wc / 2, m_minWindow, m_maxWindow);
    m_incStage = 0;
    m_nHops = 0;
    SetWindow(static_cast<uint64_t>(std::llround(m_wc)));
    NS_LOG_LOGIC(this << " timeout: window " << m_window);
}

void
CcHpcc::MeasureInflight(const IntHop* hops, uint32_t nHops)
{
    const double t = m_baseRtt.GetSeconds();
    double u = 0;
    Time tau;
    bool measured = false;
    for (uint32_t i = 0; i < nHops; ++i)
    {
        const IntHop& now = hops[i];
        const IntHop& before = m_hops[i];
        const Time dt = now.timestamp - before.timestamp;
        if (!dt.IsStrictlyPositive() || now.rateBps == 0)
        {
            continue;
        }
        const double bytes =
            now.txBytes > before.txBytes ? static_cast<double>(now.txBytes - before.txBytes) : 0;
        const double txRate = bytes * 8 / dt.GetSeconds();
        const double queue = static_cast<double>(std::min(now.qlenBytes, before.qlenBytes));
        const double rate = static_cast<double>(now.rateBps);
        const double hopU = queue * 8 / (rate * t) + txRate / rate;
        if (!measured || hopU > u)
        {
            u = hopU;
            tau = dt;
            measured = true;
        }
    }
    std::copy(hops, hops + nHops, m_hops.begin());
    if (!measured)
    {
        return;
    }
    const double weight = std::min(tau, m_baseRtt).GetSeconds() / t;
    m_u = (1 - weight) * m_u + weight * u;
    NS_LOG_LOGIC(this << " u " << u << " U " << m_u);
}

uint64_t
CcHpcc::ComputeWindow(bool updateReference)
{
    double w;
    if (m_u >= m_eta || m_incStage >= m_maxStage)
    {
        // An idle path (U = 0) allows the largest window.
        w = m_u > 0 ? m_wc / (m_u / m_eta) + m_windowAi : m_maxWindow;
        if (updateReference)
        {
            m_incStage = 0;
        }
    }
    else
    {
        w = m_wc + m_windowAi;
        if (updateReference)
        {
            ++m_incStage;
        }
    }
    w = std::clamp(w, m_minWindow, m_maxWindow);
    if (updateReference)
    {
        m_wc = w;
    }
    return static_cast<uint64_t>(std::llround(w));
}

void
CcHpcc::SetWindow(uint64_t window)
{
    m_window = std::max<uint64_t>(window, 1);
    const double rate = m_window * 8.0 / m_baseRtt.GetSeconds();
    const auto bps = static_cast<uint64_t>(std::llround(rate));
    ApplyWindow(m_window);
    ApplyRate(std::clamp<uint64_t>(bps, 1, m_lineRate));
}

} // namespace ns3
