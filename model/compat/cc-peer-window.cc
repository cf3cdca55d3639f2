/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cc-peer-window.h"

#include "ns3/boolean.h"
#include "ns3/cc-registry.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CcPeerWindow");
NS_OBJECT_ENSURE_REGISTERED(CcPeerWindow);

TypeId
CcPeerWindow::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CcPeerWindow")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Mlfabric")
            .AddConstructor<CcPeerWindow>()
            .AddAttribute("Scheme",
                          "Short name of the rate-based scheme that runs inside (cc-registry.h)",
                          StringValue("none"),
                          MakeStringAccessor(&CcPeerWindow::m_scheme),
                          MakeStringChecker())
            .AddAttribute("VariableWindow",
                          "Scale the window with rate / line rate (the HPCC simulator's "
                          "VAR_WIN); false keeps the base window",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CcPeerWindow::m_variable),
                          MakeBooleanChecker());
    return tid;
}

void
CcPeerWindow::SetBaseWindow(uint64_t bytes)
{
    m_baseWindow = bytes;
    UpdateWindow();
}

Ptr<RdmaCongestionOps>
CcPeerWindow::GetInner() const
{
    return m_inner;
}

std::string
CcPeerWindow::GetName() const
{
    return m_scheme;
}

void
CcPeerWindow::Init(CcQueuePairView* qp)
{
    RdmaCongestionOps::Init(qp);
    m_view = qp;
    m_inner = CreateCongestionOps(m_scheme);
    m_inner->Init(this);
    UpdateWindow();
}

void
CcPeerWindow::Stop()
{
    if (m_inner)
    {
        m_inner->Stop();
    }
    m_view = nullptr;
    RdmaCongestionOps::Stop();
}

void
CcPeerWindow::DoDispose()
{
    if (m_inner)
    {
        m_inner->Dispose();
        m_inner = nullptr;
    }
    m_view = nullptr;
    RdmaCongestionOps::DoDispose();
}

void
CcPeerWindow::UpdateWindow()
{
    if (m_view == nullptr)
    {
        return;
    }
    uint64_t window = m_baseWindow;
    if (window > 0 && m_variable)
    {
        const auto scaled = static_cast<unsigned __int128>(window) * m_view->GetRateBps() /
                            m_view->GetLineRateBps();
        window = std::max<uint64_t>(1, static_cast<uint64_t>(scaled));
    }
    ApplyWindow(window);
}

void
CcPeerWindow::OnSend(uint32_t payloadBytes)
{
    if (m_view != nullptr)
    {
        m_inner->OnSend(payloadBytes);
    }
}

void
CcPeerWindow::OnAck(const AckSample& ack)
{
    if (m_view != nullptr)
    {
        m_inner->OnAck(ack);
    }
}

void
CcPeerWindow::OnNack(const AckSample& ack)
{
    if (m_view != nullptr)
    {
        m_inner->OnNack(ack);
    }
}

void
CcPeerWindow::OnCnp()
{
    if (m_view != nullptr)
    {
        m_inner->OnCnp();
    }
}

void
CcPeerWindow::OnTimeout()
{
    if (m_view != nullptr)
    {
        m_inner->OnTimeout();
    }
}

bool
CcPeerWindow::NeedsInt() const
{
    return m_inner && m_inner->NeedsInt();
}

bool
CcPeerWindow::NeedsCnp() const
{
    return m_inner && m_inner->NeedsCnp();
}

bool
CcPeerWindow::NeedsTimestamp() const
{
    return m_inner && m_inner->NeedsTimestamp();
}

uint64_t
CcPeerWindow::GetLineRateBps() const
{
    return m_view->GetLineRateBps();
}

uint64_t
CcPeerWindow::GetRateBps() const
{
    return m_view->GetRateBps();
}

void
CcPeerWindow::SetRateBps(uint64_t rate)
{
    ApplyRate(rate);
    UpdateWindow();
}

uint64_t
CcPeerWindow::GetWindowBytes() const
{
    return m_view->GetWindowBytes();
}

void
CcPeerWindow::SetWindowBytes(uint64_t window)
{
    // The simulator's window rules apply, whatever the inner scheme asks.
}

uint64_t
CcPeerWindow::GetSndNxt() const
{
    return m_view->GetSndNxt();
}

uint64_t
CcPeerWindow::GetSndUna() const
{
    return m_view->GetSndUna();
}

Time
CcPeerWindow::GetBaseRtt() const
{
    return m_view->GetBaseRtt();
}

uint32_t
CcPeerWindow::GetHopCount() const
{
    return m_view->GetHopCount();
}

uint32_t
CcPeerWindow::GetMtuBytes() const
{
    return m_view->GetMtuBytes();
}

} // namespace ns3
