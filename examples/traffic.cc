/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Synthetic traffic patterns on a fabric, for load balancing and transport studies.
//
//   ./mlfabric run traffic --fabric=fabrics/fat-tree-k4.yaml --pattern=permutation --size=1MiB
//   ./mlfabric run traffic --fabric=fabrics/fat-tree-k4.yaml --pattern=all-to-all \
//       --size=256KiB --lb=spray --transport=sr --cc=dcqcn
//
// Every flow is one message posted at time 0. Prints the last flow's completion against
// the busiest host link at line rate, the bytes delivered, drops and retransmissions,
// and the utilization of the busiest link; --summary=FILE writes the same as JSON.

#include "ns3/cc-options.h"
#include "ns3/core-module.h"
#include "ns3/example-cli.h"
#include "ns3/input-error.h"
#include "ns3/network-stats.h"
#include "ns3/path-settings.h"
#include "ns3/summary.h"
#include "ns3/traffic-scenario.h"

#include <cstdio>
#include <iostream>

using namespace ns3;

namespace
{

/** \return the figures of \p r as JSON */
nlohmann::json
ToJson(const TrafficConfig& config, const TrafficResult& r)
{
    return {{"fabric", config.fabricPath},
            {"pattern", TrafficPatternName(config.pattern)},
            {"message_bytes", config.messageBytes},
            {"seed", config.seed},
            {"flows", r.flows.size()},
            {"completed_flows", r.completedFlows},
            {"scheme", r.scheme},
            {"effective_settings", EffectiveSettingsToJson(r.effective)},
            {"completion_time_ns", r.completion.GetNanoSeconds()},
            {"ideal_completion_ns", r.idealCompletionPs / 1000},
            {"bytes_expected", r.bytesExpected},
            {"bytes_delivered", r.bytesDelivered},
            {"duplicate_bytes", r.duplicateBytes},
            {"out_of_order_bytes", r.outOfOrderBytes},
            {"retransmitted_bytes", r.retransmittedBytes},
            {"drops", r.drops},
            {"relay_credit_held_frames", r.relayHeldCredits},
            {"lost_frames", r.lostFrames},
            {"timeouts", r.timeouts},
            {"max_link_utilization", r.maxLinkUtilization},
            {"max_fabric_link_utilization", r.maxFabricUtilization},
            {"mean_fabric_link_utilization", r.meanFabricUtilization},
            {"events", r.events},
            {"wall_seconds", r.wallSeconds}};
}

/** Print the run's table. */
void
Print(const TrafficConfig& config, const TrafficResult& r)
{
    std::printf("traffic: %s of %zu flows x %llu B on %s (seed %llu)\n",
                TrafficPatternName(config.pattern).c_str(),
                r.flows.size(),
                static_cast<unsigned long long>(config.messageBytes),
                config.fabricPath.c_str(),
                static_cast<unsigned long long>(config.seed));
    std::printf("congestion control: %s\n%s\n\n",
                r.scheme.c_str(),
                FormatEffectiveSettings(r.effective).c_str());
    const double ideal = r.idealCompletionPs / 1e6;
    const double last = r.completion.GetSeconds() * 1e6;
    std::printf("flows completed        %u of %zu\n", r.completedFlows, r.flows.size());
    std::printf("last completion        %.3f us (busiest host link at line rate: %.3f us, "
                "%.1f %%)\n",
                last,
                ideal,
                last > 0 ? 100.0 * ideal / last : 0.0);
    std::printf("bytes delivered        %llu of %llu\n",
                static_cast<unsigned long long>(r.bytesDelivered),
                static_cast<unsigned long long>(r.bytesExpected));
    std::printf("retransmitted bytes    %llu (out of order dropped %llu, duplicates %llu)\n",
                static_cast<unsigned long long>(r.retransmittedBytes),
                static_cast<unsigned long long>(r.outOfOrderBytes),
                static_cast<unsigned long long>(r.duplicateBytes));
    std::printf("drops                  %llu buffer, %llu on the wire; %llu timeouts\n",
                static_cast<unsigned long long>(r.drops),
                static_cast<unsigned long long>(r.lostFrames),
                static_cast<unsigned long long>(r.timeouts));
    if (r.relayHeldCredits > 0)
    {
        std::cerr << "warning: " << RelayHeldCreditsWarning(r.relayHeldCredits) << std::endl;
    }
    std::printf("link utilization       max %.3f; switch-to-switch max %.3f, mean %.3f\n",
                r.maxLinkUtilization,
                r.maxFabricUtilization,
                r.meanFabricUtilization);
    std::printf("simulator              %llu events in %.2f s\n",
                static_cast<unsigned long long>(r.events),
                r.wallSeconds);
}

int
Main(int argc, char** argv)
{
    const std::vector<CcParameter> ccParameters = CcParametersFromArguments(argc, argv);
    ExampleCli cli("Synthetic traffic patterns on a fabric");
    cli.AddInput("fabric", "fabric file (YAML, ASTRA-sim YAML or HPCC topology); required");
    cli.Add("pattern", "permutation, all-to-all or incast (every rank to the last)", "permutation");
    cli.Add("size", "message size per flow (e.g. 1MiB)", "1MiB");
    cli.Add("seed", "draw of the permutation", "1");
    cli.Add("mtu", "data payload per packet (e.g. 4096B; range of ns3::RdmaNic::Mtu)", "4096B");
    cli.Add("priority", "traffic class of the data", "3");
    AddCcOptions(cli);
    AddPathOptions(cli);
    cli.Add("loss", "per-frame loss probability on every link (default: the fabric's)", "");
    cli.Add("stop", "simulated time limit", "10s");
    cli.Add("summary", "write the figures as JSON to this file", "");
    cli.Parse(argc, argv);

    TrafficConfig config;
    config.fabricPath = cli.Get("fabric");
    if (config.fabricPath.empty())
    {
        throw InputError("--fabric: required (a fabric file, e.g. fabrics/fat-tree-k4.yaml)");
    }
    try
    {
        config.pattern = ParseTrafficPattern(cli.Get("pattern"));
    }
    catch (const InputError& e)
    {
        throw InputError(std::string("--pattern: ") + e.what());
    }
    config.messageBytes = cli.GetBytes("size");
    if (config.messageBytes == 0)
    {
        throw InputError("--size: must be at least 1 byte (got '" + cli.Get("size") + "')");
    }
    config.seed = cli.GetUint("seed", 0, UINT64_MAX);
    config.mtu = cli.GetBytesFor("mtu", "ns3::RdmaNic", "Mtu");
    config.priority = static_cast<uint8_t>(cli.GetUint("priority", 0, 5));
    config.stopTime = cli.GetTime("stop");
    if (cli.IsSet("loss"))
    {
        config.loss = cli.GetDouble("loss", 0, 0.5);
    }
    const std::vector<CcSettings> runs = GetCcOptions(cli, ccParameters);
    if (runs.size() != 1)
    {
        throw InputError("--cc: traffic runs one scheme at a time (got 'all')");
    }
    config.cc = runs.front();
    ApplyPathOptions(cli);

    TrafficResult result;
    try
    {
        result = RunTraffic(config);
    }
    catch (const InputError& e)
    {
        throw InputError("--fabric: " + std::string(e.what()));
    }
    Print(config, result);
    WriteSummary(cli.Get("summary"), ToJson(config, result));
    if (result.bytesDelivered != result.bytesExpected)
    {
        std::cerr << "error: not every byte was delivered by " << config.stopTime.As(Time::S)
                  << std::endl;
        return 1;
    }
    return 0;
}

} // namespace

int
main(int argc, char** argv)
{
    return RunMain([&] { return Main(argc, argv); });
}
