/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REDUCTION_ENGINE_H
#define MLFABRIC_REDUCTION_ENGINE_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/reduction-layout.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-switch
 * A switch's reduction engine (NVLS on a scale-up switch, SHARP on a scale-out one):
 * partial sums per chunk in a bounded buffer, credits that hold the senders back.
 *
 * A reduction splits every member's data into chunks of the same size (ReductionLayout).
 * Each member sends each chunk up once; the engine adds it to the chunk's partial sum, and
 * once every member's contribution of a chunk is in, it reduces the chunk at
 * ReductionRate, waits Latency and hands the result on for a copy per recipient: every
 * member for an all-reduce (a multicast), the shard's owner for a reduce-scatter. An
 * all-gather's chunk has one contributor, the shard's owner, and nothing to add: it waits
 * Latency only and goes to every other member. The chunk occupies ChunkBytes of the
 * buffer from its first contribution until the last copy of its result has left the
 * switch.
 *
 * The buffer never overflows because senders are held by credits, as SHARP bounds the
 * outstanding operations per group and NVLS the multimem requests in flight: a reduction
 * opens with a window of W chunks (as many as the free buffer holds, at most WindowBytes'
 * worth and its chunk count), and a member may send chunk k only once it has been granted a
 * limit above k. Freed chunks are granted again a quarter window at a time (every chunk
 * for windows under 8, and the last ones at once). Reductions that find no room for one
 * chunk wait, in the order they were opened, for another to close.
 *
 * The engine sees chunks, not links: whoever carries them (the switch's ports, or a
 * model of them) calls Contribute() when a chunk has arrived and Delivered() when the
 * last copy of a result has left, and carries the grants and results the callbacks hand
 * it. The transport must be reliable and in order: a lost chunk would hold its partial
 * sum, and every sender's window, for ever.
 */
class ReductionEngine : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** \param node the switch's node id, named in errors */
    void SetNodeId(uint32_t node);

    /** What opens a reduction. */
    struct Spec
    {
        uint64_t id{0};         //!< names the reduction in every call and callback
        uint32_t members{0};    //!< contributing members, at least 1
        uint64_t bytes{0};      //!< each member's data, and the result each receives
        uint32_t chunkBytes{0}; //!< bytes per chunk (the last may be shorter)
        ReductionOp op{ReductionOp::AllReduce}; //!< what the members' data becomes
    };

    /** A member may send chunks below \p limit. Arguments: id, member, limit. */
    using GrantCallback = std::function<void(uint64_t, uint32_t, uint64_t)>;
    /** The result of one chunk is ready for every member. Arguments: id, chunk, bytes. */
    using ResultCallback = std::function<void(uint64_t, uint64_t, uint32_t)>;

    /**
     * \param grant called when a member's credit grows (first at the window's opening)
     * \param result called when a chunk's result is ready to go down
     */
    void SetCallbacks(GrantCallback grant, ResultCallback result);

    /**
     * Open a reduction. Throws InputError for a zero buffer, no members (a reduce-scatter
     * or all-gather: fewer than 2), no bytes, a zero chunk or a chunk larger than the
     * buffer, or an id already open.
     * \param spec the reduction
     */
    void Open(const Spec& spec);

    /**
     * Member \p member's contribution of chunk \p chunk has arrived. A chunk outside the
     * member's credit, not the member's next (ReductionLayout::GetSentChunk), or sent twice,
     * aborts the simulation: the transport broke the protocol.
     * \param id the reduction
     * \param member the member, below Spec::members
     * \param chunk the chunk index
     */
    void Contribute(uint64_t id, uint32_t member, uint64_t chunk);

    /**
     * The last copy of chunk \p chunk's result has left: its partial sum is freed, and
     * the reduction closes after its last chunk.
     * \param id the reduction
     * \param chunk the chunk, handed to the result callback before
     */
    void Delivered(uint64_t id, uint64_t chunk);

    /** \param id an open reduction \return its window, in chunks (0 while it waits) */
    uint64_t GetWindow(uint64_t id) const;
    /** \return bytes of partial sums held now */
    uint64_t GetHeldBytes() const;
    /** \return the most bytes of partial sums held at once */
    uint64_t GetPeakHeldBytes() const;
    /** \return chunks reduced so far */
    uint64_t GetReducedChunks() const;
    /** \return reductions open (running or waiting for room) */
    size_t GetOpenCount() const;
    /** \return the reduction buffer's size, bytes */
    uint64_t GetBufferBytes() const;

    /**
     * Signature of the HeldBytes trace.
     * \param bytes partial-sum bytes held after the change
     */
    typedef void (*HeldBytesCallback)(uint64_t bytes);

  protected:
    /** Drop the reductions under way and the callbacks. */
    void DoDispose() override;

  private:
    /** One open reduction. */
    struct Reduction
    {
        Spec spec;
        ReductionLayout layout;           //!< its chunks and who sends and receives them
        uint64_t chunks{0};               //!< chunks in all
        uint64_t window{0};               //!< chunks it may hold at once; 0: waiting
        uint64_t freed{0};                //!< chunks delivered, in order
        uint64_t granted{0};              //!< the members' limit, as last granted
        uint64_t reduced{0};              //!< chunks handed to the engine's adder
        std::vector<uint64_t> sent;       //!< per member: chunks contributed, in its order
        std::deque<uint32_t> counts;      //!< per chunk from `freed`: contributions in
        std::deque<bool> queuedForReduce; //!< per chunk from `freed`: complete
    };

    /** Chunk \p chunk of \p id has every contribution: reduce it, or pass it on. */
    void Complete(uint64_t id, uint64_t chunk);
    /** Hand chunk \p chunk's result of \p bytes on after the engine's latency. */
    void ScheduleResult(uint64_t id, uint64_t chunk, uint32_t bytes);
    /** Give waiting reductions their windows while the buffer has room. */
    void AdmitWaiting();
    /** \param r a reduction given its window: grant every member its first limit */
    void GrantAll(Reduction& r);
    /** Start the adder on the next complete chunk, if it is idle. */
    void StartReduce();
    /** The adder has finished one chunk. \param id reduction \param chunk chunk */
    void FinishReduce(uint64_t id, uint64_t chunk);
    /** \param id reduction \return it; aborts if it is not open */
    Reduction& Find(uint64_t id);

    uint32_t m_node{0};
    uint64_t m_bufferBytes{0}; //!< attribute BufferBytes
    uint64_t m_windowBytes{0}; //!< attribute WindowBytes
    DataRate m_rate;           //!< attribute ReductionRate; 0: no limit
    Time m_latency;            //!< attribute Latency
    GrantCallback m_grant;
    ResultCallback m_result;
    std::map<uint64_t, Reduction> m_open;
    std::deque<uint64_t> m_waiting;                         //!< ids without a window
    std::deque<std::pair<uint64_t, uint64_t>> m_readyToAdd; //!< complete chunks, in order
    bool m_adding{false};                                   //!< the adder is busy
    uint64_t m_reserved{0};                                 //!< buffer bytes promised to windows
    uint64_t m_held{0};
    uint64_t m_peak{0};
    uint64_t m_reducedChunks{0};
    TracedCallback<uint64_t> m_heldTrace;
};

} // namespace ns3

#endif /* MLFABRIC_REDUCTION_ENGINE_H */
