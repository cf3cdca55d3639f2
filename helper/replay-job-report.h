/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_JOB_REPORT_H
#define MLFABRIC_REPLAY_JOB_REPORT_H

#include "ns3/nstime.h"
#include "ns3/replay-run.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * One job's figures, from its ranks and collectives.
 */
struct ReplayJobFigures
{
    Time finish;         //!< its last rank's finish: the iteration time of a one-iteration trace
    Time firstFinish;    //!< its first rank's finish
    Time compute;        //!< device compute time, mean over its ranks
    Time comm;           //!< communication time, mean over its ranks
    Time exposedComm;    //!< exposed communication, mean over its ranks
    Time maxExposedComm; //!< exposed communication of its most exposed rank
    uint64_t collectives{0}; //!< collectives it ran
    Time collectiveTime;     //!< sum over its finished collectives of end - start
    uint64_t bytesSent{0};   //!< payload its ranks sent
    double slowdown{0};      //!< finish / finish alone; 0 when not measured
};

/**
 * \ingroup mlfabric-helper
 * \param job a job of a multi-job replay
 * \return its figures
 */
ReplayJobFigures ComputeReplayJobFigures(const ReplayJobResult& job);

/**
 * \ingroup mlfabric-helper
 * Print a multi-job replay as tables: the run and its jobs, one row per job (finish,
 * compute, communication, exposed communication, collective time, and the slowdown
 * when the jobs were also run alone), one row per rank with its NPU, one row per
 * collective (at most \p maxCollectives in all), notes and the totals of the network.
 * Times in microseconds.
 * \param out the stream
 * \param config the run
 * \param result what it measured
 * \param maxCollectives most collective rows
 */
void PrintReplayJobTables(std::ostream& out,
                          const ReplayRunConfig& config,
                          const ReplayResult& result,
                          size_t maxCollectives);

/**
 * \ingroup mlfabric-helper
 * \param config the run
 * \param result what it measured
 * \return the --summary JSON of a multi-job run: the run's keys as for one workload, and
 *         jobs[] with each job's name, workload, npus, figures, ranks[] and collectives[]
 */
nlohmann::json ReplayJobsToJson(const ReplayRunConfig& config, const ReplayResult& result);

/**
 * \ingroup mlfabric-helper
 * Write the rank table, with job and NPU columns first, to \p path, the collectives,
 * with a job column first, to CsvSibling(path, "collectives") and the job figures to
 * CsvSibling(path, "jobs"); times in ns. Throws InputError naming a file that
 * cannot be written. Nothing is written for an empty path.
 * \param path the --csv value
 * \param result what the replay measured
 */
void WriteReplayJobsCsv(const std::string& path, const ReplayResult& result);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_JOB_REPORT_H */
