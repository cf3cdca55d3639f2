/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cc-dcqcn-window.h"

#include "ns3/boolean.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CcDcqcnWindow");
NS_OBJECT_ENSURE_REGISTERED(CcDcqcnWindow);

TypeId
CcDcqcnWindow::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CcDcqcnWindow")
            .SetParent<CcDcqcn>()
            .SetGroupName("Mlfabric")
            .AddConstructor<CcDcqcnWindow>()
            .AddAttribute("VariableWindow",
                          "Scale the window (line rate x base RTT) by rate / line rate, as "
                          "the HPCC simulator's VAR_WIN; false keeps it at the BDP; "
                          "default true",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CcDcqcnWindow::m_variable),
                          MakeBooleanChecker());
    return tid;
}

std::string
CcDcqcnWindow::GetName() const
{
    return "dcqcn-window";
}

void
CcDcqcnWindow::Init(CcQueuePairView* qp)
{
    m_view = qp;
    CcDcqcn::Init(this);
    UpdateWindow(m_view->GetRateBps());
}

void
CcDcqcnWindow::Stop()
{
    CcDcqcn::Stop();
    m_view = nullptr;
}

void
CcDcqcnWindow::DoDispose()
{
    m_view = nullptr;
    CcDcqcn::DoDispose();
}

void
CcDcqcnWindow::UpdateWindow(uint64_t rateBps)
{
    const double fraction =
        m_variable ? static_cast<double>(rateBps) / m_view->GetLineRateBps() : 1.0;
    const double bdp = m_view->GetLineRateBps() * m_view->GetBaseRtt().GetSeconds() / 8;
    const auto window = std::max<uint64_t>(static_cast<uint64_t>(std::llround(bdp * fraction)),
                                           m_view->GetMtuBytes());
    m_ownWindow = true;
    ApplyWindow(window);
    m_ownWindow = false;
}

uint64_t
CcDcqcnWindow::GetLineRateBps() const
{
    return m_view->GetLineRateBps();
}

uint64_t
CcDcqcnWindow::GetRateBps() const
{
    return m_view->GetRateBps();
}

void
CcDcqcnWindow::SetRateBps(uint64_t rate)
{
    m_view->SetRateBps(rate);
    UpdateWindow(m_view->GetRateBps());
}

uint64_t
CcDcqcnWindow::GetWindowBytes() const
{
    return m_view->GetWindowBytes();
}

void
CcDcqcnWindow::SetWindowBytes(uint64_t window)
{
    // The rate control asks for no window; only this class's window reaches the QP.
    if (m_ownWindow)
    {
        m_view->SetWindowBytes(window);
    }
}

uint64_t
CcDcqcnWindow::GetSndNxt() const
{
    return m_view->GetSndNxt();
}

uint64_t
CcDcqcnWindow::GetSndUna() const
{
    return m_view->GetSndUna();
}

Time
CcDcqcnWindow::GetBaseRtt() const
{
    return m_view->GetBaseRtt();
}

uint32_t
CcDcqcnWindow::GetHopCount() const
{
    return m_view->GetHopCount();
}

uint32_t
CcDcqcnWindow::GetMtuBytes() const
{
    return m_view->GetMtuBytes();
}

} // namespace ns3
