/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REDUCTION_MEMBER_H
#define MLFABRIC_REDUCTION_MEMBER_H

#include "ns3/object.h"
#include "ns3/reduction-layout.h"
#include "ns3/roce-header.h"
#include "ns3/roce-port.h"

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-rdma
 * An NPU's side of in-switch reductions: its chunks up to the switch's engine, within
 * the credit the engine grants, and the results coming down.
 *
 * Aggregated to the RdmaNic, which offers it its ports and hands it the frames flagged
 * kInNetworkFlag.
 * A reduction is joined before the member contributes (the switch may grant credit
 * early) and started when it does. Chunks are DATA frames flagged kInNetworkFlag, addressed
 * to the switch on the NIC port linked to it, sent in the member's order
 * (ReductionLayout::GetSentChunk) while the chunk index is below the member's limit; each
 * carries the reduction's id and the chunk's index. The member is done once its chunks
 * have gone and its whole result (ReductionLayout::GetResultBytes) has come down; an
 * all-gather's other shards may arrive before its own have gone. The
 * NIC offers them after its control frames and before its queue pairs' data. The link
 * must be lossless for the traffic class: the engine keeps no copy to resend from.
 */
class ReductionMember : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** Create a member; while one exists, NICs look for theirs. */
    ReductionMember();
    /** One member less. */
    ~ReductionMember() override;

    /**
     * \return true while any member exists: a NIC looks for its own (aggregated to it)
     *         only then, so that runs without in-switch reductions pay nothing for them
     */
    static bool InUse();

    /** What joins a reduction. */
    struct Spec
    {
        uint64_t id{0};                         //!< the reduction, as the switch knows it
        uint32_t port{0};                       //!< the NIC port linked to the switch
        uint32_t switchNode{0};                 //!< the switch's node id
        uint8_t priority{0};                    //!< traffic class of its frames
        uint64_t bytes{0};                      //!< each member's data (ReductionLayout::bytes)
        uint32_t chunkBytes{0};                 //!< bytes per chunk
        uint64_t limit{0};                      //!< chunks it may send before any grant arrives
        std::function<void()> done;             //!< called when the whole result has arrived
        ReductionOp op{ReductionOp::AllReduce}; //!< what the members' data becomes
        uint32_t index{0};                      //!< this member's place among them
        uint32_t members{1};                    //!< members of the reduction
    };

    /**
     * \param nodeId the NIC's node id (the chunks' source)
     * \param ports the NIC's ports, by index
     */
    void Attach(uint32_t nodeId, const std::vector<Ptr<RocePort>>& ports);

    /** \param spec the reduction to join (not yet sending) */
    void Join(Spec spec);
    /** \param id a joined reduction: the member contributes, its chunks go up */
    void Start(uint64_t id);

    /**
     * Give the next chunk for \p port, if one may go.
     * \param port the idle port
     * \param frame filled in when a chunk is returned
     * \return true if a frame was given
     */
    bool Dequeue(RocePort& port, RoceFrame& frame);
    /** \param port a port index \return true if a chunk is waiting for it */
    bool HasReady(uint32_t port) const;

    /** \param h a grant from the switch (ACK flagged kInNetworkFlag) */
    void ReceiveGrant(const RoceHeader& h);
    /** \param h a result chunk from the switch (DATA flagged kInNetworkFlag) */
    void ReceiveResult(const RoceHeader& h);

    /** \return chunks sent up so far */
    uint64_t GetChunksSent() const;
    /** \return result bytes received so far */
    uint64_t GetResultBytes() const;
    /** \return chunk payload sent up so far */
    uint64_t GetPayloadSent() const;

  protected:
    /** Drop the ports and the reductions under way. */
    void DoDispose() override;

  private:
    /** A joined reduction. */
    struct Reduction
    {
        Spec spec;
        ReductionLayout layout; //!< its chunks and who sends and receives them
        uint64_t toSend{0};     //!< chunks this member sends
        uint64_t next{0};       //!< how many of them have gone
        uint64_t limit{0};      //!< chunks below this may go
        bool started{false};    //!< the member has contributed
        std::vector<bool> got;  //!< result chunks received, by chunk index
        uint64_t gotBytes{0};   //!< result bytes received
    };

    /** \param r a reduction \return whether its next chunk may go now */
    static bool Ready(const Reduction& r);
    /** Finish \p id if it has started, sent every chunk and its whole result is in. */
    void FinishIfDone(uint64_t id);
    /** \param id a joined reduction \return it; aborts if unknown */
    Reduction& Find(uint64_t id);

    uint32_t m_node{0};
    std::vector<Ptr<RocePort>> m_ports;
    std::map<uint64_t, Reduction> m_reductions;
    uint64_t m_chunksSent{0};
    uint64_t m_resultBytes{0};
    uint64_t m_payloadSent{0};
};

} // namespace ns3

#endif /* MLFABRIC_REDUCTION_MEMBER_H */
