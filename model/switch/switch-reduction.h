/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_SWITCH_REDUCTION_H
#define MLFABRIC_SWITCH_REDUCTION_H

#include "ns3/object.h"
#include "ns3/reduction-engine.h"
#include "ns3/roce-header.h"
#include "ns3/roce-port.h"

#include <cstdint>
#include <deque>
#include <map>
#include <vector>

namespace ns3
{

class RoceSwitch;

/**
 * \ingroup mlfabric-switch
 * A switch's reduction engine joined to its ports: chunks in, results and credit grants
 * out.
 *
 * Aggregated to the RoceSwitch. Members' chunks arrive as DATA frames addressed to the
 * switch and flagged kInNetworkFlag (the reduction's id in the immediate field, the
 * chunk's index in the sequence field); they go to the engine, not to the shared buffer,
 * since the credits the engine grants guarantee them room in the reduction buffer. A
 * result leaves as one DATA frame per recipient (ReductionLayout: every member, a
 * reduce-scatter shard's owner, an all-gather shard's other members), and a grant as an
 * ACK frame carrying the member's new limit, both flagged and addressed to the member;
 * they join the egress queue of the member's port, behind the frames already there,
 * without taking shared buffer (their bytes are the engine's). A result's chunk stays in
 * the reduction buffer until its last copy starts onto its wire.
 *
 * In an aggregation tree (ReductionTree) a switch below the root has a parent: its
 * members are the NPUs and switches below it, and a chunk it has reduced goes up to the
 * parent as that switch's contribution, within the credit the parent grants, instead of
 * down. The chunk keeps its place in this switch's buffer until the root's result has
 * come back down and its last copy has left toward the members, as SHARP holds an
 * aggregation node's operation until it completes; so a parent's credit that runs out
 * holds this switch's window, and with it its members' senders.
 */
class SwitchReduction : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** \param sw the switch whose ports carry the frames; this object is aggregated to it */
    void SetSwitch(RoceSwitch* sw);
    /** \return the reduction engine (created from its attribute defaults on first use) */
    Ptr<ReductionEngine> GetEngine();

    /** One member as the switch sees it. */
    struct Member
    {
        uint32_t node{0}; //!< the member's node id
        uint32_t port{0}; //!< the switch's port toward it
    };

    /** The switch above this one in an aggregation tree. */
    struct Parent
    {
        uint32_t node{0};  //!< the parent's node id
        uint32_t port{0};  //!< this switch's port toward it
        uint64_t limit{0}; //!< chunks this switch may send up before any grant arrives
    };

    /**
     * Open a reduction. Its first window is the members' to use at once, as SHARP
     * reserves a group's resources and NVLS bounds its requests before any data moves;
     * later grants travel as frames. Throws InputError as ReductionEngine::Open does, and
     * for a parent with an operation other than all-reduce.
     * \param id names the reduction in its frames
     * \param members the members, in member order: NPUs, or the switches below in a tree
     * \param bytes each member's data
     * \param chunkBytes bytes per chunk
     * \param priority traffic class of its frames
     * \param op what the members' data becomes
     * \param parent the switch above in an aggregation tree; null at its root
     * \return the chunk limit every member may send below at once (0: it waits for buffer)
     */
    uint64_t Open(uint64_t id,
                  const std::vector<Member>& members,
                  uint64_t bytes,
                  uint32_t chunkBytes,
                  uint8_t priority,
                  ReductionOp op = ReductionOp::AllReduce,
                  const Parent* parent = nullptr);

    /**
     * A frame of a reduction reached the switch: a member's chunk, or in a tree the
     * parent's grant or result.
     * \param h its header
     */
    void Receive(const RoceHeader& h);

    /**
     * A frame of a reduction is leaving the switch: the last copy of a result frees
     * its chunk.
     * \param h its header
     */
    void Left(const RoceHeader& h);

    /** \return payload of the members' chunks the engine has taken in */
    uint64_t GetPayloadReceived() const;
    /** \return payload of the result copies the switch has queued toward members */
    uint64_t GetPayloadSent() const;
    /** \return payload of the partial sums the switch has sent up to its parents */
    uint64_t GetPayloadSentUp() const;

  protected:
    /** Drop the engine, the reductions under way and the switch. */
    void DoDispose() override;

  private:
    /** An open reduction. */
    struct Reduction
    {
        std::vector<Member> members;
        std::map<uint32_t, uint32_t> byNode; //!< member index by node id
        ReductionLayout layout;              //!< who receives each chunk's result
        uint8_t priority{0};
        uint64_t chunks{0};                      //!< chunks in all
        uint64_t delivered{0};                   //!< chunks whose last copy has left
        std::map<uint64_t, uint32_t> copiesLeft; //!< per chunk: result copies still queued
        bool hasParent{false};                   //!< below the root of a tree
        Parent parent;                           //!< the switch above, if any
        std::deque<std::pair<uint64_t, uint32_t>> reducedToSend; //!< chunk, bytes: not up yet
    };

    /** Queue a grant of \p limit to member \p member of \p id. */
    void Grant(uint64_t id, uint32_t member, uint64_t limit);
    /** The engine has reduced chunk \p chunk: down to the members, or up to the parent. */
    void Reduced(uint64_t id, uint64_t chunk, uint32_t bytes);
    /** Queue one copy of chunk \p chunk's result per recipient of \p id. */
    void Multicast(uint64_t id, uint64_t chunk, uint32_t bytes);
    /** Send \p r's reduced chunks up to its parent while the parent's credit allows. */
    void SendUp(uint64_t id, Reduction& r);
    /**
     * \param id the reduction \param r its state \param chunk a chunk
     * \param bytes the chunk's payload \param dst the node it goes to
     * \return the chunk as a DATA frame of the reduction
     */
    RoceFrame ChunkFrame(
        uint64_t id, const Reduction& r, uint64_t chunk, uint32_t bytes, uint32_t dst) const;
    /** Queue \p frame on the switch's port \p port. */
    void Send(uint32_t port, RoceFrame&& frame);

    RoceSwitch* m_switch{nullptr};
    bool m_opening{false};      //!< Open() is running: grants are its return value
    uint64_t m_openingId{0};    //!< the reduction being opened
    uint64_t m_openingLimit{0}; //!< the limit granted while opening
    Ptr<ReductionEngine> m_engine;
    std::map<uint64_t, Reduction> m_open;
    uint64_t m_payloadReceived{0};
    uint64_t m_payloadSent{0};
    uint64_t m_payloadSentUp{0};
};

} // namespace ns3

#endif /* MLFABRIC_SWITCH_REDUCTION_H */
