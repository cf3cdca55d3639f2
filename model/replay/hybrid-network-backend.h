/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HYBRID_NETWORK_BACKEND_H
#define MLFABRIC_HYBRID_NETWORK_BACKEND_H

#include "ns3/fabric.h"
#include "ns3/flow-backend.h"
#include "ns3/network-backend.h"
#include "ns3/rdma-network-backend.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * Packet level where RoCE congestion control acts, flow level inside scale-up domains.
 *
 * Every message goes to one of two backends by its routed path: a path that stays inside
 * one scale-up dimension runs on a FlowBackend (max-min fair among those flows, in the
 * dimension's framing and switch latency), every other path on an RdmaNetworkBackend
 * (the packet-level RoCE network, its scale-up links included). A message whose path
 * crosses scale-up links and RoCE links (through an NPU relay) runs wholly at packet
 * level; the flow level does not see its bytes on the scale-up links it shares with
 * flow-level messages, and the packet level does not see theirs. Such messages are
 * counted apart (GetCounts) so that a report says how much traffic that error can touch.
 *
 * Both backends run on the simulator's clock. A flow-level pair still opens its queue
 * pair at packet level (RdmaNetworkBackend::Reserve), unused, so that the NICs number the
 * queue pairs they do use, and hash them to ports and paths, as the packet level alone.
 */
class HybridNetworkBackend : public NetworkBackend
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** Where a message runs, by its routed path. */
    enum class Level : uint8_t
    {
        Flow,     //!< every link inside one scale-up dimension: flow level
        Packet,   //!< no scale-up link: packet level
        Crossing, //!< scale-up and RoCE (or several dimensions' scale-up) links: packet level
    };

    /** Classifies the routed path from one rank to another. */
    using Classifier = std::function<Level(uint32_t src, uint32_t dst)>;

    /** Messages and payload bytes sent at one level. */
    struct Count
    {
        uint64_t messages{0}; //!< messages given to Send
        uint64_t bytes{0};    //!< their payload
    };

    HybridNetworkBackend() = default;

    /**
     * Use two built backends over the same fabric and ranks.
     * \param packet the packet-level network
     * \param flow the flow-level network (its fabric set)
     * \param classify which level a rank pair's messages run at
     */
    void Attach(Ptr<RdmaNetworkBackend> packet, Ptr<FlowBackend> flow, Classifier classify);

    uint32_t GetRankCount() const override;
    void Send(const Message& message, MessageCallback sent, MessageCallback arrived) override;

    /**
     * Reduce in a switch at packet level (RdmaNetworkBackend::ReduceInSwitch).
     * \param contribution this rank's share
     * \param done receiver-side notification of the result
     */
    void ReduceInSwitch(const Contribution& contribution, ContributionCallback done) override;

    /**
     * Run \p fn after \p delay, counted as the packet level counts its own.
     * \param delay non-negative delay
     * \param fn the work to run
     */
    void Schedule(Time delay, std::function<void()> fn) override;

    /** \return true when neither level has a message, reduction or scheduled work open */
    bool IsIdle() const;

    /** \return payload delivered: the packet level's NICs' count plus the flow level's */
    uint64_t GetDeliveredBytes() const;

    /** \param level a level \return the messages sent at it so far */
    Count GetCount(Level level) const;

    /** \return the packet-level backend */
    Ptr<RdmaNetworkBackend> GetPacketBackend() const;
    /** \return the flow-level backend */
    Ptr<FlowBackend> GetFlowBackend() const;

    /**
     * \param fabric the fabric
     * \param links the fabric links of a routed path, in order
     * \return Flow if every link is in one scale-up dimension, Packet if none is
     *         scale-up, else Crossing
     */
    static Level LevelOfPath(const Fabric& fabric, const std::vector<uint32_t>& links);

    /** \param level a level \return its name in reports */
    static std::string ToString(Level level);

    /**
     * TracedCallback signature of Routed: a message was given to a level.
     * \param src sending rank
     * \param dst receiving rank
     * \param bytes payload
     * \param level Level as an integer
     */
    typedef void (*RoutedCallback)(uint32_t src, uint32_t dst, uint64_t bytes, uint8_t level);

  protected:
    /** Release both backends and the classifier. */
    void DoDispose() override;

  private:
    /** \return the level of messages from \p src to \p dst, classified once per pair */
    Level LevelOf(uint32_t src, uint32_t dst);

    Ptr<RdmaNetworkBackend> m_packet;                       //!< RoCE paths and crossings
    Ptr<FlowBackend> m_flow;                                //!< scale-up-only paths
    Classifier m_classify;                                  //!< the path rule
    std::map<std::pair<uint32_t, uint32_t>, Level> m_level; //!< rank pair -> level
    Count m_counts[3];                                      //!< by Level
    uint64_t m_flowOpen{0}; //!< flow-level messages not yet both left and arrived
    TracedCallback<uint32_t, uint32_t, uint64_t, uint8_t> m_routed; //!< Routed trace
};

} // namespace ns3

#endif /* MLFABRIC_HYBRID_NETWORK_BACKEND_H */
