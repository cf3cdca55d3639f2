/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "congestion-ops.h"

#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCongestionOps");
NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionOps);

TypeId
RdmaCongestionOps::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCongestionOps")
            .SetParent<Object>()
            .SetGroupName("Mlfabric")
            .AddTraceSource("Rate",
                            "The pacing rate the algorithm set, bit/s (old, new)",
                            MakeTraceSourceAccessor(&RdmaCongestionOps::m_rateTrace),
                            "ns3::RdmaCongestionOps::ChangeTracedCallback")
            .AddTraceSource("Window",
                            "The window the algorithm set, bytes (old, new); 0 = no window",
                            MakeTraceSourceAccessor(&RdmaCongestionOps::m_windowTrace),
                            "ns3::RdmaCongestionOps::ChangeTracedCallback");
    return tid;
}

void
RdmaCongestionOps::Init(CcQueuePairView* qp)
{
    m_qp = qp;
    m_lastRateBps = qp->GetRateBps();
    m_lastWindowBytes = qp->GetWindowBytes();
}

void
RdmaCongestionOps::ApplyRate(uint64_t rateBps)
{
    if (m_qp == nullptr)
    {
        return;
    }
    m_qp->SetRateBps(rateBps);
    if (rateBps != m_lastRateBps)
    {
        NS_LOG_LOGIC(this << " rate " << m_lastRateBps << " -> " << rateBps);
        m_rateTrace(m_lastRateBps, rateBps);
        m_lastRateBps = rateBps;
    }
}

void
RdmaCongestionOps::ApplyWindow(uint64_t windowBytes)
{
    if (m_qp == nullptr)
    {
        return;
    }
    m_qp->SetWindowBytes(windowBytes);
    if (windowBytes != m_lastWindowBytes)
    {
        NS_LOG_LOGIC(this << " window " << m_lastWindowBytes << " -> " << windowBytes);
        m_windowTrace(m_lastWindowBytes, windowBytes);
        m_lastWindowBytes = windowBytes;
    }
}

void
RdmaCongestionOps::Stop()
{
    m_qp = nullptr;
}

void
RdmaCongestionOps::OnSend(uint32_t payloadBytes)
{
}

void
RdmaCongestionOps::OnAck(const AckSample& ack)
{
}

void
RdmaCongestionOps::OnNack(const AckSample& ack)
{
}

void
RdmaCongestionOps::OnCnp()
{
}

void
RdmaCongestionOps::OnTimeout()
{
}

bool
RdmaCongestionOps::NeedsInt() const
{
    return false;
}

PintSettings
RdmaCongestionOps::GetPintSettings() const
{
    return {};
}

bool
RdmaCongestionOps::NeedsCnp() const
{
    return false;
}

bool
RdmaCongestionOps::NeedsTimestamp() const
{
    return false;
}

} // namespace ns3
