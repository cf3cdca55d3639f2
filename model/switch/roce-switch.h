/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ROCE_SWITCH_H
#define MLFABRIC_ROCE_SWITCH_H

#include "ns3/ecn-priority-thresholds.h"
#include "ns3/ecn-threshold-map.h"
#include "ns3/egress-marking.h"
#include "ns3/egress-queues.h"
#include "ns3/load-balancer.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/roce-port.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/switch-pipeline.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-switch
 * An output-queued RoCE switch with a shared buffer, PFC, ECN, INT and ECMP.
 *
 * Aggregated to a Node. A packet is admitted by the shared-buffer MMU against its
 * ingress port and priority (or dropped), may trigger PFC toward its upstream, and
 * waits at its egress port. Egress scheduling is strict priority for control
 * priorities, DWRR among the others. When a packet leaves, the MMU releases it (which
 * may resume the upstream), ECN marks it from the egress queue length (or marks it on
 * arrival, with EcnMarkPoint ENQUEUE), and INT stamps it if it asks for telemetry. ECN
 * thresholds are per egress port (SetEcnThresholds; else the EcnMap entry of the port's
 * rate), and per priority where EcnPriorityThresholds gives one. Next hops come from
 * per-destination tables; among equal-cost ports a data packet goes where the switch's LoadBalancer
 * sends it (per-flow ECMP by default), a control packet by the flow hash salted per switch.
 */
class RoceSwitch
    : public Object
    , public RocePortOwner
    , public EgressLoad
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** Create a switch with no ports, its MMU and its ECN-marking random stream. */
    RoceSwitch();
    ~RoceSwitch() override;

    /** \param id the switch's node id (salts its ECMP hash) */
    void SetNodeId(uint32_t id);
    /** \return the node id */
    uint32_t GetNodeId() const;

    /** Add a port. \param port the port, not yet owned \return its index */
    uint32_t AddPort(Ptr<RocePort> port);
    /** \return the number of ports */
    uint32_t GetNPorts() const;
    /** \param i index \return port i */
    Ptr<RocePort> GetPort(uint32_t i) const;

    /**
     * Set the equal-cost egress ports toward \p dstNode.
     * \param dstNode destination node id
     * \param ports port indices
     */
    void SetRoute(uint32_t dstNode, const std::vector<uint32_t>& ports);
    /** \param dstNode destination node id \return the ports toward it (empty if none) */
    const std::vector<uint32_t>& GetRoute(uint32_t dstNode) const;

    /**
     * Set the ECN thresholds of egress port \p port.
     * \param port egress port index
     * \param thresholds its marking ramp, on the bytes queued at a priority
     */
    void SetEcnThresholds(uint32_t port, const EcnThresholds& thresholds);
    /**
     * \param port egress port
     * \return its ECN thresholds: those set, else the EcnMap entry of its rate
     */
    EcnThresholds GetEcnThresholds(uint32_t port) const;
    /**
     * \param port egress port
     * \param priority 0..7
     * \return the thresholds a packet of \p priority is marked by there: the priority's
     *         own (EcnPriorityThresholds), else the port's
     */
    EcnThresholds GetEcnThresholds(uint32_t port, uint8_t priority) const;

    /**
     * Set the lossless priorities of port \p port (its link's); ports left unset take
     * the MMU's LosslessPriorities. Call before ConfigureBuffer.
     * \param port port index
     * \param priorities bit p set: priority p is lossless
     */
    void SetPfcPriorities(uint32_t port, uint8_t priorities);

    /**
     * Size the buffer accounting once all ports are added.
     * \param maxFrameBytes largest frame the switch holds (sizes PFC headroom)
     */
    void ConfigureBuffer(uint32_t maxFrameBytes);

    /** \return the memory management unit */
    Ptr<SharedBufferMmu> GetMmu() const;
    /** \return the forwarding pipeline (latency and cut-through) */
    Ptr<SwitchPipeline> GetPipeline() const;

    /** Switch-wide counters. */
    struct Counters
    {
        uint64_t forwarded{0};      //!< packets sent on an egress port
        uint64_t drops{0};          //!< packets the MMU refused
        uint64_t droppedPayload{0}; //!< message payload of the refused packets
        uint64_t ecnMarks{0};       //!< packets marked CE
        uint64_t intStamps{0};      //!< INT hop records written
        uint64_t peakQueueBytes{0}; //!< largest egress queue seen, any port
        uint64_t trims{0};          //!< data packets cut to their header instead of dropped
        uint64_t trimmedPayload{0}; //!< payload they lost (also in droppedPayload)
    };

    /** \return the counters */
    const Counters& GetCounters() const;
    /** \param port egress port \return bytes queued there now */
    uint64_t GetQueueBytes(uint32_t port) const override;
    /** \return the load balancer (created from the LoadBalancer attribute on first use) */
    Ptr<LoadBalancer> GetLoadBalancer();
    /** \return buffer bytes charged for every queued packet, all ports */
    uint64_t GetQueuedBufferBytes() const;
    /** \return message payload queued, all ports */
    uint64_t GetQueuedPayload() const;

    /**
     * Assign fixed random streams (ECN marking, then the load balancer's draws if it
     * draws).
     * \param stream first stream index
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * Queue a frame of the switch's reduction engine (a result, a grant, or a partial sum
     * for the switch above) on egress port \p port, behind the frames already there. Its
     * bytes are the engine's buffer's, so it takes no shared buffer.
     * \param port the egress port, toward the frame's destination
     * \param frame the frame, with its header
     */
    void SendEngineFrame(uint32_t port, RoceFrame&& frame);

    // RocePortOwner
    bool DequeueFrame(RocePort& port, RoceFrame& frame) override;
    void ReceiveFrame(RocePort& port, RoceFrame&& frame) override;
    bool HasPending(const RocePort& port) const override;

  protected:
    /** Drop the ports, the MMU and the random stream of ECN marking. */
    void DoDispose() override;

  private:
    /** \return the marking ramp of \p priority at egress \p port (buffer configured) */
    const EcnThresholds& EcnFor(uint32_t port, uint8_t priority) const;

    uint32_t m_nodeId{0};
    std::vector<Ptr<RocePort>> m_ports;
    std::deque<EgressQueues> m_egress; //!< deque: frames are move-only, ports never relocate
    std::vector<std::optional<EcnThresholds>> m_ecn;     //!< per port; unset: the EcnMap's
    EcnPriorityThresholds m_ecnPriority;                 //!< parsed EcnPriorityThresholds
    std::vector<std::optional<uint8_t>> m_pfcPriorities; //!< per port; unset: the MMU's
    std::vector<std::vector<uint32_t>> m_routes;
    Ptr<SharedBufferMmu> m_mmu;
    Ptr<SwitchPipeline> m_pipeline; //!< its latency, applied to the ports by the installer
    Ptr<UniformRandomVariable> m_rng;
    Ptr<LoadBalancer> m_balancer;
    bool m_bufferConfigured{false};
    Counters m_counters;

    // Attributes
    bool m_ecnEnabled;
    uint8_t m_strictMask;
    uint32_t m_quantum;
    EcnThresholdMap m_ecnMap;
    std::string m_ecnPriorityText;
    EcnMarkPoint m_ecnMarkPoint;
    bool m_trimEnabled;
    uint8_t m_trimPriority;
    TypeId m_balancerTypeId;

    TracedCallback<Ptr<const Packet>, uint32_t> m_dropTrace;
    TracedCallback<Ptr<const Packet>, uint32_t> m_trimTrace;
    TracedCallback<Ptr<const Packet>, uint32_t> m_ecnTrace;
    TracedCallback<uint32_t, uint64_t> m_queueTrace;
};

} // namespace ns3

#endif /* MLFABRIC_ROCE_SWITCH_H */
