/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_JOB_H
#define MLFABRIC_REPLAY_JOB_H

#include "ns3/comm-group-table.h"
#include "ns3/et-trace.h"
#include "ns3/input-error.h"
#include "ns3/ptr.h"
#include "ns3/replay-engine.h"
#include "ns3/replay-job-spec.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * One job of a replay while the run is built and carried out. A run of one workload is
 * a run of one job that fills the fabric.
 */
struct ReplayJob
{
    ReplayJobSpec spec;                                 //!< as configured
    bool fillsFabric{false};                            //!< --workload: every NPU, in order
    std::string where;                                  //!< "job 'NAME': ", or "" alone
    uint32_t rankCount{0};                              //!< ranks of its workload
    std::vector<uint32_t> npus;                         //!< fabric NPU of each rank
    std::vector<uint32_t> dimensions;                   //!< of its collectives
    std::shared_ptr<CommGroupTable> groups;             //!< its communicator groups
    size_t fileGroups{0};                               //!< groups from the JSON file
    size_t metadataGroups{0};                           //!< groups from METADATA nodes
    std::vector<std::shared_ptr<const EtTrace>> traces; //!< by rank
    Ptr<ReplayEngine> engine;                           //!< its replay, once installed
};

/**
 * \ingroup mlfabric-helper
 * Run \p fn; an InputError it throws gets the job's place ("job 'NAME': ") in front of
 * its message, so that an error in one of several jobs says which.
 * \param job the job
 * \param fn what to run
 * \return what \p fn returns
 */
template <typename F>
auto
NamingJob(const ReplayJob& job, F fn)
{
    try
    {
        return fn();
    }
    catch (const InputError& e)
    {
        if (job.where.empty())
        {
            throw;
        }
        throw InputError(job.where + e.what());
    }
}

/**
 * \ingroup mlfabric-helper
 * Register the process groups that the METADATA nodes of the traces define
 * (PyTorch's process_group:init).
 * \param traces every rank's trace
 * \param groups where they go
 */
void AddTraceProcessGroups(const std::vector<std::shared_ptr<const EtTrace>>& traces,
                           CommGroupTable& groups);

/**
 * \ingroup mlfabric-helper
 * Read a job's communicator groups (its file, then its traces' METADATA nodes) and every
 * rank's trace. Throws InputError naming the file for a bad one.
 * \param job the job, with its spec and rank count
 * \param ctrlDeps ctrl_deps are dependencies too
 */
void LoadReplayJobInputs(ReplayJob& job, bool ctrlDeps);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_JOB_H */
