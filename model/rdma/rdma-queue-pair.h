/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_RDMA_QUEUE_PAIR_H
#define MLFABRIC_RDMA_QUEUE_PAIR_H

#include "ns3/congestion-ops.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/sack-scoreboard.h"

#include <cstdint>
#include <deque>

namespace ns3
{

class RdmaNic;

/**
 * \ingroup mlfabric-rdma
 * A message posted on a queue pair: a contiguous range of the QP's byte sequence.
 */
struct RdmaMessage
{
    uint64_t id{0};           //!< per-QP message number, from 0
    uint64_t begin{0};        //!< first byte in the QP's sequence
    uint64_t end{0};          //!< one past the last byte
    uint64_t tag{0};          //!< user tag, delivered to the receiver as immediate data
    Time posted;              //!< when it was posted
    bool acknowledged{false}; //!< unordered delivery: every byte acknowledged or held
};

/**
 * \ingroup mlfabric-rdma
 * The sending side of a reliable-connected queue pair.
 *
 * Messages queue in order and share one 64-bit byte sequence, so a NACK or a timeout
 * rewinds across message boundaries (go-back-N); under selective repeat it resends only
 * the gaps its scoreboard takes for lost, and keeps no more than the receiver's bitmap
 * in flight; under unordered delivery (RUD) the same, without the bitmap's bound, and a
 * message completes once every byte of it is acknowledged or reported held. Each QP has
 * its own congestion
 * control instance, pacing rate and optional window. Its data packets carry one of
 * Entropies values in turn (the UDP source ports a RoCE NIC varies), so that switches
 * that hash them may spread one QP over several paths.
 */
class RdmaQueuePair
    : public Object
    , public CcQueuePairView
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaQueuePair() = default;

    /** \return this QP's number on its NIC */
    uint32_t GetQpn() const;
    /** \return the peer's node id */
    uint32_t GetPeerNode() const;
    /** \return the traffic class of its packets */
    uint8_t GetPriority() const;
    /** \return the congestion control instance */
    Ptr<RdmaCongestionOps> GetCongestionOps() const;
    /** \return bytes posted and not yet acknowledged */
    uint64_t GetOutstandingBytes() const;
    /** \return bytes posted over the QP's life */
    uint64_t GetPostedBytes() const;
    /** \return true when every posted byte has been acknowledged */
    bool IsIdle() const;
    /** \return the index of the NIC port it sends on */
    uint32_t GetPort() const;
    /** \return retransmission timeouts so far */
    uint64_t GetTimeouts() const;
    /** \return true once it has exhausted its retries: it sends nothing more */
    bool IsInError() const;
    /** \return the receive context number at the peer */
    uint32_t GetPeerQpn() const;
    /** \return messages posted over the QP's life */
    uint64_t GetMessagesPosted() const;
    /** \return messages whose last byte has been acknowledged */
    uint64_t GetMessagesAcknowledged() const;
    /** \return how many entropy values its data packets take in turn */
    uint32_t GetEntropies() const;
    /**
     * \return bytes in the network, as the window counts them: sent, neither acknowledged
     *         nor reported held, and (selective repeat, unordered) not taken for lost
     */
    uint64_t GetBytesInFlight() const;

    // CcQueuePairView
    uint64_t GetLineRateBps() const override;
    uint64_t GetRateBps() const override;
    void SetRateBps(uint64_t rate) override;
    uint64_t GetWindowBytes() const override;
    void SetWindowBytes(uint64_t window) override;
    uint64_t GetSndNxt() const override;
    uint64_t GetSndUna() const override;
    Time GetBaseRtt() const override;
    uint32_t GetHopCount() const override;
    uint32_t GetMtuBytes() const override;

  protected:
    /** Stop the congestion control, whose timers would otherwise outlive the QP. */
    void DoDispose() override;

  private:
    friend class RdmaNic;

    /** \return true if a packet could be sent now, ignoring pacing and PFC */
    bool HasSendableData() const;
    /** \return true if selective repeat has a lost gap to resend */
    bool HasResend() const;
    /** Put the next packet one gap at the current rate after the last one sent. */
    void UpdateNextAvail();

    uint32_t m_qpn{0};
    uint32_t m_peerNode{0};
    uint32_t m_peerQpn{0};
    uint8_t m_priority{3};
    uint32_t m_port{0}; //!< index of the NIC port it sends on
    uint32_t m_hops{0}; //!< switch hops to the peer
    uint32_t m_mtu{4096};
    uint32_t m_entropies{1};   //!< Entropies attribute
    uint32_t m_nextEntropy{0}; //!< entropy of the next data packet
    uint64_t m_lineRateBps{0};
    Time m_baseRtt;

    uint64_t m_rateBps{0};
    uint64_t m_windowBytes{0};
    uint64_t m_sndNxt{0};
    uint64_t m_sndUna{0};
    uint64_t m_sentHigh{0}; //!< one past the highest byte ever sent
    uint64_t m_postedEnd{0};
    uint64_t m_nextMessageId{0};
    Time m_nextAvail;                   //!< pacing: earliest time of the next packet
    Time m_lastTxTime{Time(-1)};        //!< when the last data packet started; -1: none yet
    uint32_t m_lastTxWireBytes{0};      //!< its size on the wire
    RdmaNic* m_nic{nullptr};            //!< the NIC, told when the pacing gap changes
    std::deque<RdmaMessage> m_messages; //!< unacknowledged messages, oldest first
    Ptr<RdmaCongestionOps> m_cc;

    bool m_active{false}; //!< listed in its port's scheduler
    Time m_rtoDeadline;   //!< the retransmission timer fires at this time
    bool m_rtoArmed{false};
    uint32_t m_rtoBackoff{1};
    uint32_t m_retries{0}; //!< timeouts since the last acknowledgement progress
    bool m_error{false};   //!< retries exhausted
    Time m_lastNackTime{Time(-1)};
    uint64_t m_retransmittedBytes{0};
    uint64_t m_timeouts{0};

    bool m_selective{false};   //!< selective repeat or unordered (else go-back-N)
    bool m_unordered{false};   //!< unordered delivery: messages complete out of order
    uint64_t m_ackedAhead{0};  //!< unordered: messages acknowledged behind an earlier one
    uint64_t m_bitmapBytes{0}; //!< selective repeat: the receiver's bitmap reach
    uint64_t m_recoveryEnd{0}; //!< selective repeat: a loss episode lasts until here
    SackScoreboard m_sack;     //!< selective repeat: reported and lost bytes
};

} // namespace ns3

#endif /* MLFABRIC_RDMA_QUEUE_PAIR_H */
