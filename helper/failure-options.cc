/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "failure-options.h"

#include "ns3/example-cli.h"
#include "ns3/roce-network.h"

#include <sstream>

namespace ns3
{

void
AddFailureOptions(ExampleCli& cli)
{
    cli.AddRepeated("fail",
                    "packet level: a link (nodeA--nodeB) or switch fails at a time and maybe "
                    "comes back: --fail=leaf0--spine1@100us[,up@300us]; repeatable");
}

std::vector<FailureSpec>
ParseFailureOptions(const std::vector<std::string>& values, const Fabric& fabric)
{
    std::vector<FailureSpec> failures;
    for (const auto& v : values)
    {
        failures.push_back(ParseFailureSpec(v, fabric));
    }
    return failures;
}

Ptr<FailureSchedule>
InstallFailures(RoceNetwork& net, const std::vector<FailureSpec>& failures)
{
    if (failures.empty())
    {
        return nullptr;
    }
    auto schedule = CreateObject<FailureSchedule>();
    schedule->Install(net, failures);
    return schedule;
}

std::string
DescribeFailures(const RoceNetwork& net,
                 Ptr<const FailureSchedule> schedule,
                 const std::vector<FailureSpec>& failures)
{
    if (!schedule)
    {
        return "";
    }
    std::ostringstream text;
    text << "failures:";
    for (const auto& f : failures)
    {
        text << ' ' << (f.isSwitch ? "switch " : "link ") << f.target << " down at "
             << FormatTime(f.down);
        if (f.up != Time::Max())
        {
            text << ", up at " << FormatTime(f.up);
        }
        text << ';';
    }
    text << " routes move " << FormatTime(schedule->GetDetectionDelay())
         << " after a change (FailureSchedule::DetectionDelay)";
    if (net.GetRoutes().GetAlgorithm() != RoutingAlgorithm::ShortestPath)
    {
        text << "; warning: the fabric routes by "
             << GetRoutingAlgorithmName(net.GetRoutes().GetAlgorithm())
             << ", the routes after a failure are shortest paths";
    }
    return text.str();
}

void
PrintFailureReport(std::ostream& os, const std::vector<FailureSchedule::Outcome>& outcomes)
{
    for (const auto& o : outcomes)
    {
        os << "failure " << o.text << ": " << o.lostFrames << " frames lost (" << o.lostPayload
           << " B payload), " << o.reroutedQps << " queue pairs rerouted, " << o.damagedQps
           << " damaged, ";
        if (o.unrecoveredQps > 0)
        {
            os << o.unrecoveredQps << " not recovered";
        }
        else
        {
            os << "recovered in " << o.recoveryTime.As(Time::US);
        }
        os << std::endl;
    }
}

nlohmann::json
FailuresToJson(const std::vector<FailureSchedule::Outcome>& outcomes)
{
    if (outcomes.empty())
    {
        return nullptr;
    }
    nlohmann::json list = nlohmann::json::array();
    for (const auto& o : outcomes)
    {
        list.push_back({{"failure", o.text},
                        {"down_ns", o.down.GetNanoSeconds()},
                        {"up_ns",
                         o.up == Time::Max() ? nlohmann::json(nullptr)
                                             : nlohmann::json(o.up.GetNanoSeconds())},
                        {"links", o.links},
                        {"lost_frames", o.lostFrames},
                        {"lost_payload", o.lostPayload},
                        {"rerouted_qps", o.reroutedQps},
                        {"damaged_qps", o.damagedQps},
                        {"unrecovered_qps", o.unrecoveredQps},
                        {"recovery_time_ns",
                         o.unrecoveredQps > 0 ? nlohmann::json(nullptr)
                                              : nlohmann::json(o.recoveryTime.GetNanoSeconds())}});
    }
    return list;
}

} // namespace ns3
