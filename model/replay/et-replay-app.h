/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_REPLAY_APP_H
#define MLFABRIC_ET_REPLAY_APP_H

#include "ns3/application.h"
#include "ns3/et-trace.h"
#include "ns3/ptr.h"
#include "ns3/replay-activity.h"
#include "ns3/replay-issue-queue.h"
#include "ns3/replay-rank-stats.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class ReplayEngine;

/**
 * \ingroup mlfabric-replay
 * The Chakra replay of one NPU: an ns-3 Application that runs its rank's trace.
 *
 * When it starts, every node without dependencies is ready. Ready nodes are issued by
 * ASTRA-sim's rules (ReplayIssueQueue): lowest node id first, at most CpuSlots host-side
 * operations, ComputeSlots device compute nodes and CommSlots device collectives and
 * sends at a time (1, 1, 1 by default; receives, memory and metadata nodes take no
 * slot). A node finishing releases its slot and counts down its children's
 * dependencies; children reaching zero become ready. The rank has finished when every
 * node has.
 *
 * Compute nodes run for their duration or roofline time (ReplayComputeModel); the nodes
 * that involve other NPUs (collectives, sends, receives) and remote memory are carried
 * out by the shared ReplayEngine.
 */
class EtReplayApp : public Application
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    EtReplayApp();
    ~EtReplayApp() override;

    /** \param trace this rank's trace; set before the application starts */
    void SetTrace(std::shared_ptr<const EtTrace> trace);
    /** \return this rank's trace */
    const EtTrace& GetTrace() const;

    /** \param engine the run's shared engine; set before the application starts */
    void SetEngine(Ptr<ReplayEngine> engine);

    /** \return this application's rank (attribute Rank) */
    uint32_t GetRank() const;

    /**
     * A node this application issued has finished (called by the engine and by its own
     * timers). May be called while the application is issuing.
     * \param position the node's position in the trace
     */
    void NodeDone(uint32_t position);

    /** \return true once every node has finished */
    bool IsFinished() const;

    /** \return what the rank did so far (bytes are filled in by the engine's owner) */
    ReplayRankStats GetStats() const;

    /**
     * \param limit most nodes named
     * \return the unfinished rank's state: nodes done, running, ready, waiting
     */
    std::string DescribeBlocked(size_t limit) const;

    /** \return the positions of the nodes running now, lowest first */
    std::vector<uint32_t> GetRunningNodes() const;

    /** TracedCallback signature of a node event. */
    typedef void (*NodeTracedCallback)(uint64_t nodeId);
    /** TracedCallback signature of the rank's completion. */
    typedef void (*FinishedTracedCallback)(uint32_t rank, Time finish);

  protected:
    /** Drop the shared engine and this rank's issue queue. */
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /** Complete finished nodes and issue ready ones until nothing changes. */
    void Drain();
    /** Start one node. */
    void Issue(uint32_t position);
    /** Account for one finished node and release its children. */
    void Complete(uint32_t position);
    /** Finish \p position after \p ns on the engine's clock. */
    void After(uint32_t position, uint64_t ns);

    /** Where a node is in its life. */
    enum class NodeState : uint8_t
    {
        Waiting, //!< not issued yet
        Running, //!< issued, not finished
        Done,    //!< finished
    };

    uint32_t m_rank{0};                        //!< attribute Rank
    uint32_t m_cpuSlots{1};                    //!< attribute CpuSlots
    uint32_t m_computeSlots{1};                //!< attribute ComputeSlots
    uint32_t m_commSlots{1};                   //!< attribute CommSlots
    std::shared_ptr<const EtTrace> m_trace;    //!< this rank's trace
    Ptr<ReplayEngine> m_engine;                //!< shared engine
    std::unique_ptr<ReplayIssueQueue> m_queue; //!< ready nodes and slots
    std::vector<uint32_t> m_waitingParents;    //!< per node: parents not finished
    std::vector<NodeState> m_state;            //!< per node
    std::vector<uint32_t> m_finishedNodes;     //!< done, not yet completed by Drain
    std::vector<uint32_t> m_issueBatch;        //!< scratch of Drain
    bool m_draining{false};                    //!< inside Drain
    bool m_started{false};                     //!< StartApplication ran
    bool m_stopped{false};                     //!< StopApplication ran
    ReplayActivity m_activity;                 //!< busy times
    ReplayRankStats m_stats;                   //!< counters and finish time

    TracedCallback<uint64_t> m_nodeIssued;         //!< a node started
    TracedCallback<uint64_t> m_nodeFinished;       //!< a node finished
    TracedCallback<uint32_t, Time> m_rankFinished; //!< every node finished
};

} // namespace ns3

#endif /* MLFABRIC_ET_REPLAY_APP_H */
