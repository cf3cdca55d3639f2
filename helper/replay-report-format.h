/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_REPORT_FORMAT_H
#define MLFABRIC_REPLAY_REPORT_FORMAT_H

#include "ns3/nstime.h"
#include "ns3/replay-kind-totals.h"
#include "ns3/replay-run.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <ostream>
#include <string>

namespace ns3
{
namespace replayfmt
{

/**
 * \addtogroup mlfabric-replay-report-format
 * Units, fields and the parts shared by the single-workload and multi-job reports.
 * @{
 */

/** \param t a time \return it in microseconds */
double Us(Time t);

/** \param t a time \return it in nanoseconds, keeping picoseconds as decimals */
double Ns(Time t);

/** \param group a pg_name \return it as reports name it ("all" for the default group) */
std::string GroupName(const std::string& group);

/**
 * printf into a std::string
 * \param format the format
 * \param args its arguments
 * \return the text, at most 511 characters
 */
template <typename... Args>
std::string
Format(const char* format, Args... args)
{
    char buffer[512];
    std::snprintf(buffer, sizeof(buffer), format, args...);
    return buffer;
}

/** \param r a run \return "completed", "interrupted", "network failure", "time limit" or "deadlock"
 */
std::string Outcome(const ReplayResult& r);

/** \param path a CSV file \return it open for writing; throws InputError if it cannot be */
std::ofstream OpenCsv(const std::string& path);

/** \param text a field \return it as a CSV field, quoted when it holds a comma or a quote */
std::string CsvField(const std::string& text);

/**
 * \param path the --csv value, e.g. "out.csv"
 * \param part what the sibling holds, e.g. "collectives"
 * \return "out.collectives.csv"
 */
std::string CsvSibling(const std::string& path, const std::string& part);

/**
 * Print the totals ending every replay table: outcome, simulated time, bytes, network
 * figures, events, wall time, and why the run stopped early.
 * \param out the stream
 * \param config the run
 * \param r what it measured
 */
void PrintTotals(std::ostream& out, const ReplayRunConfig& config, const ReplayResult& r);

/**
 * \param s one rank
 * \return its --summary object: rank, finished, finish_ns, compute_ns, ...
 */
nlohmann::json RankToJson(const ReplayRankStats& s);

/**
 * \param c one collective
 * \return its --summary object: id, type, bytes, group, ..., start_ns, end_ns
 */
nlohmann::json CollectiveToJson(const ReplayCollectiveRecord& c);

/** \param notes counted notes \return them as a JSON object */
nlohmann::json NotesToJson(const ReplayNotes& notes);

/**
 * \param config the run
 * \param r what it measured
 * \return the --summary keys every replay has: fabric, backend, network, system,
 *         outcome, times, events, bytes, warnings, stuck, network figures
 */
nlohmann::json RunToJson(const ReplayRunConfig& config, const ReplayResult& r);

/** The CSV header of a rank row (WriteRankCsvRow). */
extern const char* const kRankCsvHeader;

/** The CSV header of a collective row (WriteCollectiveCsvRow). */
extern const char* const kCollectiveCsvHeader;

/**
 * Write one rank as a CSV line, times in ns.
 * \param out the file
 * \param s the rank
 */
void WriteRankCsvRow(std::ostream& out, const ReplayRankStats& s);

/**
 * Write one collective as a CSV line, times in ns.
 * \param out the file
 * \param c the collective
 */
void WriteCollectiveCsvRow(std::ostream& out, const ReplayCollectiveRecord& c);

/** The CSV header of a send row (WriteSendCsvRow). */
extern const char* const kSendCsvHeader;

/** The CSV header of a parallelism-kind row (WriteKindCsvRow). */
extern const char* const kKindCsvHeader;

/**
 * Write one point-to-point send as a CSV line, times in ns.
 * \param out the file
 * \param s the send
 */
void WriteSendCsvRow(std::ostream& out, const ReplaySendRecord& s);

/**
 * Write the totals of one parallelism kind as a CSV line, times in ns.
 * \param out the file
 * \param t the totals
 */
void WriteKindCsvRow(std::ostream& out, const ReplayKindTotal& t);

/**
 * \param s one send
 * \return its --summary object: src, dst, tag, bytes, issue_ns, arrival_ns
 */
nlohmann::json SendToJson(const ReplaySendRecord& s);

/**
 * \param totals the totals per parallelism kind
 * \return them as a --summary array
 */
nlohmann::json KindsToJson(const std::vector<ReplayKindTotal>& totals);

/**
 * Print the point-to-point sends (at most \p limit) and the totals per parallelism kind.
 * \param out the stream
 * \param sends the sends
 * \param totals the totals per kind
 * \param limit most sends printed
 */
void PrintSendsAndKinds(std::ostream& out,
                        const std::vector<ReplaySendRecord>& sends,
                        const std::vector<ReplayKindTotal>& totals,
                        size_t limit);

/** @} */

} // namespace replayfmt
} // namespace ns3

#endif /* MLFABRIC_REPLAY_REPORT_FORMAT_H */
