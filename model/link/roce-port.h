/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ROCE_PORT_H
#define MLFABRIC_ROCE_PORT_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/pint-telemetry.h"
#include "ns3/random-variable-stream.h"
#include "ns3/roce-header.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>

namespace ns3
{

class RoceChannel;
class RocePort;

/**
 * \ingroup mlfabric-link
 * Number of IEEE 802.1p priorities.
 */
constexpr uint8_t kNumPriorities = 8;

/**
 * \ingroup mlfabric-link
 * A frame ready for the wire: its contents, what it costs on the wire, its priority.
 *
 * RoCE frames carry their header decoded and no ns-3 packet: switches read and stamp
 * it in place at every hop, with no packet to allocate, parse or re-serialize. Other
 * frames (PFC) carry a packet.
 */
struct RoceFrame
{
    Ptr<Packet> packet;    //!< the frame, when it is not a RoCE frame
    RoceHeaderPtr header;  //!< the RoCE header (RoCE frames); the payload is virtual
    uint32_t wireBytes{0}; //!< bytes on the wire, preamble and inter-frame gap included
    uint8_t priority{0};   //!< traffic class
    uint32_t payload{0};   //!< message payload it carries (data packets), for accounting
    /// The port it arrived on, while the frame holds buffer credits of that port's link
    RocePort* creditPort{nullptr};
    uint32_t creditBytes{0}; //!< credits it holds there (its size on that link)
    uint8_t creditVc{0};     //!< the virtual channel (priority) the credits belong to
    bool linkFramed{false};  //!< wireBytes is a credit link's own framing, not RoCEv2's

    /**
     * The frame has left the buffer of the node it arrived at (sent on, consumed or
     * dropped): return its credits to the link it arrived by. Idempotent; a frame that
     * holds none returns none.
     */
    void ReturnCredits();

    /**
     * \return the frame as an ns-3 packet, for trace sinks: the packet, or a new one
     *         holding the header and the payload's size in zero bytes
     */
    Ptr<Packet> ToPacket() const;
};

/**
 * \ingroup mlfabric-link
 * What a port asks of the NIC or switch it belongs to.
 *
 * The port owns transmission and PFC; the owner owns the queues. The port pulls the
 * next frame when the wire becomes free, so no frame waits in two places.
 */
class RocePortOwner
{
  public:
    virtual ~RocePortOwner() = default;
    /**
     * Give the next frame to send on \p port, skipping priorities it reports paused.
     * \param port the idle port
     * \param frame filled in when a frame is returned
     * \return false when nothing can be sent now
     */
    virtual bool DequeueFrame(RocePort& port, RoceFrame& frame) = 0;
    /**
     * A RoCE frame arrived on \p port (PFC frames are consumed by the port).
     * \param port receiving port
     * \param frame the frame, its wire size included; the owner takes it
     */
    virtual void ReceiveFrame(RocePort& port, RoceFrame&& frame) = 0;
    /**
     * Whether DequeueFrame() on \p port may return a frame, or act, when asked next.
     *
     * A port that has just started a frame asks this to decide whether to come back
     * when the wire is free; an owner with nothing queued is not asked again until it
     * calls NotifyWork(). The answer must be true whenever DequeueFrame() could return a
     * frame or schedule anything (a pacing wake-up); the default is always true.
     * \param port the port
     * \return false only if DequeueFrame() would return false without side effects
     */
    virtual bool
    HasPending(const RocePort& port) const
    {
        return true;
    }
};

/**
 * \ingroup mlfabric-link
 * One end of a full-duplex RoCE link: serialization, 802.1Qbb PFC or link-level
 * credit flow control, loss.
 *
 * Used by NICs and switch ports alike. Transmission time is the frame's wire bytes
 * (preamble and inter-frame gap included) at the port's rate. Received pause frames
 * stop a priority for their quanta, each quantum 512 bit times; a refresh extends the
 * pause and zero quanta end it. On the sending side, SetPfcXoff() keeps a priority of
 * the peer paused by refreshing before the pause expires, and resumes it explicitly.
 *
 * With CreditFlowControl (scale-up links) the port instead holds credits per virtual
 * channel (priority): CreditBytes of the peer's buffer to begin with, a frame's size on
 * the wire charged when it starts, given back by the peer when the frame leaves its
 * buffer (RoceFrame::ReturnCredits), usable here after the cable's delay and
 * CreditReturnDelay, in updates of CreditUpdateBytes (or after CreditUpdateInterval)
 * rather than per frame when those are set. A channel holding less than
 * CreditFrameBytes cannot send, which
 * owners see through CanSend() exactly as a pause; no PFC frame is involved. A link
 * may also have its own framing (PacketHeaderBytes > 0): a frame's payload travels in
 * packets of at most PacketPayloadBytes, each with that header, rounded up to
 * FlitBytes, with no preamble or gap; control frames are one header.
 */
class RocePort : public NetDevice
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** Create a port with its own loss-model random stream, not yet owned or attached. */
    RocePort();
    ~RocePort() override;

    /**
     * \param owner the NIC or switch whose queues feed this port
     * \param index the port's number at its owner
     */
    void SetOwner(RocePortOwner* owner, uint32_t index);
    /** \return the port's number at its owner */
    uint32_t GetOwnerIndex() const;
    /** \param channel the link this port transmits on */
    void Attach(Ptr<RoceChannel> channel);
    /** \return the line rate, bit/s */
    uint64_t GetRateBps() const;
    /** \param rate the line rate */
    void SetDataRate(DataRate rate);
    /** \return the line rate */
    DataRate GetDataRate() const;
    /** \return the peer port at the other end of the link */
    Ptr<RocePort> GetPeer() const;
    /** \return the one-way propagation delay of the link */
    Time GetLinkDelay() const;

    /** The owner has frames to send: start transmitting if the wire is free. */
    void NotifyWork();
    /** \return true while a frame is being serialized */
    bool IsBusy() const;
    /**
     * \param priority a traffic class, 0..7
     * \return true while \p priority is paused by the peer
     */
    bool
    IsPaused(uint8_t priority) const
    {
        return ((m_pausedMask >> priority) & 1u) != 0;
    }

    /**
     * \param priority a traffic class (virtual channel), 0..7
     * \return true while \p priority holds fewer credits than a maximum frame (credit
     *         flow control only)
     */
    bool
    IsCreditStalled(uint8_t priority) const
    {
        return ((m_creditStalledMask >> priority) & 1u) != 0;
    }

    /**
     * What owners check before giving a frame: PFC pause or credit stall alike.
     * \param priority a traffic class, 0..7
     * \return true if a frame of \p priority may start now
     */
    bool
    CanSend(uint8_t priority) const
    {
        return (((m_pausedMask | m_creditStalledMask) >> priority) & 1u) == 0;
    }

    /** \return the priorities that cannot send now (PFC pause or credit stall) */
    uint8_t
    GetBlockedMask() const
    {
        return m_pausedMask | m_creditStalledMask;
    }

    /**
     * \param priority a virtual channel, 0..7
     * \return when the wire became free for \p priority without credits (meaningful
     *         while IsCreditStalled)
     */
    Time
    GetCreditStallStart(uint8_t priority) const
    {
        return m_stallStart[priority];
    }

    /** \return true if the port uses link-level credit flow control */
    bool
    HasCreditFlowControl() const
    {
        return m_creditFc;
    }

    /** \param bytes credits every VC starts with (CreditBytes) */
    void SetCreditBytes(uint64_t bytes);
    /** \return CreditBytes */
    uint64_t GetCreditBytes() const;
    /**
     * \param priority a virtual channel, 0..7
     * \return the credits (bytes of the peer's buffer) this port may still use on it
     */
    uint64_t GetCredits(uint8_t priority) const;
    /**
     * Give back buffer credits of a frame that arrived on this port: the peer may use
     * them after this link's propagation delay and the CreditReturnDelay.
     * \param priority the virtual channel
     * \param bytes the credits the frame held
     */
    void ReturnCredits(uint8_t priority, uint32_t bytes);
    /** \return the time from a frame arriving here to its owner receiving it (PipelineLatency) */
    Time GetPipelineLatency() const;
    /** \return the time from a frame leaving the scheduler to its first bit on the cable */
    Time GetTransmitLatency() const;
    /** \return bytes after which the owner receives a frame; 0 = store-and-forward */
    uint32_t GetCutThroughBytes() const;
    /**
     * Time from a frame's first bit reaching this port to its owner receiving it: the whole
     * serialization (store-and-forward) or that of its first CutThroughBytes (cut-through),
     * plus the PipelineLatency.
     * \param wireBytes the frame's bytes on the wire
     * \param txTime its serialization time on the link
     * \return the arrival latency
     */
    Time GetArrivalLatency(uint32_t wireBytes, Time txTime) const;
    /**
     * \return bytes of a frame that occupy the wire but no buffer: preamble and gap on
     *         RoCEv2 links, none on a link with its own framing
     */
    uint32_t GetPhyOverheadBytes() const;

    /** \return the time this port takes to act on a pause frame (PfcResponseTime) */
    Time GetPfcResponseTime() const;

    /** What the PFC watchdog does with a priority it finds stuck in a pause storm. */
    enum WatchdogAction
    {
        WATCHDOG_DROP,    //!< drop its frames (queued and arriving) while it restores
        WATCHDOG_FORWARD, //!< send its frames, ignoring pauses, while it restores
    };

    /** \return the priorities paused by the peer, bit p for priority p */
    uint8_t
    GetPausedMask() const
    {
        return m_pausedMask;
    }

    /**
     * \param priority a traffic class, 0..7
     * \return when the current pause of \p priority began (meaningful while paused)
     */
    Time GetPauseStart(uint8_t priority) const;
    /**
     * Set whether this side wants \p priority paused at the peer (ingress congestion).
     * XOFF sends a pause frame and keeps refreshing it; XON sends zero quanta.
     * \param priority a traffic class, 0..7
     * \param xoff true to pause the peer's \p priority, false to resume it
     */
    void SetPfcXoff(uint8_t priority, bool xoff);
    /**
     * \param priority a traffic class, 0..7
     * \return true if this side currently holds \p priority paused at the peer
     */
    bool IsXoff(uint8_t priority) const;

    /**
     * Deliver a frame from the channel.
     * \param frame the frame, its wire size and payload included
     * \param isPfc true for a PFC frame
     */
    void Receive(RoceFrame&& frame, bool isPfc);

    /** \param bytes wire bytes \return their serialization time at the port rate */
    Time SerializationTime(uint32_t bytes) const;
    /** \param quanta PFC pause quanta \return the pause they ask for at the port rate */
    Time QuantaTime(uint16_t quanta) const;

    /** Counters of one port, kept for statistics and tests. */
    struct Counters
    {
        uint64_t txFrames{0};    //!< frames sent (PFC included)
        uint64_t txBytes{0};     //!< wire bytes sent (PFC included)
        uint64_t rxFrames{0};    //!< frames received (PFC included)
        uint64_t lostFrames{0};  //!< frames lost on the wire (loss probability, failed link)
        uint64_t pfcPauseTx{0};  //!< pause frames sent (nonzero quanta, refreshes included)
        uint64_t pfcResumeTx{0}; //!< resume frames sent (zero quanta)
        uint64_t pfcRx{0};       //!< PFC frames received
        std::array<Time, kNumPriorities> pausedTime{}; //!< total time each priority was paused
        uint64_t txPayload{0};              //!< message payload sent (lost frames included)
        uint64_t rxPayload{0};              //!< message payload received
        uint64_t lostPayload{0};            //!< message payload lost on the wire
        Time lastXon[kNumPriorities]{};     //!< when this port last sent a resume, per priority
        uint64_t watchdogTriggers{0};       //!< pause storms broken by the PFC watchdog
        uint64_t pfcIgnored{0};             //!< pause frames ignored while the watchdog restores
        uint64_t watchdogDrops{0};          //!< frames the watchdog dropped (also in lostFrames)
        uint64_t watchdogDroppedPayload{0}; //!< their message payload (also in lostPayload)
        uint64_t creditUpdates{0};          //!< credit updates sent back to the peer
        uint64_t creditStalls{0};           //!< times the wire went idle for lack of credits
        std::array<Time, kNumPriorities> creditStallTime{}; //!< wire idle for lack of credits
        uint64_t failedFrames{0};  //!< frames lost because the link was down (in lostFrames)
        uint64_t failedPayload{0}; //!< their message payload (in lostPayload)
    };

    /** \return wire bytes sent so far (PFC included) */
    uint64_t
    GetTxBytes() const
    {
        return m_counters.txBytes;
    }

    /** \return this port's counters (paused time includes a pause in progress) */
    Counters GetCounters() const;

    /** \return the utilisation HPCC-PINT's stamped packets update at this egress */
    PintUtilization&
    GetPintUtilization()
    {
        return m_pintUtilization;
    }

    // NetDevice. A port carries only its owner's RoCE and PFC frames: it has no MAC
    // address, no upper-layer protocols and no broadcast, so most of these are inert.

    /** \param index the interface index the node gave this device */
    void SetIfIndex(const uint32_t index) override;
    /** \return the interface index the node gave this device */
    uint32_t GetIfIndex() const override;
    /** \return the RoceChannel the port is attached to, or null */
    Ptr<Channel> GetChannel() const override;
    /** Ignored: frames go by node and route, not by MAC address. \param address unused */
    void SetAddress(Address address) override;
    /** \return an all-zero MAC address: the port has none */
    Address GetAddress() const override;
    /** \param mtu the MTU, recorded only \return true */
    bool SetMtu(const uint16_t mtu) override;
    /** \return the MTU last set */
    uint16_t GetMtu() const override;
    /** \return true once the port is attached to a channel, unless its link has failed */
    bool IsLinkUp() const override;
    /** \param callback called whenever SetLinkFailed changes the link's state */
    void AddLinkChangeCallback(Callback<void> callback) override;

    /**
     * Fail or restore this end of the link (a cut cable, a dead switch). While failed,
     * every frame the port sends and every frame that reaches it is lost: the port keeps
     * draining its owner's queues at line rate, as a switch does into a dead link until
     * its routes move, and counts the frames in failedFrames and lostFrames. Frames of a
     * credit-controlled link give their credits back as on any loss.
     * \param failed true to fail the link, false to restore it
     */
    void SetLinkFailed(bool failed);
    /** \return true while SetLinkFailed holds the link down */
    bool IsLinkFailed() const;
    /** \return false: a point-to-point RoCE link has no broadcast */
    bool IsBroadcast() const override;
    /** \return the Ethernet broadcast address, as NetDevice requires one */
    Address GetBroadcast() const override;
    /** \return false: no multicast */
    bool IsMulticast() const override;
    /** \param multicastGroup an IPv4 group \return its Ethernet multicast address */
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    /** \param addr an IPv6 address \return its Ethernet multicast address */
    Address GetMulticast(Ipv6Address addr) const override;
    /** \return false: the switch forwards between ports, not the port */
    bool IsBridge() const override;
    /** \return true: one peer at the other end of the cable */
    bool IsPointToPoint() const override;
    /**
     * Refused: traffic comes from the owner's queues (RocePortOwner), not ns-3 stacks.
     * \param packet unused
     * \param dest unused
     * \param protocolNumber unused
     * \return false
     */
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    /**
     * Refused, as Send() is.
     * \param packet unused
     * \param source unused
     * \param dest unused
     * \param protocolNumber unused
     * \return false
     */
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    /** \return the node the port belongs to */
    Ptr<Node> GetNode() const override;
    /** \param node the node the port belongs to */
    void SetNode(Ptr<Node> node) override;
    /** \return false: there is no address resolution on a RoCE link */
    bool NeedsArp() const override;
    /** Ignored: received frames go to the owner. \param cb unused */
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    /** Ignored: received frames go to the owner. \param cb unused */
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    /** \return false: SendFrom() is refused */
    bool SupportsSendFrom() const override;

    /**
     * Assign a fixed random stream number to the loss model.
     * \param stream first stream index
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    /** Cancel the pause, refresh and watchdog timers and drop the owner, channel and node. */
    void DoDispose() override;

  private:
    /** \param bits a number of bits \return their time on the wire, rounded up */
    Time BitTime(uint64_t bits) const;
    /** Start sending the next frame if the wire is free. */
    void TryTransmit();
    /** The wire is free: send what the owner has (scheduled only when it has work). */
    void TransmitComplete();
    /** Schedule TransmitComplete at m_busyUntil unless already scheduled. */
    void ScheduleTransmitComplete();
    /** Queue a PFC frame for \p priority with \p quanta. */
    void SendPfc(uint8_t priority, uint16_t quanta);
    /** Re-send the pause for \p priority before the peer's timer expires. */
    void RefreshPause(uint8_t priority);
    /** Handle a received PFC frame: act on it after the response time. */
    void ReceivePfc(Ptr<Packet> packet);
    /** Act on the pauses and resumes of a PFC frame. */
    void ApplyPfc(const PfcHeader& pfc);
    /**
     * Take the owner's next frame, dropping those of priorities the watchdog flushes.
     * \param frame the frame
     * \return false when the owner has nothing to send
     */
    bool DequeueUnlessFlushed(RoceFrame& frame);
    /** The pause of \p priority has expired. */
    void PauseExpired(uint8_t priority);
    /** Close the paused interval of \p priority. */
    void EndPause(uint8_t priority);
    /** \p priority has been paused for the watchdog timeout: break the storm. */
    void WatchdogFired(uint8_t priority);
    /** Credits freed at the peer have arrived. */
    void AddCredits(uint8_t priority, uint64_t bytes);
    /** Send the pending credits of \p priority if the oldest waited CreditUpdateInterval. */
    void FlushCredits(uint8_t priority);
    /** Send the peer \p bytes of credits of \p priority: usable there after the delays. */
    void SendCreditUpdate(uint8_t priority, uint64_t bytes);
    /** Charge \p frame to the credits of its priority (credit flow control). */
    void ChargeCredits(RoceFrame& frame);
    /** Size \p frame by this link's framing (or back to RoCEv2's) before it is sent. */
    void FrameForLink(RoceFrame& frame) const;
    /** Count \p frame as lost to a failed link and trace it. \param frame the frame */
    void CountFailureLoss(const RoceFrame& frame);

    RocePortOwner* m_owner{nullptr};
    uint32_t m_ownerIndex{0};
    Ptr<RoceChannel> m_channel;
    Ptr<Node> m_node;
    uint32_t m_ifIndex{0};
    uint16_t m_mtu{4096};
    uint64_t m_rateBps{100'000'000'000};
    double m_lossProbability{0};
    bool m_linkFailed{false};                             //!< SetLinkFailed
    TracedCallback<> m_linkChangeCallbacks;               //!< AddLinkChangeCallback
    TracedCallback<Ptr<const Packet>> m_failureLossTrace; //!< a frame lost to a failed link
    Ptr<UniformRandomVariable> m_lossRng;
    uint16_t m_pauseQuanta{PfcHeader::kMaxQuanta};
    double m_refreshFraction{0.5};
    bool m_pauseExpires{true};
    Time m_watchdogTimeout;
    Time m_watchdogRestore;
    WatchdogAction m_watchdogAction{WATCHDOG_DROP};
    Time m_pfcResponse;

    Time m_busyUntil;            //!< the frame on the wire is serialized by then
    bool m_txCompleteSet{false}; //!< a TransmitComplete event is pending
    std::deque<std::pair<uint8_t, uint16_t>> m_pfcQueue; //!< (priority, quanta) to send

    uint8_t m_pausedMask{0};                           //!< bit p: peer has paused priority p
    std::array<Time, kNumPriorities> m_pauseStart{};   //!< when the current pause began
    std::array<EventId, kNumPriorities> m_pauseExpiry; //!< end of the current pause
    std::array<bool, kNumPriorities> m_xoff{};         //!< we hold the peer paused
    std::array<EventId, kNumPriorities> m_refresh;     //!< next pause refresh
    std::array<EventId, kNumPriorities> m_watchdog;    //!< storm check of a pause
    std::array<Time, kNumPriorities> m_ignoreUntil{};  //!< watchdog restoration end
    std::array<Time, kNumPriorities> m_flushUntil{};   //!< watchdog drop action's end
    uint8_t m_flushing{0}; //!< bit p: priority p may be in a watchdog flush

    bool m_creditFc{false};                           //!< credit flow control on
    uint64_t m_creditBytes{0};                        //!< credits per VC at start
    uint32_t m_creditFrameBytes{0};                   //!< a VC stalls below this
    Time m_creditReturnDelay;                         //!< beyond the propagation delay
    Time m_pipelineLatency;                           //!< receive pipeline latency
    Time m_transmitLatency;                           //!< transmit pipeline latency
    uint32_t m_cutThroughBytes{0};                    //!< 0 = store-and-forward
    uint32_t m_packetHeader{0};                       //!< own framing: header; 0 = RoCEv2
    uint32_t m_packetPayload{256};                    //!< own framing: payload per packet
    uint32_t m_flitBytes{16};                         //!< own framing: flit size
    std::array<uint64_t, kNumPriorities> m_credits{}; //!< credits left per VC
    uint8_t m_creditStalledMask{0};                   //!< bit p: VC p out of credits
    std::array<Time, kNumPriorities> m_stallStart{};  //!< wire free while VC p is stalled
    uint32_t m_creditUpdateBytes{0};                  //!< credits per update; <= 1: per frame
    Time m_creditUpdateInterval;                      //!< longest wait of freed credits
    std::array<uint64_t, kNumPriorities> m_pendingCredits{}; //!< freed, not yet sent back
    std::array<Time, kNumPriorities> m_pendingSince{};       //!< oldest pending credit
    std::array<EventId, kNumPriorities> m_creditFlush;       //!< interval timer per VC

    Counters m_counters;

    PintUtilization m_pintUtilization; //!< HPCC-PINT's estimate at this egress

    TracedCallback<Ptr<const Packet>> m_txTrace;      //!< a frame started on the wire
    TracedCallback<Ptr<const Packet>> m_lossTrace;    //!< a frame was lost on the wire
    TracedCallback<uint8_t, uint16_t> m_pfcTxTrace;   //!< PFC sent: priority, quanta
    TracedCallback<uint8_t, Time> m_pauseTrace;       //!< a pause ended: priority, duration
    TracedCallback<uint8_t> m_watchdogTrace;          //!< the watchdog broke a pause storm
    TracedCallback<uint8_t, Time> m_creditStallTrace; //!< wire idle for credits: VC, duration
};

} // namespace ns3

#endif /* MLFABRIC_ROCE_PORT_H */
