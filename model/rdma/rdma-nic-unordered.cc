/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Unordered reliable delivery (UEC's RUD) in RdmaNic: the receiver places each packet on
// arrival and completes a message once all its bytes are in; the sender completes a
// message once every byte of it is acknowledged or reported held. Loss recovery is
// selective repeat's (rdma-nic-selective-repeat.cc) without the receive bitmap's bound.
#include "ns3/log.h"
#include "ns3/rdma-nic.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNicUnordered");

void
RdmaNic::ReceiveDataUnordered(const RoceHeader& h, RdmaRxQueuePair& rx, bool ce)
{
    const ReceiveBitmap::Outcome outcome =
        rx.bitmap.Receive(h.seq, h.payload, h.Has(RoceHeader::LAST), h.imm);
    rx.bitmap.TakeCompleted(); // in-order completion is not this mode's
    const uint64_t fresh = outcome == ReceiveBitmap::DUPLICATE ? 0 : rx.bitmap.GetNewBytes();
    rx.expected = rx.bitmap.GetExpected();
    m_counters.deliveredBytes += fresh;
    m_counters.duplicateBytes += h.payload - fresh;

    UnorderedMessages::Completed done;
    const bool completed = rx.unordered.Arrive(
        h.sackSeq, fresh, h.seq + h.payload, h.Has(RoceHeader::LAST), h.imm, done);
    if (completed)
    {
        ++rx.messagesReceived;
        m_messageReceived(rx.srcNode, rx.srcQpn, done.tag, done.end - done.begin);
    }

    // In-order data is acknowledged as under selective repeat (every AckInterval packets,
    // at once when it fills a gap or completes a message); anything else at once, with
    // the packet named, so that the sender's scoreboard sees every arrival.
    const bool inOrder = outcome == ReceiveBitmap::IN_ORDER;
    rx.ecnSinceAck = rx.ecnSinceAck || ce;
    if (inOrder)
    {
        ++rx.unackedPackets;
        if (!completed && rx.unackedPackets < m_ackInterval && rx.bitmap.GetAdvance() <= h.payload)
        {
            return;
        }
    }
    RoceHeader ack = MakeReply(RoceHeader::ACK, h);
    ack.seq = rx.expected;
    ack.timestampPs = h.timestampPs;
    if (outcome == ReceiveBitmap::OUT_OF_ORDER)
    {
        ack.sackSeq = h.seq;
        ack.sackBytes = h.payload;
    }
    if (rx.ecnSinceAck)
    {
        ack.Set(RoceHeader::ECN_ECHO);
    }
    ack.EchoTelemetry(h);
    rx.unackedPackets = 0;
    rx.ecnSinceAck = false;
    ++m_counters.acksTx;
    SendControl(ack, h.srcQp);
}

void
RdmaNic::CompleteHeldMessages(RdmaQueuePair& qp, uint64_t begin, uint64_t end)
{
    auto& messages = qp.m_messages;
    auto it = std::upper_bound(messages.begin(),
                               messages.end(),
                               begin,
                               [](uint64_t seq, const RdmaMessage& m) { return seq < m.end; });
    for (; it != messages.end() && it->begin < end; ++it)
    {
        if (it->acknowledged || !qp.m_sack.Covers(it->begin, it->end))
        {
            continue;
        }
        it->acknowledged = true;
        ++qp.m_ackedAhead;
        NS_LOG_INFO("node " << m_nodeId << " QP " << qp.m_qpn << " message " << it->id
                            << " acknowledged ahead of byte " << qp.m_sndUna);
        m_messageSent(Ptr<RdmaQueuePair>(&qp), it->id, it->tag, it->end - it->begin, it->posted);
    }
}

} // namespace ns3
