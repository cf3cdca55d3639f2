/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_RDMA_NETWORK_BACKEND_H
#define MLFABRIC_RDMA_NETWORK_BACKEND_H

#include "ns3/network-backend.h"
#include "ns3/packet-in-switch-reductions.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"

#include <cstdint>
#include <functional>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * The workload-network seam implemented by the packet-level RoCE network.
 *
 * Each message becomes an RDMA send on a queue pair from the source rank's NIC to the
 * destination's. Queue pairs persist per (source, destination) pair by default, as NCCL
 * keeps them, so congestion-control state carries across messages; with QpPerMessage
 * every message gets a new one, as ASTRA-sim's ns-3 backend does. The sender is told
 * when the last byte is acknowledged, the receiver when it has arrived.
 *
 * The backend knows the NICs of the ranks and nothing of how the network was built:
 * opening a queue pair needs the routed path (its port, base RTT and hops), which the
 * builder of the network supplies as a Connector.
 *
 * In one process of ns-3's distributed simulator (SetProcessRanks) a message's arrival
 * is told on the receiver's process, which did not send it: the receiver-side callback
 * cannot travel, so every arrival there goes to one handler, with the message rebuilt
 * from what the wire carries (the workload's tag rides as the RDMA immediate data).
 */
class RdmaNetworkBackend : public NetworkBackend
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * Opens a queue pair from the NIC of rank src to that of rank dst with the given
     * traffic class, on the path the network routes it.
     */
    using Connector =
        std::function<Ptr<RdmaQueuePair>(uint32_t src, uint32_t dst, uint8_t priority)>;

    RdmaNetworkBackend() = default;

    /**
     * Use a built network.
     * \param nics the NIC of each rank; the network must outlive the simulation
     * \param connect opens the queue pairs between ranks
     */
    void Attach(const std::vector<Ptr<RdmaNic>>& nics, Connector connect);

    uint32_t GetRankCount() const override;
    void Send(const Message& message, MessageCallback sent, MessageCallback arrived) override;

    /**
     * Open the queue pair \p message would be sent on, as Send would, and send nothing: a
     * network that carries some messages elsewhere keeps the NICs' numbering of the queue
     * pairs they do carry (and so their ports and ECMP paths) as if every message ran here.
     * \param message source and destination (its size is not used)
     */
    void Reserve(const Message& message);

    /**
     * Open the queue pair of every ordered pair of ranks now, source by source and each
     * source's destinations in rank order, instead of at each pair's first message: the
     * queue-pair numbers, and so the ports and ECMP paths drawn from them, then depend on
     * nothing the run does. Every process of a distributed run must open them alike, as
     * a receiver finds its side of a queue pair by the sender's numbering.
     */
    void ConnectEveryPair();

    /**
     * Make this backend one process of a distributed run. Sends are posted only for
     * ranks of this process; every message that arrives at one of its ranks is told
     * through \p arrived, whichever process sent it, and Send's own receiver-side
     * callbacks are never called. In-switch reductions are refused.
     * \param local true for each rank whose NPU this process simulates
     * \param arrived receiver-side notification of every message
     */
    void SetProcessRanks(std::vector<bool> local, MessageCallback arrived);

    /**
     * Let in-switch reductions run in the switches' reduction engines; without it they
     * are refused as the NetworkBackend refuses them.
     * \param placer finds the switch cabled to a reduction's members
     */
    void SetReductionPlacer(PacketInSwitchReductions::Placer placer);

    /**
     * Reduce in the switch cabled to every member (PacketInSwitchReductions).
     * \param contribution this rank's share
     * \param done receiver-side notification of the result
     */
    void ReduceInSwitch(const Contribution& contribution, ContributionCallback done) override;

    /**
     * Run \p fn after \p delay, counted among the work the workload waits on.
     * \param delay non-negative delay
     * \param fn the work to run
     */
    void Schedule(Time delay, std::function<void()> fn) override;

    /** \return payload the ranks' NICs have delivered, counted by the NICs */
    uint64_t GetDeliveredBytes() const;

    /** \return messages sent and not yet both left and arrived */
    uint64_t GetPendingCount() const;

    /**
     * \return true when no message or in-switch reduction is in flight and no work
     *         scheduled through the backend is pending: nothing the workload waits on
     *         can happen any more
     */
    bool IsIdle() const;

  protected:
    /** Release the queue pairs, the pending messages, the NICs and the queue-pair opener. */
    void DoDispose() override;

  private:
    /** A message in flight and whom to tell about it. */
    struct Pending
    {
        Message message;         //!< as the workload posted it
        MessageCallback sent;    //!< sender-side notification
        MessageCallback arrived; //!< receiver-side notification
        bool hasLeft{false};     //!< sender side done
        bool hasArrived{false};  //!< receiver side done
    };

    /** \return the queue pair carrying \p message */
    Ptr<RdmaQueuePair> QueuePairFor(const Message& message);
    /** The NIC acknowledged the message with RDMA tag \p id. */
    void OnSent(uint64_t id);
    /** The message with RDMA tag \p id arrived. */
    void OnArrived(uint64_t id);
    /** Across processes: queue pair \p qp's message \p messageId has been acknowledged. */
    void OnSentOnQueuePair(const RdmaQueuePair* qp, uint64_t messageId);
    /**
     * Across processes: a message from node \p srcNode, tagged \p tag, of \p bytes,
     * arrived at rank \p dst.
     */
    void OnArrivedFromWire(uint32_t dst, uint32_t srcNode, uint64_t tag, uint64_t bytes);
    /** Forget \p id once both sides are done. */
    void Retire(std::unordered_map<uint64_t, Pending>::iterator it);

    std::vector<Ptr<RdmaNic>> m_nics; //!< by rank
    Connector m_connect;              //!< opens queue pairs
    std::map<std::pair<uint32_t, uint32_t>, Ptr<RdmaQueuePair>> m_qps;
    std::unordered_map<uint64_t, Pending> m_pending; //!< RDMA tag -> message
    uint64_t m_nextId{0};
    std::vector<bool> m_local;             //!< across processes: this process's ranks
    MessageCallback m_remoteArrived;       //!< across processes: every arrival
    std::map<uint32_t, uint32_t> m_rankOf; //!< NIC node -> rank
    std::map<std::pair<const RdmaQueuePair*, uint64_t>, uint64_t>
        m_byQueuePair;                     //!< across processes: (qp, message) -> RDMA tag
    uint64_t m_scheduled{0};               //!< Schedule calls whose work has not run yet
    PacketInSwitchReductions m_reductions; //!< in-switch reductions under way

    bool m_qpPerMessage{false};
    uint8_t m_priority{3};
};

} // namespace ns3

#endif /* MLFABRIC_RDMA_NETWORK_BACKEND_H */
