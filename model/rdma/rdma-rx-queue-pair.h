/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_RDMA_RX_QUEUE_PAIR_H
#define MLFABRIC_RDMA_RX_QUEUE_PAIR_H

#include "ns3/nstime.h"
#include "ns3/receive-bitmap.h"
#include "ns3/unordered-messages.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-rdma
 * The receiving side of a reliable-connected queue pair.
 */
struct RdmaRxQueuePair
{
    uint32_t srcNode{0};            //!< sender's node id
    uint32_t srcQpn{0};             //!< sender's QP number
    uint8_t priority{0};            //!< traffic class of the data
    uint64_t expected{0};           //!< next in-order byte
    uint64_t messageBegin{0};       //!< first byte of the message being received
    uint32_t unackedPackets{0};     //!< packets since the last ACK
    uint32_t ackInterval{0};        //!< packets per ACK; 0: the NIC's AckInterval
    bool ecnSinceAck{false};        //!< a CE mark arrived since the last ACK
    uint64_t nackedSeq{UINT64_MAX}; //!< expected value last NACKed
    Time lastNack;                  //!< when it was NACKed
    Time lastCnp{Time(-1)};         //!< when the last CNP was sent (DCQCN pacing)
    bool cnpSent{false};            //!< whether any CNP was sent
    uint64_t messagesReceived{0};   //!< messages whose last byte has arrived
    ReceiveBitmap bitmap;           //!< selective repeat, unordered: bytes past a gap
    UnorderedMessages unordered;    //!< unordered delivery: messages being filled
};

} // namespace ns3

#endif /* MLFABRIC_RDMA_RX_QUEUE_PAIR_H */
