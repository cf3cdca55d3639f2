/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Selective repeat (IRN) in RdmaNic: the receiver's bitmap and selective NACKs, the
// sender's use of them. Go-back-N stays in rdma-nic.cc.
#include "ns3/log.h"
#include "ns3/rdma-nic.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNicSelectiveRepeat");

void
RdmaNic::SendSelectiveReply(RdmaRxQueuePair& rx, const RoceHeader& h, bool ce, bool nack, bool held)
{
    RoceHeader reply = MakeReply(nack ? RoceHeader::NACK : RoceHeader::ACK, h);
    reply.seq = rx.expected;
    reply.timestampPs = h.timestampPs;
    if (nack && held)
    {
        // The missing bytes start at seq; the packet that arrived past them is named.
        reply.sackSeq = h.seq;
        reply.sackBytes = h.payload;
    }
    if (rx.ecnSinceAck || ce)
    {
        reply.Set(RoceHeader::ECN_ECHO);
    }
    reply.EchoTelemetry(h);
    rx.unackedPackets = 0;
    rx.ecnSinceAck = false;
    ++(nack ? m_counters.nacksTx : m_counters.acksTx);
    SendControl(reply, h.srcQp);
}

void
RdmaNic::ReceiveDataSelective(const RoceHeader& h, RdmaRxQueuePair& rx, bool ce)
{
    const ReceiveBitmap::Outcome outcome =
        rx.bitmap.Receive(h.seq, h.payload, h.Has(RoceHeader::LAST), h.imm);
    switch (outcome)
    {
    case ReceiveBitmap::BEYOND:
        // Past the bitmap: dropped, and the sender told where the gap starts.
        m_counters.outOfOrderBytes += h.payload;
        SendSelectiveReply(rx, h, ce, true, false);
        return;
    case ReceiveBitmap::DUPLICATE:
        m_counters.duplicateBytes += h.payload;
        SendSelectiveReply(rx, h, ce, false, false);
        return;
    case ReceiveBitmap::OUT_OF_ORDER:
        SendSelectiveReply(rx, h, ce, true, true);
        return;
    case ReceiveBitmap::IN_ORDER:
        break;
    }
    rx.expected = rx.bitmap.GetExpected();
    m_counters.deliveredBytes += rx.bitmap.GetAdvance();
    m_counters.duplicateBytes += h.payload - rx.bitmap.GetNewBytes();
    rx.ecnSinceAck = rx.ecnSinceAck || ce;
    const auto completed = rx.bitmap.TakeCompleted();
    for (const auto& message : completed)
    {
        const uint64_t bytes = message.end - rx.messageBegin;
        rx.messageBegin = message.end;
        ++rx.messagesReceived;
        m_messageReceived(rx.srcNode, rx.srcQpn, message.tag, bytes);
    }
    ++rx.unackedPackets;
    // A filled gap (the point jumped over held bytes) is acknowledged at once.
    if (!completed.empty() || rx.unackedPackets >= m_ackInterval ||
        rx.bitmap.GetAdvance() > h.payload)
    {
        SendSelectiveReply(rx, h, false, false, false);
    }
}

void
RdmaNic::ReceiveTrimmedSelective(RdmaRxQueuePair& rx, const RoceHeader& h)
{
    if (h.seq + h.sackBytes <= rx.expected)
    {
        return; // a copy of bytes already delivered
    }
    // Each trimmed packet is named on its own (UEC's NACK code TRIMMED): the sender
    // resends exactly it, at once, and no other.
    RoceHeader nack = MakeReply(RoceHeader::NACK, h);
    nack.seq = rx.expected;
    nack.timestampPs = h.timestampPs;
    nack.Set(RoceHeader::TRIMMED);
    nack.sackSeq = h.seq;
    nack.sackBytes = h.sackBytes;
    ++m_counters.nacksTx;
    SendControl(nack, h.srcQp);
}

bool
RdmaNic::ReceiveSelectiveNack(RdmaQueuePair& qp, const RoceHeader& h)
{
    bool lost = false;
    if (h.Has(RoceHeader::TRIMMED))
    {
        lost = qp.m_sack.MarkLost(h.sackSeq, h.sackSeq + h.sackBytes);
    }
    else if (h.sackBytes > 0)
    {
        qp.m_sack.Sack(h.sackSeq, h.sackSeq + h.sackBytes);
    }
    lost = qp.m_sack.DetectLoss() || lost;
    bool newEpisode = false;
    if (lost && qp.m_sndUna >= qp.m_recoveryEnd)
    {
        newEpisode = true;
        qp.m_recoveryEnd = qp.m_sentHigh;
        NS_LOG_INFO("node " << m_nodeId << " QP " << qp.m_qpn << " loss at " << qp.m_sndUna
                            << ", recovery until " << qp.m_recoveryEnd);
    }
    return newEpisode;
}

} // namespace ns3
