/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_ENGINE_H
#define MLFABRIC_REPLAY_ENGINE_H

#include "ns3/collective-runner.h"
#include "ns3/comm-group-table.h"
#include "ns3/nccl-tuner.h"
#include "ns3/network-backend.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/remote-memory-model.h"
#include "ns3/replay-collective-matcher.h"
#include "ns3/replay-compute-model.h"
#include "ns3/replay-p2p-matcher.h"
#include "ns3/replay-rendezvous.h"
#include "ns3/replay-trace-check.h"
#include "ns3/system-config.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class EtReplayApp;
struct EtNode;

/**
 * \ingroup mlfabric-replay
 * Everything a replay shares across its NPUs.
 */
struct ReplaySetup
{
    Ptr<NetworkBackend> backend;                    //!< the network
    SystemConfig system;                            //!< ASTRA-sim's system JSON
    std::vector<uint32_t> physicalDimensions;       //!< NPUs per network dimension
    std::vector<NcclDimension> ncclDimensions;      //!< per dimension, for the nccl choice
    std::shared_ptr<const CommGroupTable> groups;   //!< communicator groups
    std::optional<RemoteMemoryConfig> remoteMemory; //!< --remote-memory, if given
};

/**
 * \ingroup mlfabric-replay
 * One point-to-point send of a replay (a pipeline stage's activations or gradients).
 */
struct ReplaySendRecord
{
    uint32_t src{0};     //!< sending rank
    uint32_t dst{0};     //!< receiving rank
    int64_t tag{0};      //!< comm_tag
    uint64_t bytes{0};   //!< comm_size
    Time issue;          //!< the send node ran on src
    Time arrival;        //!< its last byte arrived at dst; valid if arrived
    bool arrived{false}; //!< the message has arrived
};

/**
 * \ingroup mlfabric-replay
 * The part of a Chakra replay that spans NPUs: one per run, shared by the EtReplayApp
 * of every NPU.
 *
 * An application decides which of its nodes run and when; the engine carries out the
 * nodes that involve other NPUs or shared hardware, and calls the application's
 * NodeDone when each has finished on that NPU:
 * - collectives are matched across ranks by (group, sequence number)
 *   (ReplayCollectiveMatcher) and run by one CollectiveRunner over the backend;
 * - a send becomes one backend message, done on the sender when the backend says it
 *   has left; a receive is done when the message with the same (source, destination,
 *   tag) has arrived, first sent first matched (ReplayP2pMatcher). With the attribute
 *   RendezvousSends a message leaves only once its receive is posted
 *   (ReplayRendezvous);
 * - remote-memory accesses book the RemoteMemoryModel;
 * - compute and other delays run on the backend's clock.
 *
 * In one process of a distributed run (SetProcessRanks) the engine runs that process's
 * ranks and hears of every message that arrives at them through Arrive. Each process
 * numbers a collective for the wire by its (group, sequence), the same on every process.
 */
class ReplayEngine : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ReplayEngine();
    ~ReplayEngine() override;

    /**
     * Prepare the run. Throws InputError for a system configuration the network cannot
     * run or a remote memory that does not fit the run.
     * \param setup the shared parts
     */
    void Setup(const ReplaySetup& setup);

    /**
     * Register the application of the next rank (ranks in order 0, 1, ...) and check its
     * trace (CheckReplayTrace). Call after Setup and SetTrace on the application.
     * \param app the rank's application
     */
    void AddRank(Ptr<EtReplayApp> app);

    /**
     * Run only some ranks: the others run on other processes of a distributed run. Call
     * after Setup and before AddRank. Rendezvous sends and remote memory, which pair
     * ranks through shared state, are refused with an InputError.
     * \param local true for each rank this process runs
     */
    void SetProcessRanks(std::vector<bool> local);

    /** \param rank a rank \return true if this process runs it (always in one process) */
    bool IsLocal(uint32_t rank) const;

    /** \return the ranks this process runs: all of them in one process */
    uint32_t GetLocalRankCount() const;

    /**
     * A message, point-to-point or of a collective, has arrived at one of this process's
     * ranks: what Send's receiver-side callbacks do, for a run across processes.
     * \param message as the wire carried it (the tag without bit 63 for point-to-point)
     */
    void Arrive(const NetworkBackend::Message& message);

    /** One point-to-point message as its receiver saw it. */
    struct Arrival
    {
        uint32_t src{0}; //!< sending rank
        uint32_t dst{0}; //!< receiving rank
        int64_t tag{0};  //!< its tag, bit 63 clear
        Time time;       //!< its last byte arrived
    };

    /** \return the point-to-point messages Arrive was told of, in arrival order */
    const std::vector<Arrival>& GetArrivals() const;

    /**
     * \param tag a trace's comm_tag
     * \return the tag its message carries and is matched by: bit 63 is the wire's
     *         collective flag (CollectiveTag)
     */
    static int64_t WireTag(int64_t tag);

    /** \return ranks of the run */
    uint32_t GetRankCount() const;
    /** \return ranks whose every node has finished */
    uint32_t GetFinishedRankCount() const;
    /** \param rank a rank \return its application */
    Ptr<EtReplayApp> GetApp(uint32_t rank) const;

    /** \return the compute model of the system configuration */
    const ReplayComputeModel& GetComputeModel() const;

    /**
     * Run \p fn after \p delay on the backend's clock.
     * \param delay the delay
     * \param fn what to run
     */
    void Schedule(Time delay, std::function<void()> fn);

    /** \return the backend's clock */
    Time Now() const;

    /**
     * Start a device COMM_COLL_NODE on a rank.
     * \param rank the rank
     * \param position the node's position in the rank's trace
     * \param node the node
     * \param where file and node, for messages
     */
    void RunCollective(uint32_t rank,
                       uint32_t position,
                       const EtNode& node,
                       const std::string& where);

    /**
     * Start a COMM_SEND_NODE.
     * \param rank the sender
     * \param position the node's position
     * \param node the node (comm_dst, comm_size, comm_tag)
     */
    void Send(uint32_t rank, uint32_t position, const EtNode& node);

    /**
     * Start a COMM_RECV_NODE.
     * \param rank the receiver
     * \param position the node's position
     * \param node the node (comm_src, comm_tag)
     */
    void Receive(uint32_t rank, uint32_t position, const EtNode& node);

    /**
     * Start a MEM_LOAD_NODE or MEM_STORE_NODE.
     * \param rank the rank
     * \param position the node's position
     * \param node the node (tensor_size)
     * \param where file and node, for messages
     */
    void AccessRemoteMemory(uint32_t rank,
                            uint32_t position,
                            const EtNode& node,
                            const std::string& where);

    /**
     * A rank has finished every node.
     * \param rank the rank
     */
    void RankFinished(uint32_t rank);

    /** A rank's application has started. */
    void RankStarted();

    /** A node has started on some rank. */
    void NodeStarted();

    /** A node has finished on some rank. */
    void NodeEnded();

    /**
     * A rank has issued everything it can for now. Once every application has started,
     * a run with no node running anywhere can make no further progress (every rank
     * has finished, or the ranks wait for each other): the Idle trace source fires and,
     * with StopWhenIdle, the simulation is stopped there, whatever events other models
     * still hold.
     */
    void RankIdle();

    /**
     * \return true once every application has started and no node runs on any rank:
     *         the engine's ranks have finished or wait for each other
     */
    bool IsIdle() const;

    /** \return nodes running over all ranks */
    uint64_t GetRunningNodeCount() const;

    /**
     * \param rank a rank
     * \param position a node of its trace
     * \return the collective that node runs, while it runs; nullptr otherwise
     */
    const ReplayCollective* FindRunningCollective(uint32_t rank, uint32_t position) const;

    /** \return every collective issued, with its timing */
    const std::vector<ReplayCollective>& GetCollectives() const;
    /** \return every point-to-point send issued, in issue order */
    const std::vector<ReplaySendRecord>& GetSends() const;
    /** \return how each communicator group's collectives run (DescribeGroupCollectives) */
    std::vector<std::string> DescribeGroups() const;
    /** \param rank a rank \return payload it sent, collectives and point-to-point */
    uint64_t GetBytesSent(uint32_t rank) const;
    /** \param rank a rank \return payload it received, collectives and point-to-point */
    uint64_t GetBytesReceived(uint32_t rank) const;
    /**
     * \return nodes run in a degraded way (replayed by their duration for lack of what
     *         the network needs, receives of another size than their message) and
     *         messages that arrived without a receive
     */
    ReplayNotes GetNotes() const;

    /**
     * Why the replay cannot go on, once the simulator has run out of events with ranks
     * unfinished.
     * \param limit most lines
     * \return one line per blocked rank, collective or message key
     */
    std::vector<std::string> DescribeStuck(size_t limit) const;

    /** TracedCallback signature of a finished collective. */
    typedef void (*CollectiveTracedCallback)(uint32_t id);
    /** TracedCallback signature of an engine gone idle. */
    typedef void (*IdleTracedCallback)();

  protected:
    /** Drop the NPUs' applications, the collective runner and the backend. */
    void DoDispose() override;

  private:
    /** A collective finished on one rank (CollectiveRunner callback). */
    void CollectiveDone(uint32_t rank, uint32_t id);
    /** A point-to-point message arrived at its destination. */
    void MessageArrived(uint32_t src, uint32_t dst, int64_t tag, uint64_t bytes);
    /** The send recorded at \p index has arrived. */
    void SendArrived(size_t index);
    /** A receive has its message: note a size that differs from the node's, finish it. */
    void ReceiveMatched(uint32_t rank, uint32_t position, uint64_t bytes);
    /** Hand a send's message (recorded at \p index of m_sends) to the backend. */
    void Launch(uint32_t rank,
                uint32_t position,
                const NetworkBackend::Message& message,
                int64_t tag,
                size_t index);
    /** Tell a rank's application that one of its nodes finished. */
    void Done(uint32_t rank, uint32_t position);
    /**
     * \param c a collective
     * \return its number on the wire: the same on every process, from its group's place
     *         among the groups (world first) and its sequence on the group
     */
    uint32_t WireId(const ReplayCollective& c) const;

    Ptr<NetworkBackend> m_backend;                           //!< the network
    std::shared_ptr<const CommGroupTable> m_groups;          //!< communicator groups
    std::unique_ptr<CollectiveRunner> m_runner;              //!< collectives of every rank
    std::unique_ptr<ReplayCollectiveMatcher> m_matcher;      //!< collectives across ranks
    std::shared_ptr<const CollectivePlanner> m_planner;      //!< decomposition
    ReplayP2pMatcher m_p2p;                                  //!< sends and receives
    ReplayRendezvous m_rendezvous;                           //!< sends held for receives
    std::unique_ptr<RemoteMemoryModel> m_memory;             //!< remote memory, if any
    ReplayComputeModel m_compute;                            //!< compute durations
    std::vector<Ptr<EtReplayApp>> m_apps;                    //!< by rank
    std::unordered_map<uint64_t, uint32_t> m_collectiveNode; //!< (rank, wire id) -> position
    std::unordered_map<uint32_t, uint32_t> m_matcherId;      //!< wire id -> matcher id
    std::map<std::string, uint32_t> m_groupPlace;            //!< pg_name -> place, world 0
    std::vector<bool> m_local;                               //!< by rank: run here
    uint32_t m_localRanks{0};                                //!< ranks run here
    bool m_acrossProcesses{false};                           //!< SetProcessRanks was called
    std::vector<Arrival> m_arrivals;                         //!< across processes
    std::vector<uint64_t> m_p2pSent;                         //!< per rank
    std::vector<ReplaySendRecord> m_sends;                   //!< every send, issue order
    std::vector<uint64_t> m_p2pReceived;                     //!< per rank
    uint32_t m_finishedRanks{0};                             //!< ranks done
    uint32_t m_startedRanks{0};                              //!< applications started
    uint64_t m_runningNodes{0};                              //!< nodes running, all ranks
    bool m_stopWhenIdle{true};                               //!< attribute StopWhenIdle
    bool m_rendezvousSends{false};                           //!< attribute RendezvousSends
    ReplayNotes m_notes;                                     //!< degraded nodes
    TracedCallback<uint32_t> m_collectiveFinished;           //!< all ranks done with one
    TracedCallback<> m_idle;                                 //!< no node runs anywhere
};

} // namespace ns3

#endif /* MLFABRIC_REPLAY_ENGINE_H */
