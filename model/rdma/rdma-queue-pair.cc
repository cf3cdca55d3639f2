/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-queue-pair.h"

#include "ns3/log.h"
#include "ns3/rdma-nic.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQueuePair");
NS_OBJECT_ENSURE_REGISTERED(RdmaQueuePair);

TypeId
RdmaQueuePair::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaQueuePair")
            .SetParent<Object>()
            .SetGroupName("Mlfabric")
            .AddAttribute("Entropies",
                          "Entropy values (UDP source ports) its data packets take in turn; "
                          "1 (default): one path per queue pair under ECMP",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaQueuePair::m_entropies),
                          MakeUintegerChecker<uint32_t>(1, 65536));
    return tid;
}

void
RdmaQueuePair::DoDispose()
{
    if (m_cc)
    {
        m_cc->Stop();
        m_cc = nullptr;
    }
    Object::DoDispose();
}

uint32_t
RdmaQueuePair::GetEntropies() const
{
    return m_entropies;
}

uint32_t
RdmaQueuePair::GetQpn() const
{
    return m_qpn;
}

uint32_t
RdmaQueuePair::GetPeerNode() const
{
    return m_peerNode;
}

uint8_t
RdmaQueuePair::GetPriority() const
{
    return m_priority;
}

Ptr<RdmaCongestionOps>
RdmaQueuePair::GetCongestionOps() const
{
    return m_cc;
}

uint64_t
RdmaQueuePair::GetOutstandingBytes() const
{
    return m_postedEnd - m_sndUna;
}

uint64_t
RdmaQueuePair::GetPostedBytes() const
{
    return m_postedEnd;
}

bool
RdmaQueuePair::IsIdle() const
{
    return m_sndUna == m_postedEnd;
}

uint32_t
RdmaQueuePair::GetPort() const
{
    return m_port;
}

uint64_t
RdmaQueuePair::GetTimeouts() const
{
    return m_timeouts;
}

bool
RdmaQueuePair::IsInError() const
{
    return m_error;
}

uint32_t
RdmaQueuePair::GetPeerQpn() const
{
    return m_peerQpn;
}

uint64_t
RdmaQueuePair::GetMessagesPosted() const
{
    return m_nextMessageId;
}

uint64_t
RdmaQueuePair::GetMessagesAcknowledged() const
{
    return m_nextMessageId - m_messages.size() + m_ackedAhead;
}

uint64_t
RdmaQueuePair::GetBytesInFlight() const
{
    const uint64_t sent = m_sentHigh - m_sndUna;
    if (!m_selective)
    {
        return m_sndNxt - m_sndUna;
    }
    const uint64_t away = m_sack.GetSackedBytes() + m_sack.GetLostPendingBytes();
    return sent > away ? sent - away : 0;
}

bool
RdmaQueuePair::HasResend() const
{
    uint64_t seq = 0;
    uint64_t end = 0;
    return m_selective && m_sack.NextResend(seq, end);
}

bool
RdmaQueuePair::HasSendableData() const
{
    if (m_error)
    {
        return false;
    }
    if (HasResend())
    {
        // A resend takes its turn in the window as new data does. What counts is what is
        // still in the network: sent, neither acknowledged nor reported held, and not
        // taken for lost (else a window full of lost bytes would never resend them).
        return m_windowBytes == 0 || GetBytesInFlight() < m_windowBytes;
    }
    if (m_sndNxt >= m_postedEnd)
    {
        return false;
    }
    if (m_selective && m_sndNxt - m_sndUna >= m_bitmapBytes)
    {
        return false;
    }
    return m_windowBytes == 0 || m_sndNxt - m_sndUna < m_windowBytes;
}

uint64_t
RdmaQueuePair::GetLineRateBps() const
{
    return m_lineRateBps;
}

uint64_t
RdmaQueuePair::GetRateBps() const
{
    return m_rateBps;
}

void
RdmaQueuePair::SetRateBps(uint64_t rate)
{
    const uint64_t clamped = std::clamp<uint64_t>(rate, 1, m_lineRateBps);
    if (clamped == m_rateBps)
    {
        return;
    }
    m_rateBps = clamped;
    // A rate limiter applies a new rate to the gap in progress, not after it.
    if (m_lastTxTime.IsPositive())
    {
        UpdateNextAvail();
        if (m_nic != nullptr)
        {
            m_nic->Repace(*this);
        }
    }
}

void
RdmaQueuePair::UpdateNextAvail()
{
    if (m_rateBps >= m_lineRateBps)
    {
        m_nextAvail = m_lastTxTime; // the port's own serialization spaces the packets
        return;
    }
    const uint64_t gapPs =
        static_cast<uint64_t>(m_lastTxWireBytes) * 8 * 1'000'000'000'000ULL / m_rateBps;
    m_nextAvail = m_lastTxTime + PicoSeconds(static_cast<int64_t>(gapPs));
}

uint64_t
RdmaQueuePair::GetWindowBytes() const
{
    return m_windowBytes;
}

void
RdmaQueuePair::SetWindowBytes(uint64_t window)
{
    m_windowBytes = window;
}

uint64_t
RdmaQueuePair::GetSndNxt() const
{
    return m_sndNxt;
}

uint64_t
RdmaQueuePair::GetSndUna() const
{
    return m_sndUna;
}

Time
RdmaQueuePair::GetBaseRtt() const
{
    return m_baseRtt;
}

uint32_t
RdmaQueuePair::GetHopCount() const
{
    return m_hops;
}

uint32_t
RdmaQueuePair::GetMtuBytes() const
{
    return m_mtu;
}

} // namespace ns3
