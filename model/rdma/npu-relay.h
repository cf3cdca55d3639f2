/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_NPU_RELAY_H
#define MLFABRIC_NPU_RELAY_H

#include "ns3/ecn-threshold-map.h"
#include "ns3/egress-marking.h"
#include "ns3/egress-queues.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/roce-port.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-rdma
 * How a relay holds back, and frees, the upstream of one of its ingress ports.
 *
 * The relay calls Hold() when an ingress queue should stop its upstream (it reached
 * the dynamic threshold or spilled into headroom) and when it may resume, and Freed()
 * for every byte that leaves its buffer. On a PFC link Hold() is XOFF/XON and Freed()
 * does nothing; on a link with credit-based flow control Hold() does nothing and
 * Freed() returns the credits, so the upstream backs up by credits instead of pauses.
 */
class RelayUpstream
{
  public:
    virtual ~RelayUpstream() = default;
    /**
     * \param inPort the ingress port
     * \param priority its priority
     * \param hold true to stop the upstream, false to let it resume
     */
    virtual void Hold(uint32_t inPort, uint8_t priority, bool hold) = 0;
    /**
     * \param inPort the ingress port the bytes were admitted on
     * \param priority their priority
     * \param bytes buffer bytes that left
     */
    virtual void Freed(uint32_t inPort, uint8_t priority, uint32_t bytes) = 0;
};

/**
 * \ingroup mlfabric-rdma
 * The transit path of an NPU that forwards for others: a small switch inside the NIC.
 *
 * Frames for other nodes are admitted by a SharedBufferMmu of the relay's own size
 * (BufferBytes) against their ingress port and priority, or dropped on a lossy
 * priority; an ingress queue at its threshold holds its upstream through RelayUpstream
 * (PFC, or the link's credits). They wait in per-priority EgressQueues at their egress
 * port (control priorities strict, DWRR among the others), and leave with the switch's
 * ECN marking and INT stamping (EditDepartingFrame), so every congestion control sees a
 * relay bottleneck as it sees a switch's. A frame from a credit (scale-up) link that
 * leaves by a RoCE port is staged, as PXN stages it in the NIC-side GPU's memory: it
 * moves to the shared pool and gives its credits back on arrival, so the NPU's own
 * scale-up frames behind it keep flowing; only while the pool is at its dynamic
 * threshold does it keep its credits until it leaves (StageHandOvers turns staging
 * off). The NIC arbitrates each port between this relay and its own queue pairs
 * (RelayArbiter, weights TransitWeight and LocalWeight).
 */
class NpuRelay : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** A relay with no ports, its MMU and its ECN-marking random stream. */
    NpuRelay();
    ~NpuRelay() override;

    /** \param id the node id (named in errors) */
    void SetNodeId(uint32_t id);
    /** Add a port, numbered as at the NIC. \param port the NIC's port \return its index */
    uint32_t AddPort(Ptr<RocePort> port);
    /** \param upstream what holds and frees the relay's upstreams (the NIC) */
    void SetUpstream(RelayUpstream* upstream);
    /**
     * \param port port index
     * \param priorities the lossless priorities of its link, bit p for priority p
     */
    void SetPfcPriorities(uint32_t port, uint8_t priorities);
    /**
     * \param port egress port index
     * \param thresholds its ECN marking ramp
     */
    void SetEcnThresholds(uint32_t port, const EcnThresholds& thresholds);
    /**
     * \param port egress port index
     * \return its ECN marking ramp: the one set, else EcnMap's entry for the port's rate
     */
    EcnThresholds GetEcnThresholds(uint32_t port) const;

    /**
     * Size the buffer accounting once every port is added. Throws InputError if
     * BufferBytes does not hold the reserved and headroom bytes.
     * \param maxFrameBytes largest frame the relay holds (sizes PFC headroom)
     */
    void Configure(uint32_t maxFrameBytes);
    /** \return true once Configure() ran: the NPU may forward */
    bool IsConfigured() const;

    /**
     * Admit a frame for another node, or drop it.
     * \param inPort the port it arrived on
     * \param outPort the port it leaves by
     * \param frame the frame, taken over
     * \return false if the buffer refused it
     */
    bool Enqueue(uint32_t inPort, uint32_t outPort, RoceFrame&& frame);
    /** \param port an egress port \return true if a strict (control) frame may leave now */
    bool HasControlReady(const RocePort& port) const;
    /** \param port an egress port \return true if a frame of a DWRR priority may leave now */
    bool HasDataReady(const RocePort& port) const;
    /** \param port egress port index \return true if any frame waits there */
    bool HasQueued(uint32_t port) const;
    /**
     * Take the next frame for \p port: release its buffer, let its upstream resume,
     * mark and stamp it.
     * \param port the egress port
     * \param frame filled in when a frame is returned
     * \return false when nothing may leave now
     */
    bool Dequeue(RocePort& port, RoceFrame& frame);

    /** \return the buffer accounting */
    Ptr<SharedBufferMmu> GetMmu() const;
    /** \return TransitWeight */
    uint32_t GetTransitWeight() const;
    /** \return LocalWeight */
    uint32_t GetLocalWeight() const;
    /** \return StageHandOvers */
    bool IsStagingHandOvers() const;
    /** \return EcnEnabled */
    bool IsEcnEnabled() const;

    /** Relay counters, as a switch's. */
    struct Counters
    {
        uint64_t forwarded{0};      //!< frames sent on an egress port
        uint64_t drops{0};          //!< frames the buffer refused
        uint64_t droppedPayload{0}; //!< message payload of the refused frames
        uint64_t ecnMarks{0};       //!< data packets marked CE
        uint64_t intStamps{0};      //!< INT hop records written
        uint64_t peakQueueBytes{0}; //!< largest egress queue seen, any port
        uint64_t holds{0};          //!< times an ingress queue held its upstream
        uint64_t staged{0};         //!< scale-up to RoCE frames that gave credits on arrival
        uint64_t heldCredits{0};    //!< such frames that kept them: the pool was full
    };

    /** \return the counters */
    const Counters& GetCounters() const;
    /** \param port egress port \return bytes queued there now */
    uint64_t GetQueueBytes(uint32_t port) const;
    /** \return message payload queued, all ports */
    uint64_t GetQueuedPayload() const;
    /** \return buffer bytes charged for every queued frame, all ports */
    uint64_t GetQueuedBufferBytes() const;

    /**
     * Assign fixed random streams (ECN marking).
     * \param stream first stream index
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    /** Drop the ports, the MMU and the random stream. */
    void DoDispose() override;

  private:
    uint32_t m_nodeId{0};
    std::vector<Ptr<RocePort>> m_ports;
    std::deque<EgressQueues> m_egress; //!< deque: frames are move-only, ports never relocate
    std::vector<std::optional<EcnThresholds>> m_ecn; //!< set per port; Configure fills the rest
    std::vector<std::optional<uint8_t>> m_pfcPriorities;
    Ptr<SharedBufferMmu> m_mmu;
    Ptr<UniformRandomVariable> m_rng;
    RelayUpstream* m_upstream{nullptr};
    std::vector<std::array<bool, kNumPriorities>> m_held; //!< per ingress port and priority
    bool m_configured{false};
    Counters m_counters;

    // Attributes
    uint64_t m_bufferBytes;
    bool m_ecnEnabled;
    bool m_stageHandOvers;
    EcnThresholdMap m_ecnMap;
    uint8_t m_strictMask;
    uint32_t m_quantum;
    uint32_t m_transitWeight;
    uint32_t m_localWeight;

    TracedCallback<Ptr<const Packet>, uint32_t> m_dropTrace;
    TracedCallback<Ptr<const Packet>, uint32_t> m_ecnTrace;
    TracedCallback<uint32_t, uint64_t> m_queueTrace;
};

} // namespace ns3

#endif /* MLFABRIC_NPU_RELAY_H */
