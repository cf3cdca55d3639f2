/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FLOW_BACKEND_H
#define MLFABRIC_FLOW_BACKEND_H

#include "ns3/event-id.h"
#include "ns3/fabric.h"
#include "ns3/flow-drain-queue.h"
#include "ns3/flow-rate-allocator.h"
#include "ns3/flow-router.h"
#include "ns3/flow-wire.h"
#include "ns3/network-backend.h"
#include "ns3/reduction-switch.h"
#include "ns3/routing-table.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-flow
 * The flow-level network: every queue pair is a flow on the links the packet level
 * routes it over, and the active flows share the links max-min fairly.
 *
 * Queue pairs are opened as RdmaNetworkBackend opens them (one per rank pair, in order
 * of first message, or one per message with QpPerMessage) and numbered as the NICs
 * number them, so FlowRouter gives each the packet level's ECMP path. A queue pair sends
 * its messages one after another; a message's bytes on the wire are its MTU packets
 * with their headers (FlowWire). The fair share is re-solved when queue pairs start or
 * stop sending (FlowRateAllocator), once for all that start or stop at the same time
 * (ApplyRates runs after the events already due then); each link's capacity is its rate, and a flow
 * loads the links of its ACK path with AckWeight of its rate. A message arrives when its last byte
 * has left at the flow's rate plus its path's fixed time (FlowPathTiming: propagation and per-hop
 * store-and-forward of one packet), and has left its sender when the ACK of its last packet is
 * back.
 *
 * An in-switch reduction (ReduceInSwitch) is a flow per member up its link to the switch
 * and, once every member's first chunk is there, a flow per member down with the result
 * (see flow-in-switch.cc for how the engine's per-chunk pipelining is approximated).
 *
 * Not modelled, and said so by GetDescription: queues and what acts on them (buffers,
 * PFC, ECN and congestion control: flows take their fair share at once), losses, and
 * the reduction buffer's credit window.
 */
class FlowBackend : public NetworkBackend
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** A backend without a network; SetFabric gives it one. */
    FlowBackend();
    /** Free the network. */
    ~FlowBackend() override;

    /**
     * Set the network; after the attributes, before the first Send. The backend keeps
     * its own copies. Throws InputError naming the fabric when its tables do not fit it.
     * \param fabric the fabric
     * \param routes its routing tables (ComputeRouting)
     */
    void SetFabric(const Fabric& fabric, const RoutingTable& routes);

    uint32_t GetRankCount() const override;
    void Send(const Message& message, MessageCallback sent, MessageCallback arrived) override;
    void ReduceInSwitch(const Contribution& contribution, ContributionCallback done) override;

    /** \return one line for reports: the model, its settings and what it leaves out */
    std::string GetDescription() const;

    /** \return the fabric given to SetFabric */
    const Fabric&
    GetFabric() const
    {
        return *m_fabric;
    }

    /** \return the router of SetFabric: paths by the packet level's ECMP hashes */
    const FlowRouter&
    GetRouter() const
    {
        return *m_router;
    }

    /** \return messages delivered so far */
    uint64_t
    GetDeliveredMessages() const
    {
        return m_deliveredMessages;
    }

    /** \return payload bytes delivered so far, in-switch reduction results included */
    uint64_t
    GetDeliveredBytes() const
    {
        return m_deliveredBytes;
    }

    /** \return bytes put on the wire so far, headers included, summed over first hops */
    double
    GetWireBytesSent() const
    {
        return m_wireBytesSent;
    }

    /** \return payload bytes of in-switch reductions that have reached their switch */
    uint64_t
    GetInSwitchUpBytes() const
    {
        return m_inSwitchUpBytes;
    }

    /** \return payload bytes of in-switch reduction results delivered to their members */
    uint64_t
    GetInSwitchDownBytes() const
    {
        return m_inSwitchDownBytes;
    }

    /** \return payload bytes of partial sums and results between a tree's switches */
    uint64_t
    GetInSwitchTreeBytes() const
    {
        return m_inSwitchTreeBytes;
    }

    /** \return in-switch reductions some member still waits on */
    size_t
    GetOpenReductionCount() const
    {
        return m_reductions.size();
    }

    /** \return the rate allocator (SetFabric must have been called) */
    const FlowRateAllocator& GetAllocator() const;

    /** \return queue pairs opened so far */
    uint32_t
    GetQueuePairCount() const
    {
        return static_cast<uint32_t>(m_qps.size());
    }

    /**
     * \param qp a queue pair, in order of opening
     * \return the directed links its data crosses
     */
    const std::vector<uint32_t>& GetDataPath(uint32_t qp) const;

    /**
     * TracedCallback signature of Resolved: the starts and stops of one instant re-solved
     * the rates.
     * \param flows how many flows were re-solved
     */
    typedef void (*ResolvedCallback)(uint32_t flows);

  protected:
    /** Cancel the pending drain and free the queue pairs and the network's helpers. */
    void DoDispose() override;

  private:
    /** A message waiting or draining on its queue pair. */
    struct Pending
    {
        Message message;         //!< as the workload posted it
        MessageCallback sent;    //!< sender-side notification
        MessageCallback arrived; //!< receiver-side notification
        double wireLeft{0};      //!< its bytes not yet sent, headers included
    };

    /** A drained message on its way: its arrival and its last ACK still to come. */
    struct Landing
    {
        Pending pending;    //!< the message and its callbacks
        uint8_t waiting{0}; //!< of the two events, those still to come
    };

    /** One queue pair: a flow and its messages. */
    struct QueuePair
    {
        uint32_t src{0};                //!< sending rank
        uint32_t dst{0};                //!< receiving rank
        uint32_t flow{0};               //!< its flow in the allocator
        std::vector<uint32_t> dataPath; //!< directed links of its data
        FlowPathTiming data;            //!< the data's fixed times
        FlowPathTiming ack;             //!< the ACKs' way back
        const FlowWire* wire{nullptr};  //!< its framing: scale-up if its whole path is
        int32_t scaleUpDim{-1};         //!< the scale-up dimension it stays in, or -1
        int32_t inSwitch{0};          //!< in-switch reduction hop: +1 up, -1 down, 2 inside, 0 not
        std::deque<Pending> messages; //!< FIFO, the head draining
        double rate{0};               //!< rate since \c updated, bit/s
        Time updated;                 //!< when the head's wireLeft was last brought up to date
    };

    /** One in-switch reduction under way, named by its tag and members. */
    struct Reduction
    {
        ReductionTree tree;                      //!< the switch, or the aggregation tree
        uint64_t bytes{0};                       //!< each member's data
        uint64_t resultBytes{0};                 //!< each member's result
        uint64_t reducedBytes{0};                //!< bytes the engine adds up
        std::vector<Contribution> contributions; //!< per member, once it contributed
        std::vector<ContributionCallback> done;  //!< per member
        std::vector<bool> contributed;           //!< per member
        std::vector<int64_t> downArrivedPs;      //!< per member: result in, or -1
        std::vector<int64_t> resultFloorPs;      //!< per member: earliest end of its last chunk
        uint32_t finished{0};                    //!< members told of their result
        // Per switch of the tree:
        std::vector<uint32_t> waitingContributions; //!< members below yet to contribute
        std::vector<uint32_t> waitingUps;           //!< children whose data is not all up
        std::vector<int64_t> firstChunksPs;         //!< every child's first chunk is in
        std::vector<int64_t> lastUpPs;              //!< the last child's data is all in
        std::vector<int64_t> upFlowPs;              //!< its own flow up has arrived, or -1
    };

    /** Tag and members of one reduction. */
    using ReductionKey = std::pair<uint64_t, std::vector<uint32_t>>;

    /** \param members ranks, ascending \return the switch or tree that reduces them */
    ReductionTree ReductionTreeFor(const std::vector<uint32_t>& members) const;
    /**
     * \param from the hop's sending node \param to its receiving node
     * \param rank the member it serves (a switch-to-switch hop: any member)
     * \param kind +1 a member's data up, -1 a result down, 2 between two switches
     * \return the queue pair of the hop
     */
    uint32_t HopQueuePair(uint32_t from, uint32_t to, uint32_t rank, int32_t kind);
    /** \return the hop between member \p member of \p key and its switch, up or down */
    uint32_t MemberHop(const ReductionKey& key, uint32_t member, bool up);
    /** \return the hop between switch \p s of \p key's tree and its parent, up or down */
    uint32_t ParentHop(const ReductionKey& key, uint32_t s, bool up);
    /** \return ps from the root's first result chunk to its arrival at \p member */
    int64_t DownLagPs(const ReductionKey& key, uint32_t member);
    /** \return ps the engine takes to reduce one chunk after it is complete */
    int64_t EngineChunkPs(const ReductionKey& key);
    /** Every member below switch \p s has contributed: its chunks go up. */
    void SubtreeContributed(const ReductionKey& key, uint32_t s);
    /** The data of a child of switch \p s is all in at \p atPs. */
    void ChildUp(const ReductionKey& key, uint32_t s, int64_t atPs);
    /**
     * \param r a reduction whose children's data is all in at switch \p s
     * \param s a switch of its tree
     * \return when the switch's engine has reduced the last chunk: after the last child's
     *         data and its latency, and after all of it at the engine's rate
     */
    int64_t AllReducedPs(const Reduction& r, uint32_t s) const;
    /** Switch \p s, below the root, has its children's data and its own flow up in. */
    void SwitchUpIfDone(const ReductionKey& key, uint32_t s);
    /** Start the results down from switch \p s to its children. */
    void StartDown(const ReductionKey& key, uint32_t s);
    /** \param qp a hop's queue pair \return ps for one chunk (one packet) to cross it */
    int64_t ChunkPs(const QueuePair& qp) const;
    /** \param key the reduction \param member whose result has come down */
    void OnDownArrived(const ReductionKey& key, uint32_t member);
    /** Tell a member whose result is in and whose last chunk is due. \param key \param member */
    void FinishMember(const ReductionKey& key, uint32_t member);
    /** Warn once if the reduction buffer's window cannot cover \p up's round trip. */
    void WarnIfBufferLimits(uint32_t up);
    /** The message in \p slot has arrived, on a hop of kind \p inSwitch (QueuePair). */
    void Land(uint32_t slot, int32_t inSwitch);
    /** The last ACK of the message in \p slot is back at its sender. */
    void Acknowledge(uint32_t slot);
    /** One of the two events of \p slot is done: the slot is free after both. */
    void ReleaseLanded(uint32_t slot);
    /** Queue \p pending on queue pair \p id and start its flow if it was idle. */
    void Enqueue(uint32_t id, Pending pending);

    /** \return the queue pair for \p message, opened if needed */
    uint32_t QueuePairFor(const Message& message);
    /** \return a new queue pair from \p src to \p dst */
    uint32_t Open(uint32_t src, uint32_t dst);
    /** \return the timing of \p path */
    FlowPathTiming TimingOf(const std::vector<uint32_t>& path) const;
    /**
     * \param link a fabric link \param qp a queue pair (its wire and dimension set)
     * \return wire bytes of one of \p qp's full packets on \p link per byte of it in
     *         \p qp's own framing
     */
    double LinkWeight(uint32_t link, const QueuePair& qp) const;
    /**
     * \param link a fabric link \param qp a queue pair (its wire and dimension set)
     * \return ACK bytes on \p link per byte of \p qp's data in its own framing
     */
    double AckLinkWeight(uint32_t link, const QueuePair& qp) const;
    /** \return ", scale-up ..." for each scale-up dimension of the fabric, else empty */
    std::string DescribeScaleUp() const;
    /** \param node a switch \return the rate of its fastest Ethernet port */
    uint64_t FastestEthernetBps(uint32_t node) const;
    /** Charge the bytes \p qp has sent at its rate since it was last brought up to date. \param qp
     * it */
    void Advance(QueuePair& qp);
    /** Start or stop \p qp's flow; the shares follow in ApplyRates, at the same time. */
    void SetActive(uint32_t qp, bool active);
    /** Re-solve the shares the starts and stops since the last call change and reschedule
     * the drains of the flows whose rate moved. */
    void ApplyRates();
    /** (Re)schedule the drain of \p qp's head message at its current rate. */
    void ScheduleDrain(uint32_t qp);
    /** Have the one simulator event of the backend due at the earliest drain. */
    void ArmWakeup();
    /** Handle every drain that is due. */
    void OnWakeup();
    /** The head message of \p qp has left at the flow's rate. */
    void OnDrained(uint32_t qp);

    uint32_t m_mtu{4096};              //!< payload per packet (attribute)
    uint32_t m_ackInterval{1};         //!< data packets per ACK (attribute)
    uint32_t m_scaleUpAckInterval{64}; //!< data packets per ACK, scale-up paths (attribute)
    bool m_qpPerMessage{false};        //!< a queue pair per message (attribute)
    bool m_incremental{true};          //!< re-solve components only (attribute)
    bool m_ackLoad{true};              //!< ACKs load the reverse links (attribute)
    Time m_switchLatency;              //!< switch pipeline (attribute)
    uint32_t m_cutThroughBytes;        //!< switch cut-through bytes; 0 = store-and-forward
    Time m_nicTxLatency;               //!< NIC transmit pipeline (attribute)
    Time m_nicRxLatency;               //!< NIC receive pipeline (attribute)
    Time m_ackTurnaround;              //!< receiver's reply time (attribute)

    std::unique_ptr<const Fabric> m_fabric;                //!< the network
    std::unique_ptr<const RoutingTable> m_routes;          //!< its tables
    std::unique_ptr<FlowRouter> m_router;                  //!< ECMP paths
    std::unique_ptr<FlowWire> m_wire;                      //!< RoCEv2 packet framing
    std::vector<std::unique_ptr<FlowWire>> m_scaleUpWires; //!< per dimension; null: RoCE
    std::unique_ptr<FlowRateAllocator> m_rates;            //!< the fair share
    std::vector<QueuePair> m_qps;                          //!< in order of opening
    std::vector<Landing> m_landed;                         //!< drained messages, by slot
    std::vector<uint32_t> m_freeLanded;                    //!< slots of m_landed free for reuse
    FlowDrainQueue m_drains;                    //!< when each head message will have left
    EventId m_wakeup;                           //!< the earliest drain's event
    EventId m_resolve;                          //!< the pending ApplyRates
    bool m_resolvePending{false};               //!< m_resolve is scheduled
    bool m_inWakeup{false};                     //!< OnWakeup is handling drains
    int64_t m_wakeupPs{FlowDrainQueue::kNever}; //!< its time
    std::vector<uint32_t> m_flowQp;             //!< flow id -> queue pair
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> m_qpOf; //!< src -> (dst, queue pair)
    std::vector<uint32_t> m_txQps;       //!< rank -> queue pairs it opened
    std::vector<uint32_t> m_rxQps;       //!< rank -> queue pairs opened to it
    uint64_t m_deliveredMessages{0};     //!< messages delivered
    uint64_t m_deliveredBytes{0};        //!< payload delivered
    double m_wireBytesSent{0};           //!< wire bytes sent
    TracedCallback<uint32_t> m_resolved; //!< Resolved trace

    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_hopQp; //!< (from, to) node -> hop QP
    std::map<ReductionKey, Reduction> m_reductions;            //!< in-switch reductions
    uint64_t m_inSwitchUpBytes{0};                             //!< reduction data at switches
    uint64_t m_inSwitchDownBytes{0};                           //!< reduction results delivered
    uint64_t m_inSwitchTreeBytes{0};    //!< reduction data between the switches of a tree
    Time m_reductionLatency;            //!< engine latency
    uint64_t m_reductionBps{0};         //!< engine rate; 0 unbounded
    uint64_t m_reductionBufferBytes{0}; //!< one reduction's window of the engine buffer
    bool m_bufferChecked{false};        //!< its window was checked
};

} // namespace ns3

#endif /* MLFABRIC_FLOW_BACKEND_H */
