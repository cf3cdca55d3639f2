/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_SHARED_BUFFER_MMU_H
#define MLFABRIC_SHARED_BUFFER_MMU_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/roce-port.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-switch
 * Shared-buffer memory management of a switch, accounted per (ingress port, priority).
 *
 * Which priorities are lossless is set per ingress port (the link's PFC priorities;
 * the LosslessPriorities attribute for ports that do not say), and none is while
 * PfcEnabled is false. An ingress port with a lossless priority gives each of its
 * queues a small reserved allotment; a port with none (a lossy link) reserves nothing,
 * its queues living on the shared pool alone, like the lossy buffer profile of
 * datacenter switches. Beyond the allotment, bytes come from the shared pool, up to a
 * dynamic threshold alpha x (free shared bytes). Each lossless (ingress port,
 * priority) also has PFC headroom, sized so that the bytes in flight after a pause is
 * sent still fit: the cable's round trip at line rate, one maximum frame already on
 * the wire at each end, and the peer's PFC response time (its RocePort::PfcResponseTime);
 * lossy priorities have none.
 * An ingress port with link-level credit flow control has no PFC: each of its
 * priorities owns the buffer its credits grant, carved out of the total, and is never
 * dropped, since the sender cannot exceed its credits. A relay may move such a packet
 * onto the shared pool (Stage()) and give its credits back before it leaves.
 * An ingress queue asks for XOFF once it reaches the threshold or spills into headroom
 * and for XON when it is back below the threshold by a resume offset with its
 * headroom empty. A packet is dropped only when headroom is exhausted, or for a lossy
 * priority, when the threshold is reached.
 *
 * Lossy traffic is also admitted per egress queue, as shared-buffer switches do: a
 * packet of a lossy (ingress port, priority) that needs shared bytes is dropped once its
 * (egress port, priority) holds LossyEgressAlpha x (free shared bytes), so an egress
 * queue fed by many ports stops at alpha / (1 + alpha) of the pool however many feed
 * it. Lossless traffic is never refused at egress: PFC at ingress bounds it.
 * With HeadroomPoolBytes set, the lossless queues draw their headroom from one pool of
 * that size instead of each having its own carved out; each queue still stops at its
 * own headroom, and the pool at its size.
 */
class SharedBufferMmu : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    SharedBufferMmu() = default;

    /** What the accounting needs to know of one ingress port. */
    struct PortConfig
    {
        uint64_t rateBps{0};                  //!< line rate, bit/s
        Time delay;                           //!< cable delay
        std::optional<uint8_t> pfcPriorities; //!< lossless priorities; unset: the attribute's
        uint64_t creditBytes{0}; //!< credit flow control: buffer granted per priority; 0 = none
        Time pipelines; //!< the peer's PFC response and transmit and this port's receive latency
    };

    /**
     * Size the accounting for the switch's ports; call once, after the attributes.
     * Throws InputError if the reserved and headroom bytes do not fit the buffer.
     * \param ports each port, in port order
     * \param maxFrameBytes largest frame in the buffer
     */
    void Configure(const std::vector<PortConfig>& ports, uint32_t maxFrameBytes);

    /** Where an admitted packet was charged. */
    enum Verdict
    {
        DROP,     //!< not admitted
        ADMITTED, //!< charged to the reserved, shared or headroom bytes
    };

    /**
     * Try to admit a packet.
     * \param port ingress port
     * \param egress the egress port it will wait at
     * \param priority its priority
     * \param bytes bytes it occupies
     * \return whether it was admitted
     */
    Verdict Admit(uint32_t port, uint32_t egress, uint8_t priority, uint32_t bytes);
    /**
     * Return the bytes of a packet that has left the switch.
     * \param port the ingress port it was admitted on
     * \param egress the egress port it left by
     * \param priority its priority
     * \param bytes the bytes Admit() charged
     */
    void Release(uint32_t port, uint32_t egress, uint8_t priority, uint32_t bytes);

    /**
     * Move an admitted packet of a credit port from its credit buffer to the shared
     * pool, so that its credits may go back to the sender before it leaves (a relay
     * staging it in memory of its own). The shared bytes obey the dynamic threshold
     * as any ingress queue's; the packet stays on its credits when they would pass it.
     * \param port a credit ingress port
     * \param egress the egress port it will wait at
     * \param priority its priority
     * \param bytes the bytes Admit() charged
     * \return true if the packet now lives on the shared pool: release it by
     *         ReleaseStaged(), and return its credits now
     */
    bool Stage(uint32_t port, uint32_t egress, uint8_t priority, uint32_t bytes);
    /**
     * Return the bytes of a staged packet (Stage()) that has left.
     * \param port the ingress port it was admitted on
     * \param egress the egress port it left by
     * \param priority its priority
     * \param bytes the bytes Stage() moved
     */
    void ReleaseStaged(uint32_t port, uint32_t egress, uint8_t priority, uint32_t bytes);
    /**
     * \param port ingress port
     * \param priority a lossless or lossy priority
     * \return true if the ingress queue should hold its upstream paused: it uses
     *         headroom, or its shared bytes reached the dynamic threshold
     */
    bool ShouldPause(uint32_t port, uint8_t priority) const;
    /**
     * \param port ingress port
     * \param priority the paused priority
     * \return true if a paused ingress queue may resume its upstream: no headroom in
     *         use, and its shared bytes a resume offset below the threshold
     */
    bool ShouldResume(uint32_t port, uint8_t priority) const;
    /**
     * \param port ingress port
     * \param priority 0..7
     * \return true if \p priority is lossless (PFC) on ingress port \p port
     */
    bool IsLossless(uint32_t port, uint8_t priority) const;
    /**
     * \param port ingress port
     * \return the lossless priorities of ingress port \p port, bit p for priority p
     */
    uint8_t GetLosslessPriorities(uint32_t port) const;
    /** \return bytes carved out of the buffer: reserved allotments and headroom */
    uint64_t GetCarvedBytes() const;

    /** \return bytes in the buffer now */
    uint64_t GetUsedBytes() const;
    /** \return the largest GetUsedBytes() seen */
    uint64_t GetPeakUsedBytes() const;
    /** \return the buffer size */
    uint64_t GetBufferBytes() const;
    /** \return the shared pool size */
    uint64_t GetSharedPoolBytes() const;
    /**
     * \param port ingress port
     * \return the headroom of one lossless ingress queue of \p port (0 if none is)
     */
    uint64_t GetHeadroomBytes(uint32_t port) const;
    /** \return packets dropped */
    uint64_t GetDrops() const;
    /** \return lossy packets dropped by the egress threshold (included in GetDrops()) */
    uint64_t GetEgressDrops() const;
    /**
     * \param egress egress port
     * \param priority 0..7
     * \return bytes charged to the egress queue now
     */
    uint64_t GetEgressBytes(uint32_t egress, uint8_t priority) const;
    /**
     * \param egress egress port
     * \param priority 0..7
     * \return the largest GetEgressBytes() seen
     */
    uint64_t GetPeakEgressBytes(uint32_t egress, uint8_t priority) const;
    /** \return LossyEgressAlpha; 0 when lossy traffic has no egress threshold */
    double GetLossyEgressAlpha() const;
    /** \return the headroom of every lossless ingress queue added up (what per-queue
     *          headroom carves; a shared pool may be smaller) */
    uint64_t GetQueueHeadroomSumBytes() const;
    /** \return HeadroomPoolBytes; 0 when each lossless queue has its own headroom */
    uint64_t GetHeadroomPoolBytes() const;
    /** \return headroom bytes in use now, all lossless queues */
    uint64_t GetHeadroomUsedBytes() const;
    /** \return the largest GetHeadroomUsedBytes() seen */
    uint64_t GetPeakHeadroomUsedBytes() const;

  private:
    /** Counters of one (ingress port, priority). */
    struct Ingress
    {
        uint64_t reserved{0}; //!< bytes charged to the reserved allotment
        uint64_t shared{0};   //!< bytes charged to the shared pool
        uint64_t headroom{0}; //!< bytes charged to PFC headroom
        uint64_t credit{0};   //!< bytes charged to the credit buffer (credit ports)
    };

    /** Bytes of one (egress port, priority). */
    struct Egress
    {
        uint64_t bytes{0}; //!< charged now
        uint64_t peak{0};  //!< most charged at once
    };

    /** \return the current dynamic threshold of the shared pool */
    uint64_t Threshold() const;
    /**
     * \param in an ingress queue
     * \param bytes a packet's bytes
     * \return true if the queue's dynamic threshold and the shared pool have room for them
     */
    bool SharedAdmits(const Ingress& in, uint32_t bytes) const;
    /**
     * \param queue an egress queue
     * \param bytes a lossy packet's bytes
     * \return true if the queue may take them under LossyEgressAlpha
     */
    bool EgressAdmits(const Egress& queue, uint32_t bytes) const;
    /**
     * \param port a lossless ingress port
     * \param in one of its queues
     * \param bytes a packet's bytes
     * \return true if the queue's headroom (and the pool, if shared) has room for them
     */
    bool HeadroomAdmits(uint32_t port, const Ingress& in, uint32_t bytes) const;

    uint64_t m_bufferBytes{0};
    uint64_t m_reservedBytes{0};
    double m_alpha{0};
    uint8_t m_losslessMask{0};
    bool m_pfcEnabled{true};
    Time m_responseTime;
    uint64_t m_resumeOffset{0};
    uint64_t m_headroomOverride{0};
    double m_egressAlpha{0};
    uint64_t m_headroomPool{0};

    uint64_t m_carved{0};
    uint64_t m_sharedPool{0};
    uint64_t m_sharedUsed{0};
    uint64_t m_used{0};
    uint64_t m_peak{0};
    uint64_t m_drops{0};
    uint64_t m_egressDrops{0};
    uint64_t m_headroomUsed{0};
    uint64_t m_headroomPeak{0};
    std::vector<uint64_t> m_headroom; //!< per port
    std::vector<uint8_t> m_lossless;  //!< per port: lossless mask
    std::vector<uint64_t> m_reserve;  //!< per port: allotment per queue
    std::vector<uint64_t> m_credit;   //!< per port: credit buffer per priority; 0 = none
    std::vector<std::array<Ingress, kNumPriorities>> m_in; //!< per port and priority
    std::vector<std::array<Egress, kNumPriorities>> m_out; //!< per port and priority
};

} // namespace ns3

#endif /* MLFABRIC_SHARED_BUFFER_MMU_H */
