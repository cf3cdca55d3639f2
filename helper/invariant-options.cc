/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "invariant-options.h"

#include "ns3/input-error.h"

namespace ns3
{

void
AddInvariantOptions(ExampleCli& cli)
{
    cli.Add("check-invariants",
            "packet level: check byte conservation, buffer accounting, PFC state and "
            "exactly-once delivery while running and at the end (0 or 1)",
            "0");
    cli.Add("invariant-period", "time between invariant checks", "10us");
}

Time
GetInvariantPeriod(const ExampleCli& cli)
{
    const Time period = cli.GetTime("invariant-period");
    if (!period.IsStrictlyPositive())
    {
        throw InputError("--invariant-period: must be positive (got '" +
                         cli.Get("invariant-period") + "')");
    }
    return cli.GetBool("check-invariants") ? period : Time(0);
}

InvariantReport
FinishInvariantChecks(const InvariantChecker& checker, bool finished)
{
    InvariantReport report;
    report.checked = true;
    report.checks = checker.GetPeriodicCheckCount() + 1;
    report.violations = checker.GetPeriodicViolations();
    for (auto& line : finished ? checker.CheckFinished() : checker.Check())
    {
        report.violations.push_back(std::move(line));
    }
    return report;
}

void
PrintInvariantReport(std::ostream& os, const InvariantReport& report)
{
    if (!report.checked)
    {
        return;
    }
    if (report.violations.empty())
    {
        os << "invariants: held in " << report.checks << " checks" << std::endl;
        return;
    }
    os << "invariants: " << report.violations.size() << " violated:" << std::endl;
    for (const auto& line : report.violations)
    {
        os << "  " << line << std::endl;
    }
}

nlohmann::json
ToJson(const InvariantReport& report)
{
    if (!report.checked)
    {
        return nullptr;
    }
    return {{"checks", report.checks}, {"violations", report.violations}};
}

} // namespace ns3
