/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_RDMA_NIC_H
#define MLFABRIC_RDMA_NIC_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/npu-relay.h"
#include "ns3/object.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rdma-rx-queue-pair.h"
#include "ns3/relay-arbiter.h"
#include "ns3/roce-header.h"
#include "ns3/roce-port.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-rdma
 * The RoCEv2 transport of one node: queue pairs over one or more ports.
 *
 * Aggregated to a Node. Senders post messages on reliable-connected queue pairs;
 * packets are built when a port can send them (no per-QP packet queue). ACKs and NACKs
 * travel in the data's class (AckPriority), CNPs in a class of their own
 * (CnpPriority). Each port serves control packets (ACK, NACK, CNP) first, then its QPs round robin,
 * skipping those that are paced, window-bound or whose priority is paused. The receiver
 * acknowledges every AckInterval packets and every message's last packet, NACKs a
 * sequence gap and drops out-of-order data (go-back-N), or with Transport
 * SelectiveRepeat keeps it in a bounded bitmap and NACKs each packet that arrives past
 * a gap, naming the gap and the packet, so that the sender resends only what is
 * missing (IRN), or with Transport Unordered (UEC's RUD) places every packet on arrival,
 * acknowledges each with a selective ACK and completes each message once all its bytes
 * are in, in whatever order; the transport timer of
 * InfiniBand (AckTimeout, RetryCount) recovers tail losses, and a queue pair that
 * exhausts its retries enters the error state and ends the run. A message completes on
 * the receiver when its last byte arrives in order (unordered: when its last missing byte
 * arrives), on the sender when its last byte is acknowledged (unordered: when every byte
 * of it is acknowledged or reported held). Frames for other nodes go through the NIC's NpuRelay
 * (bounded buffer, backpressure upstream by PFC or link credits, ECN and INT at egress), so NPUs
 * can be transit hops of ring and torus fabrics; a port serves relayed control frames with its own,
 * then shares its data bytes between its queue pairs and relayed data by the relay's weights
 * (RelayArbiter).
 */
class RdmaNic
    : public Object
    , public RocePortOwner
    , public RelayUpstream
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** Create a NIC with no ports and its relay, which it holds back upstream for. */
    RdmaNic();
    ~RdmaNic() override;

    /** \param nodeId the id of the node this NIC serves (its address) */
    void SetNodeId(uint32_t nodeId);
    /** \return the node id */
    uint32_t GetNodeId() const;

    /**
     * Add a port; its index is the number of ports added before it.
     * \param port the port
     * \return the port's index
     */
    uint32_t AddPort(Ptr<RocePort> port);
    /** \return the number of ports */
    uint32_t GetNPorts() const;
    /**
     * Set which priorities port \p port may pause at its peer (the lossless priorities
     * of its link); a port not set may pause any. Only matters with PfcEnabled.
     * \param port port index
     * \param priorities bit p set: priority p is lossless
     */
    void SetPfcPriorities(uint32_t port, uint8_t priorities);
    /** \param port port index \return the priorities it may pause */
    uint8_t GetPfcPriorities(uint32_t port) const;
    /** \return the transmit pipeline latency of the Ethernet ports (TransmitLatency) */
    Time GetTransmitLatency() const;
    /** \return the receive pipeline latency of the Ethernet ports (ReceiveLatency) */
    Time GetReceiveLatency() const;
    /** \return the extra time from data to its reply (AckTurnaround) */
    Time GetAckTurnaround() const;
    /** \param i index \return port i */
    Ptr<RocePort> GetPort(uint32_t i) const;

    /**
     * Set the ports leading to \p dstNode (several: ECMP by queue pair).
     * \param dstNode destination node id
     * \param ports port indices
     */
    void SetRoute(uint32_t dstNode, const std::vector<uint32_t>& ports);
    /** \param dstNode destination node id \return the ports toward it (empty if none) */
    const std::vector<uint32_t>& GetRoute(uint32_t dstNode) const;

    /**
     * Create a queue pair to \p peer, connected to a new receive context there.
     * \param peer the NIC of the destination node
     * \param priority traffic class of its packets (0..7)
     * \param baseRtt unloaded round-trip time (congestion control uses it)
     * \param hops switch hops to the peer
     * \param congestionControl false: the queue pair runs without congestion control
     *        (CcNone, line rate), as on a path inside a scale-up domain
     * \param mtu payload per packet; 0 takes the NIC's Mtu
     * \param linkReliable the whole path is scale-up (link-level reliable): the peer
     *        acknowledges every ScaleUpAckInterval packets instead of AckInterval
     * \return the queue pair
     */
    Ptr<RdmaQueuePair> Connect(Ptr<RdmaNic> peer,
                               uint8_t priority,
                               Time baseRtt,
                               uint32_t hops,
                               bool congestionControl = true,
                               uint32_t mtu = 0,
                               bool linkReliable = false);

    /**
     * \param peer the NIC of a destination node
     * \return the port the next Connect() to \p peer will send on (its base RTT and hop
     *         count must be those of the path through this port)
     */
    uint32_t GetNextPortTo(Ptr<RdmaNic> peer) const;

    /**
     * Post a message on a queue pair.
     * \param qp a queue pair of this NIC
     * \param bytes message size (at least 1)
     * \param tag delivered to the receiver with the message
     * \return the message id on this QP
     */
    uint64_t PostSend(Ptr<RdmaQueuePair> qp, uint64_t bytes, uint64_t tag);

    /** \return this NIC's queue pairs, by number */
    const std::vector<Ptr<RdmaQueuePair>>& GetQueuePairs() const;

    /** Transport counters of a NIC. */
    struct Counters
    {
        uint64_t dataPacketsTx{0};      //!< data packets sent, retransmissions included
        uint64_t dataBytesTx{0};        //!< payload bytes sent, retransmissions included
        uint64_t retransmittedBytes{0}; //!< payload bytes sent more than once
        uint64_t acksTx{0};             //!< ACKs sent
        uint64_t nacksTx{0};            //!< NACKs sent
        uint64_t cnpsTx{0};             //!< CNPs sent
        uint64_t cnpsRx{0};             //!< CNPs received
        uint64_t timeouts{0};           //!< retransmission timeouts
        uint64_t queuePairErrors{0};    //!< queue pairs that exhausted their retries
        uint64_t deliveredBytes{0};     //!< payload delivered in order to the receiver
        uint64_t duplicateBytes{0};     //!< payload received again and discarded
        uint64_t outOfOrderBytes{0};    //!< payload received after a gap and discarded
        uint64_t ecnMarkedRx{0};        //!< data packets received with CE
        uint64_t forwardedFrames{0};    //!< frames forwarded for other nodes
        uint64_t trimmedRx{0};          //!< trimmed data headers received (each NACKed)
    };

    /** \return the counters */
    const Counters& GetCounters() const;
    /** Loss recovery of the queue pairs. */
    enum Transport
    {
        GO_BACK_N,        //!< the receiver drops data past a gap; the sender resends from it
        SELECTIVE_REPEAT, //!< receive bitmap and selective NACK; only the gaps are resent
        UNORDERED,        //!< RUD: packets placed on arrival, messages complete out of order
    };
    /** \return the transport of this NIC's queue pairs */
    Transport GetTransport() const;
    /** \return the receive bitmap's reach in packets (selective repeat) */
    uint32_t GetBitmapPackets() const;
    /** \return the reported bytes past a gap that make it lost (selective repeat) */
    uint32_t GetReorderPackets() const;
    /** \return the relay that carries this NPU's transit traffic */
    Ptr<NpuRelay> GetRelay() const;
    /**
     * Let the NPU forward: size the relay's buffer once every port is added. Throws
     * InputError if the relay buffer does not hold its reserved and headroom bytes.
     * \param maxFrameBytes largest frame the relay holds
     */
    void ConfigureRelay(uint32_t maxFrameBytes);
    /**
     * \return message payload held inside the NIC: to forward, not yet processed, or
     *         (selective repeat) kept past a gap until the bytes before it arrive
     */
    uint64_t GetPayloadHeld() const;
    /**
     * \param rxQpn a receive context of this NIC (the peer QP's GetPeerQpn())
     * \return messages it has received in full
     */
    uint64_t GetMessagesReceived(uint32_t rxQpn) const;

    /**
     * Signature of the MessageSent trace: a message's last byte was acknowledged.
     * \param qp the queue pair
     * \param id message id
     * \param tag message tag
     * \param bytes message size
     * \param posted when it was posted
     */
    typedef void (*MessageSentCallback)(
        Ptr<RdmaQueuePair> qp, uint64_t id, uint64_t tag, uint64_t bytes, Time posted);
    /**
     * Signature of the QueuePairError trace: a queue pair exhausted its retries.
     * \param qp the queue pair, now in the error state
     * \param report one line naming it, its peer and the bytes left unacknowledged
     */
    typedef void (*QueuePairErrorCallback)(Ptr<RdmaQueuePair> qp, const std::string& report);
    /**
     * Signature of the MessageReceived trace: a message's last byte has arrived.
     * \param srcNode sending node
     * \param srcQpn sending QP number
     * \param tag message tag
     * \param bytes message size
     */
    typedef void (*MessageReceivedCallback)(uint32_t srcNode,
                                            uint32_t srcQpn,
                                            uint64_t tag,
                                            uint64_t bytes);

    // RocePortOwner
    bool DequeueFrame(RocePort& port, RoceFrame& frame) override;
    void ReceiveFrame(RocePort& port, RoceFrame&& frame) override;
    bool HasPending(const RocePort& port) const override;

    // RelayUpstream: PFC toward the upstream of a relay ingress queue
    void Hold(uint32_t inPort, uint8_t priority, bool hold) override;
    void Freed(uint32_t inPort, uint8_t priority, uint32_t bytes) override;

  protected:
    friend class RdmaQueuePair;

    /**
     * The pacing gap of \p qp changed with its rate: wake its port at the new time.
     * \param qp a queue pair of this NIC
     */
    void Repace(RdmaQueuePair& qp);

    /** Cancel the ports' pacing wake-ups, drop the ports and dispose of every queue pair. */
    void DoDispose() override;

  private:
    /** Per-port scheduler state. */
    struct PortState
    {
        Ptr<RocePort> port;
        std::deque<RoceFrame> control;   //!< ACK, NACK, CNP
        std::vector<RdmaQueuePair*> qps; //!< QPs with data to send
        size_t next{0};                  //!< round-robin position in qps
        EventId wakeup;                  //!< pacing: earliest eligible QP
        uint64_t rxBacklogBytes{0};      //!< data received, not yet processed
        uint64_t rxBacklogPayload{0};    //!< its message payload
        Time rxBusyUntil;                //!< the receive pipeline is busy until then
        uint8_t lossless{0xFF};          //!< priorities this port may pause (its link's)
        uint8_t rxHold{0};               //!< priorities the receive backlog holds paused
        uint8_t relayHold{0};            //!< priorities the relay buffer holds paused
        RelayArbiter arbiter;            //!< own queue pairs vs relayed data
    };

    /** \return the port index toward \p dst for a flow with hash \p hash */
    uint32_t SelectPort(uint32_t dst, uint32_t hash) const;
    /** List \p qp in its port's scheduler and kick the port. */
    void Activate(RdmaQueuePair* qp);
    /** Build the next data packet of \p qp. */
    RoceFrame BuildDataFrame(RdmaQueuePair& qp);
    /**
     * Queue a data packet behind the receive pipeline (finite RxProcessingRate); the
     * \p creditBytes it holds of a credit link go back once it is processed.
     */
    void QueueReceivedData(uint32_t port,
                           const RoceHeader& h,
                           uint32_t wireBytes,
                           uint32_t creditBytes);
    /** The receive pipeline has processed a data packet. */
    void ProcessedData(uint32_t port, RoceHeader h, uint32_t wireBytes, uint32_t creditBytes);
    /** Handle a data packet for this node. */
    void ReceiveData(const RoceHeader& h);
    /**
     * A trimmed header of a data packet arrived: ask at once for the bytes from the first
     * one missing (go-back-N resends the trimmed packet with them).
     * \param rx the receive context
     * \param h the header
     */
    void ReceiveTrimmed(RdmaRxQueuePair& rx, const RoceHeader& h);
    /**
     * A trimmed header under selective repeat: a NACK naming exactly its bytes as lost.
     * \param rx the receive context
     * \param h the header
     */
    void ReceiveTrimmedSelective(RdmaRxQueuePair& rx, const RoceHeader& h);
    /** Handle an ACK or NACK for one of this NIC's QPs. */
    void ReceiveAck(const RoceHeader& h);
    /** Handle a data packet for this node under selective repeat. */
    void ReceiveDataSelective(const RoceHeader& h, RdmaRxQueuePair& rx, bool ce);
    /** Handle a data packet for this node under unordered delivery. */
    void ReceiveDataUnordered(const RoceHeader& h, RdmaRxQueuePair& rx, bool ce);
    /**
     * Unordered delivery: complete the messages of \p qp that [begin, end) may have
     * made whole (acknowledged or reported held), in whatever order.
     */
    void CompleteHeldMessages(RdmaQueuePair& qp, uint64_t begin, uint64_t end);
    /**
     * Handle a selective NACK: record the packet it names as held (or, for a trimmed
     * packet, as lost), resend the gaps it shows lost. \return true if it found a new
     * loss (the congestion control hears a NACK)
     */
    bool ReceiveSelectiveNack(RdmaQueuePair& qp, const RoceHeader& h);
    /**
     * Answer the data packet \p h of \p rx under selective repeat.
     * \param rx the receive context
     * \param h the data packet
     * \param ce it carried CE
     * \param nack a NACK (the gap starts at the in-order point), else an ACK
     * \param held the NACK names \p h as held past the gap
     */
    void SendSelectiveReply(
        RdmaRxQueuePair& rx, const RoceHeader& h, bool ce, bool nack, bool held);
    /** \return a control packet of \p type answering the data packet \p data */
    RoceHeader MakeReply(RoceHeader::Type type, const RoceHeader& data) const;
    /** Queue a control packet toward \p dst after the AckTurnaround. */
    void SendControl(RoceHeader& h, uint32_t hash);
    /** Queue the control packet \p h on port \p port now. */
    void QueueControl(uint32_t port, RoceHeader h);
    /** Relay a frame addressed to another node, received on port \p inPort. */
    void Forward(uint32_t inPort, RoceFrame&& frame);
    /** Build the next data packet of a listed queue pair of \p ps, or arm its wake-up. */
    bool DequeueLocalData(PortState& ps, RocePort& port, RoceFrame& frame);
    /** Pause or resume \p priority at the peer of \p ps's port as either hold asks. */
    void UpdateXoff(PortState& ps, uint8_t priority);
    /** Acknowledge bytes below \p seq on \p qp; complete messages. */
    void AdvanceUna(RdmaQueuePair& qp, uint64_t seq);
    /** Arm or push back the retransmission timer of \p qp. */
    void ArmRto(RdmaQueuePair& qp);
    /** The retransmission timer of \p qp may have expired. */
    void RtoCheck(Ptr<RdmaQueuePair> qp);
    /** \return the retransmission timeout of \p qp, backoff included; Time::Max(): none */
    Time RtoOf(const RdmaQueuePair& qp) const;
    /** \return when the timer of \p qp expires if nothing is acknowledged from now */
    Time RtoDeadline(const RdmaQueuePair& qp) const;
    /** \p qp exhausted its retries: error state, report, and the run stops. */
    void EnterError(Ptr<RdmaQueuePair> qp);

    uint32_t m_nodeId{0};
    std::deque<PortState> m_ports; //!< deque: frames are move-only, ports never relocate
    std::vector<std::vector<uint32_t>> m_routes; //!< destination node -> port indices
    std::vector<Ptr<RdmaQueuePair>> m_qps;
    std::vector<RdmaRxQueuePair> m_rxQps;
    Counters m_counters;
    Ptr<NpuRelay> m_relay;

    // Attributes
    uint32_t m_mtu;
    uint32_t m_ackInterval;
    uint32_t m_scaleUpAckInterval; //!< AckInterval of queue pairs on all-scale-up paths
    uint32_t m_ackTimeoutExponent;
    uint32_t m_retryCount;
    Time m_rto;
    uint32_t m_maxRtoBackoff;
    bool m_stopOnQpError;
    Time m_nackRetry;
    Time m_cnpInterval;
    DataRate m_rxRate;
    Time m_txLatency;
    Time m_rxLatency;
    Time m_ackTurnaround;
    bool m_pfcEnabled;
    uint64_t m_pfcXoffBytes;
    uint64_t m_pfcXonBytes;
    int32_t m_ackPriority;
    uint8_t m_cnpPriority;
    TypeId m_ccTypeId;
    Transport m_transport;
    uint32_t m_bitmapPackets;
    uint32_t m_reorderPackets;

    TracedCallback<Ptr<RdmaQueuePair>, uint64_t, uint64_t, uint64_t, Time> m_messageSent;
    TracedCallback<uint32_t, uint32_t, uint64_t, uint64_t> m_messageReceived;
    TracedCallback<Ptr<RdmaQueuePair>, const std::string&> m_qpError;
};

} // namespace ns3

#endif /* MLFABRIC_RDMA_NIC_H */
