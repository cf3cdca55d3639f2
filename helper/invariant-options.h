/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_INVARIANT_OPTIONS_H
#define MLFABRIC_INVARIANT_OPTIONS_H

#include "ns3/example-cli.h"
#include "ns3/invariant-checker.h"
#include "ns3/nstime.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * What the invariant checks of one packet-level run found (--check-invariants).
 */
struct InvariantReport
{
    bool checked{false};                 //!< the checks were on
    uint64_t checks{0};                  //!< periodic checks made, plus the final one
    std::vector<std::string> violations; //!< one line each; empty when all held
};

/**
 * \ingroup mlfabric-helper
 * Add --check-invariants (0 or 1) and --invariant-period to an example's options.
 * \param cli the options
 */
void AddInvariantOptions(ExampleCli& cli);

/**
 * \ingroup mlfabric-helper
 * \param cli parsed options of AddInvariantOptions
 * \return the time between checks, or zero when the checks are off
 */
Time GetInvariantPeriod(const ExampleCli& cli);

/**
 * \ingroup mlfabric-helper
 * Make the last check of a run and gather what the checks found. The end-of-run rules
 * (every message received once and acknowledged, nothing paused) apply only to a run
 * whose workload finished; the periodic checks stop the run at their first violation,
 * whose lines come first.
 * \param checker the run's checker
 * \param finished the workload finished
 * \return the report
 */
InvariantReport FinishInvariantChecks(const InvariantChecker& checker, bool finished);

/**
 * \ingroup mlfabric-helper
 * Print "invariants: held in N checks" or the violations, one per line.
 * \param os where to print
 * \param report the report; nothing is printed when the checks were off
 */
void PrintInvariantReport(std::ostream& os, const InvariantReport& report);

/**
 * \ingroup mlfabric-helper
 * \param report the report
 * \return {"checks": N, "violations": [...]}, or null when the checks were off
 */
nlohmann::json ToJson(const InvariantReport& report);

} // namespace ns3

#endif /* MLFABRIC_INVARIANT_OPTIONS_H */
