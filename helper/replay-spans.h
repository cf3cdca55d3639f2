/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_SPANS_H
#define MLFABRIC_REPLAY_SPANS_H

#include "ns3/et-node.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ns3
{

struct ReplayJob;

/**
 * \ingroup mlfabric-helper
 * One node of one rank as it ran: issued at start, finished at end.
 */
struct ReplaySpan
{
    uint32_t job{0};      //!< index of the job in the run
    uint32_t rank{0};     //!< rank within the job
    uint32_t position{0}; //!< the node's position in the rank's trace
    Time start;           //!< issued
    Time end;             //!< finished; equal to start while it runs
    bool finished{false}; //!< the node finished before the run ended
};

/**
 * \ingroup mlfabric-helper
 * What a node spent its time on, for the timeline's tracks.
 */
enum class ReplaySpanLane : uint8_t
{
    Compute,    //!< a device compute node
    Collective, //!< a device collective on the network
    Send,       //!< a point-to-point send
    Receive,    //!< a point-to-point receive
    Host,       //!< host-side operations, replayed by duration
    Memory,     //!< remote memory
    Other,      //!< metadata and nodes without a network part
};

/**
 * \ingroup mlfabric-helper
 * \param node a node \return its lane
 */
ReplaySpanLane LaneOf(const EtNode& node);

/**
 * \ingroup mlfabric-helper
 * \param lane a lane \return its name: compute, collective, send, receive, host, memory, other
 */
std::string ToString(ReplaySpanLane lane);

/**
 * \ingroup mlfabric-helper
 * The parallelism a communication node serves, from its name as training-trace
 * generators write it: a dot-separated part tp, pp, dp, ep, sp or cp
 * ("i0.mb0.layer3.attn.fwd.tp.all_reduce" is tp). A collective without such a part is
 * "group <pg_name>" (or "group all" for the default group), a send or receive without one
 * "p2p"; every other node is its lane's name.
 * \param node a node
 * \return the kind
 */
std::string ParallelismKindOf(const EtNode& node);

/**
 * \ingroup mlfabric-helper
 * Records every node of every job as a span, from the NodeIssued and NodeFinished trace
 * sources of the jobs' applications. Connect it after the jobs are installed and before
 * the simulation runs; read it after.
 */
class ReplaySpanRecorder
{
  public:
    /** \param jobs the installed jobs; they must outlive the recorder's connections */
    explicit ReplaySpanRecorder(const std::vector<ReplayJob>& jobs);

    ReplaySpanRecorder(const ReplaySpanRecorder&) = delete;
    ReplaySpanRecorder& operator=(const ReplaySpanRecorder&) = delete;

    /** \return the spans in issue order; unfinished ones end at the time of this call */
    const std::vector<ReplaySpan>& GetSpans();

  private:
    /** Where a trace source's event comes from. */
    struct Source
    {
        ReplaySpanRecorder* recorder; //!< the recorder
        uint32_t job;                 //!< job index
        uint32_t rank;                //!< rank in the job
    };

    /** NodeIssued of one rank. \param source the rank \param id the node id */
    static void Issued(Source* source, uint64_t id);
    /** NodeFinished of one rank. \param source the rank \param id the node id */
    static void Finished(Source* source, uint64_t id);

    const std::vector<ReplayJob>& m_jobs;                   //!< the jobs
    std::deque<Source> m_sources;                           //!< one per rank, stable addresses
    std::vector<ReplaySpan> m_spans;                        //!< in issue order
    std::vector<std::vector<std::vector<uint32_t>>> m_open; //!< [job][rank][position]: span + 1
};

} // namespace ns3

#endif /* MLFABRIC_REPLAY_SPANS_H */
