/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_ISSUE_QUEUE_H
#define MLFABRIC_REPLAY_ISSUE_QUEUE_H

#include "ns3/et-node.h"

#include <array>
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * The hardware slot a Chakra node occupies while it runs on its NPU.
 */
enum class ReplayResource : uint8_t
{
    None = 0,    //!< occupies nothing (receives, memory, metadata)
    Cpu = 1,     //!< a host-side operation (`is_cpu_op` true)
    Compute = 2, //!< a device COMP_NODE
    Comm = 3,    //!< a device COMM_COLL_NODE or COMM_SEND_NODE
};

/**
 * \ingroup mlfabric-replay
 * Number of ReplayResource values.
 */
constexpr size_t kReplayResourceCount = 4;

/**
 * \ingroup mlfabric-replay
 * ASTRA-sim's hardware-resource rule for a node: `is_cpu_op` nodes use the CPU slot;
 * otherwise COMP_NODE uses the compute slot, COMM_COLL_NODE and COMM_SEND_NODE the
 * communication slot, and every other type (COMM_RECV_NODE included) none.
 * \param node a node
 * \return its slot
 */
ReplayResource ClassifyReplayResource(const EtNode& node);

/**
 * \ingroup mlfabric-replay
 * \param resource a slot \return its name, e.g. "compute"
 */
const char* ToString(ReplayResource resource);

/**
 * \ingroup mlfabric-replay
 * The ready nodes of one rank and the slots they wait for.
 *
 * A node whose dependencies have finished is pushed here. TakeIssuable hands out, in
 * ascending node id, every ready node whose slot is free and occupies those slots: that
 * is ASTRA-sim's issue loop (walk the dependency-free nodes lowest id first, issue a
 * node if its slot is free, leave it ready otherwise). Nodes left waiting are
 * reconsidered after the next Release. Each slot kind holds a limit of concurrently
 * running nodes; ASTRA-sim's is one CPU op, one compute node and one communication
 * node; 0 means unlimited.
 */
class ReplayIssueQueue
{
  public:
    /** Concurrent nodes per slot kind; 0 means unlimited. */
    struct Limits
    {
        uint32_t cpu{1};     //!< host-side operations
        uint32_t compute{1}; //!< device compute
        uint32_t comm{1};    //!< device communication
    };

    /** \param limits the slots */
    explicit ReplayIssueQueue(const Limits& limits);

    /**
     * A node's dependencies have finished.
     * \param id its node id (the issue order)
     * \param position its position in the trace
     * \param resource its slot
     */
    void Push(uint64_t id, uint32_t position, ReplayResource resource);

    /**
     * Take the nodes that may start now, ascending id, and occupy their slots.
     * \param issued receives the positions, in issue order (cleared first)
     */
    void TakeIssuable(std::vector<uint32_t>& issued);

    /** \param resource the slot of a node that has finished */
    void Release(ReplayResource resource);

    /** \return ready nodes not yet issued */
    uint64_t GetReadyCount() const;

    /** \param resource a slot kind \return nodes running in it */
    uint32_t GetRunning(ReplayResource resource) const;

  private:
    /** (node id, position), lowest id on top. */
    using Entry = std::pair<uint64_t, uint32_t>;
    /** Ready nodes of one slot kind. */
    using Heap = std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>>;

    std::array<Heap, kReplayResourceCount> m_ready;         //!< by slot kind
    std::array<uint32_t, kReplayResourceCount> m_limit{};   //!< 0 = unlimited
    std::array<uint32_t, kReplayResourceCount> m_running{}; //!< occupied slots
    std::vector<Entry> m_batch;                             //!< scratch of TakeIssuable
};

} // namespace ns3

#endif /* MLFABRIC_REPLAY_ISSUE_QUEUE_H */
