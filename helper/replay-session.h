/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_SESSION_H
#define MLFABRIC_REPLAY_SESSION_H

#include "ns3/nstime.h"
#include "ns3/replay-job-install.h"
#include "ns3/replay-job.h"
#include "ns3/replay-network.h"
#include "ns3/replay-progress.h"
#include "ns3/replay-result.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * The inputs every job of a session is installed with, besides its own workload.
 */
struct ReplaySessionInputs
{
    std::string systemPath;       //!< ASTRA-sim system JSON; empty: ring on every dimension
    std::string remoteMemoryPath; //!< remote-memory JSON; empty: none
    bool ctrlDeps{false};         //!< ctrl_deps are dependencies too
    uint32_t cpuSlots{1};         //!< host-side operations at once (0 = unlimited)
    uint32_t computeSlots{1};     //!< device compute nodes at once (0 = unlimited)
    uint32_t commSlots{1};        //!< device collectives and sends at once (0 = unlimited)
};

/**
 * \ingroup mlfabric-helper
 * How a session's simulation runs and is watched.
 */
struct ReplaySessionLimits
{
    Time stopTime;                              //!< simulated time limit; zero: none
    ReplayWatchSettings watch;                  //!< what the network's observer watches
    std::ostream* progress{nullptr};            //!< progress lines go here, if set
    double progressPeriod{2.0};                 //!< wall seconds between progress lines
    const std::atomic<bool>* stopFlag{nullptr}; //!< stop the run when it becomes true
};

/**
 * \ingroup mlfabric-helper
 * One replay of one or several jobs on one network, in four steps called in order:
 * Build the network and its backend from the fabric, Install an engine per job and an
 * application per rank, Run the simulation, Collect the figures of every job and of
 * the network. A workload alone is a list of one job that fills the fabric; the steps
 * do not tell one job from several.
 *
 * Every input error comes before anything runs: the jobs' rank counts when the session
 * is made, the fabric in Build, placement, system, remote memory and traces in Install.
 * The session owns the simulation: when it ends, the engines are disposed, the network
 * freed and the simulator emptied for the next run of the process, whatever was thrown.
 */
class ReplaySession
{
  public:
    /**
     * Count every job's ranks. Throws InputError, with the job's place, for a workload
     * without rank files or with a gap.
     * \param jobs the jobs, with their specs and places
     */
    explicit ReplaySession(std::vector<ReplayJob> jobs);
    /** Dispose the engines and the network, and empty the simulator. */
    ~ReplaySession();

    ReplaySession(const ReplaySession&) = delete;
    ReplaySession& operator=(const ReplaySession&) = delete;

    /**
     * Step 1: read the fabric and build the backend with its observer
     * (BuildReplayNetwork).
     * \param config the network
     */
    void Build(const ReplayNetworkConfig& config);

    /**
     * Step 2: put the jobs on NPUs (PlaceReplayJobs; a job that fills the fabric needs
     * as many ranks as the fabric has NPUs), read the system and remote memory, load
     * every job's groups and traces and install it (InstallReplayJob). The simulation
     * stops once no job's engine has a node running.
     * \param inputs the shared inputs
     */
    void Install(const ReplaySessionInputs& inputs);

    /**
     * Step 3: run the simulation with progress lines, the stop flag, the time limit and
     * the network's observer watching.
     * \param limits how
     */
    void Run(const ReplaySessionLimits& limits);

    /**
     * Step 4: the figures. With one job that fills the fabric they are in
     * result.ranks and the like, else in result.jobs.
     * \return what the run measured
     */
    ReplayResult Collect();

    /** \return the jobs */
    const std::vector<ReplayJob>& GetJobs() const;

  private:
    /** \return true once every rank of every job has finished */
    bool AllFinished() const;
    /** \return across processes: the last rank's finish over every process */
    Time LastFinishOverProcesses() const;
    /**
     * \return "F/R ranks finished, D/N nodes, about S s left": the estimate, from the
     *         wall time so far and the share of nodes done, once a node is done
     */
    std::string DescribeProgress() const;
    /** Put the jobs on NPUs and give them their dimensions. */
    void PlaceJobs();
    /** Stop the simulation once no engine has a node running (an engine's Idle trace). */
    void OnEngineIdle();
    /**
     * Stop once the network has settled (IsSettled), or a stall timeout after the
     * workload finished, so that the final checks report what never settled.
     * \param deadline the time to stop at regardless
     */
    void StopWhenSettled(Time deadline);

    std::vector<ReplayJob> m_jobs;                    //!< the jobs
    ProcessGroup* m_processes{nullptr};               //!< across processes: the processes
    std::string m_fabricPath;                         //!< the fabric file, for messages
    ReplayNetwork m_net;                              //!< the network
    SystemConfig m_system;                            //!< the run's system configuration
    std::unique_ptr<ReplayProgress> m_progress;       //!< progress lines and the stop flag
    Time m_stopTime;                                  //!< the time limit of the run
    Time m_settleTimeout;                             //!< the longest wait to settle
    uint64_t m_events{0};                             //!< simulator events of the run
    double m_wallSeconds{0};                          //!< wall time of the run
    std::chrono::steady_clock::time_point m_runStart; //!< wall time when Run started
};

/**
 * \ingroup mlfabric-helper
 * \param workload a trace prefix
 * \param commGroupPath its groups
 * \return the one job of a run of \p workload alone: every NPU, in order
 */
ReplayJob MakeWholeFabricJob(const std::string& workload, const std::string& commGroupPath);

/**
 * \ingroup mlfabric-helper
 * \param spec a job of a multi-job run
 * \return the job, named in its messages
 */
ReplayJob MakeSharedFabricJob(const ReplayJobSpec& spec);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_SESSION_H */
