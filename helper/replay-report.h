/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_REPORT_H
#define MLFABRIC_REPLAY_REPORT_H

#include "ns3/replay-run.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Print a replay as tables: the run, one row per rank (finish, compute, communication,
 * exposed communication, bytes), one row per collective (at most \p maxCollectives,
 * then a count of the rest), notes and totals. Times in microseconds.
 * \param out the stream
 * \param config the run
 * \param result what it measured
 * \param maxCollectives most collective rows
 */
void PrintReplayTables(std::ostream& out,
                       const ReplayRunConfig& config,
                       const ReplayResult& result,
                       size_t maxCollectives);

/**
 * \ingroup mlfabric-helper
 * Print one line per rank the way ASTRA-sim 2.0 reports a finished system:
 * "sys[<rank>] finished, <T> cycles, exposed communication <T - compute> cycles."
 * (a cycle is one ns; times truncated to whole ns), for comparison with its logs. In a
 * multi-job run each job's lines, in its own ranks, follow a line "job NAME:".
 * \param out the stream
 * \param result what the replay measured
 */
void PrintAstraSimLines(std::ostream& out, const ReplayResult& result);

/**
 * \ingroup mlfabric-helper
 * \param config the run
 * \param result what it measured
 * \return the --summary JSON: ranks[] (finish_ns, compute_ns, comm_ns, exposed_comm_ns,
 *         astra_exposed_comm_ns, ...), collectives[] (type, bytes, group, algorithm,
 *         start_ns, end_ns, ...), events, wall_seconds and the run's settings; times in
 *         ns with picosecond decimals
 */
nlohmann::json ReplayToJson(const ReplayRunConfig& config, const ReplayResult& result);

/**
 * \ingroup mlfabric-helper
 * \param path the --csv value, e.g. "out.csv"
 * \return the file of the collectives: the path with ".collectives" before its
 *         extension, e.g. "out.collectives.csv"
 */
std::string ReplayCollectivesCsvPath(const std::string& path);

/**
 * \ingroup mlfabric-helper
 * Write the rank table to \p path and the collective table to
 * ReplayCollectivesCsvPath(path), as CSV with a header line; times in ns. Throws
 * InputError naming a file that cannot be written. Nothing is written for an empty path.
 * \param path the --csv value
 * \param result what the replay measured
 */
void WriteReplayCsv(const std::string& path, const ReplayResult& result);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_REPORT_H */
