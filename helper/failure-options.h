/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FAILURE_OPTIONS_H
#define MLFABRIC_FAILURE_OPTIONS_H

#include "ns3/failure-schedule.h"
#include "ns3/failure-spec.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class ExampleCli;
class RoceNetwork;

/**
 * \ingroup mlfabric-helper
 * Declare --fail (repeatable) on an example: "<link or switch>@<time>[,up@<time>]". The
 * detection delay is the attribute ns3::FailureSchedule::DetectionDelay.
 * \param cli the command line, before Parse
 */
void AddFailureOptions(ExampleCli& cli);

/**
 * \ingroup mlfabric-helper
 * \param values the --fail values, in command-line order
 * \param fabric the fabric they name links and switches of
 * \return the failures
 * \throws InputError naming the --fail value and the problem
 */
std::vector<FailureSpec> ParseFailureOptions(const std::vector<std::string>& values,
                                             const Fabric& fabric);

/**
 * \ingroup mlfabric-helper
 * Schedule \p failures on an installed network.
 * \param net the network
 * \param failures the failures; none gives a null schedule
 * \return the schedule, or null without failures
 */
Ptr<FailureSchedule> InstallFailures(RoceNetwork& net, const std::vector<FailureSpec>& failures);

/**
 * \ingroup mlfabric-helper
 * The run-header line of the failures: what fails when, the detection delay, and, on a
 * fabric routed by dimension order, that the routes after a failure are shortest paths.
 * \param net the network
 * \param schedule the schedule (null: nothing is printed)
 * \param failures the failures
 * \return the line, empty without failures
 */
std::string DescribeFailures(const RoceNetwork& net,
                             Ptr<const FailureSchedule> schedule,
                             const std::vector<FailureSpec>& failures);

/**
 * \ingroup mlfabric-helper
 * Print one line per failure: frames lost, queue pairs rerouted and damaged, recovery.
 * \param os where
 * \param outcomes FailureSchedule::GetOutcomes() (none: nothing is printed)
 */
void PrintFailureReport(std::ostream& os, const std::vector<FailureSchedule::Outcome>& outcomes);

/**
 * \ingroup mlfabric-helper
 * \param outcomes FailureSchedule::GetOutcomes()
 * \return one object per failure (failure, down_ns, up_ns, lost_frames, lost_payload,
 *         rerouted_qps, damaged_qps, unrecovered_qps, recovery_time_ns), or null without
 *         failures
 */
nlohmann::json FailuresToJson(const std::vector<FailureSchedule::Outcome>& outcomes);

} // namespace ns3

#endif /* MLFABRIC_FAILURE_OPTIONS_H */
