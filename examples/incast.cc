/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// N senders each send one message to one receiver through one switch.
//
//   ./mlfabric run incast --senders=16 --size=4MiB --rate=100Gbps --delay=1us --pfc=1
//   ./mlfabric run incast --cc=hpcc --cc-preset=hpcc-ns3
//   ./mlfabric run incast --cc=all
//
// Prints per-sender completion and goodput, PFC activity per port, drops, the switch
// queues and the simulator's speed; --cc=all runs the incast under every congestion
// control and prints one row per scheme. --summary=FILE writes the same as JSON.

#include "ns3/cc-options.h"
#include "ns3/core-module.h"
#include "ns3/distributed-options.h"
#include "ns3/example-cli.h"
#include "ns3/failure-options.h"
#include "ns3/incast-scenario.h"
#include "ns3/input-error.h"
#include "ns3/path-settings.h"
#include "ns3/summary.h"

#ifdef MLFABRIC_MPI
#    include "ns3/mpi-process-group.h"
#endif

#include <cstdio>
#include <iostream>
#include <vector>

using namespace ns3;

namespace
{

/** Goodput in Gb/s of \p bytes over \p t. */
double
Gbps(uint64_t bytes, Time t)
{
    return t.IsStrictlyPositive() ? bytes * 8.0 / t.GetSeconds() / 1e9 : 0.0;
}

/** \return the priority RDMA NICs send CNPs on, as now configured */
uint64_t
GetCnpPriority()
{
    TypeId::AttributeInformation info;
    TypeId::LookupByName("ns3::RdmaNic").LookupAttributeByName("CnpPriority", &info);
    return DynamicCast<const UintegerValue>(info.initialValue)->Get();
}

/** \return events per second of a run, in millions */
double
MegaEventsPerSecond(const IncastResult& r)
{
    return r.wallSeconds > 0 ? r.events / r.wallSeconds / 1e6 : 0.0;
}

/** \return "100 Gb/s links", or the fabric file whose links are used instead */
std::string
DescribeLinks(const IncastConfig& config)
{
    if (!config.fabricPath.empty())
    {
        return "links of " + config.fabricPath;
    }
    return std::to_string(static_cast<uint64_t>(config.rateBps / 1e9)) + " Gb/s links";
}

/** Print what the incast is and how congestion is controlled. */
void
PrintHeading(const IncastConfig& config, const IncastResult& r)
{
    std::printf("incast: %u senders x %llu B -> 1 receiver, %s, PFC %s%s\n",
                config.senders,
                static_cast<unsigned long long>(config.messageBytes),
                DescribeLinks(config).c_str(),
                config.pfc ? "on" : "off",
                config.trim ? ", packet trimming on" : "");
    std::printf("congestion control: %s%s%s\nECN thresholds: %s\n%s\n\n",
                r.scheme.c_str(),
                config.cc.preset.empty() ? "" : ", preset ",
                config.cc.preset.c_str(),
                r.ecnMap.c_str(),
                FormatEffectiveSettings(r.effective).c_str());
    if (!r.failureHeader.empty())
    {
        std::printf("%s\n\n", r.failureHeader.c_str());
    }
    if (!r.partition.empty())
    {
        std::printf("%s\n\n", r.partition.c_str());
    }
}

/** Print one row per scheme. */
void
PrintComparison(const IncastConfig& config, const std::vector<IncastResult>& results)
{
    std::printf("incast: %u senders x %llu B -> 1 receiver, %s, PFC %s%s%s\n",
                config.senders,
                static_cast<unsigned long long>(config.messageBytes),
                DescribeLinks(config).c_str(),
                config.pfc ? "on" : "off",
                config.cc.preset.empty() ? "" : ", preset ",
                config.cc.preset.c_str());
    bool oneMap = true;
    for (const auto& r : results)
    {
        oneMap = oneMap && r.ecnMap == results.front().ecnMap;
    }
    std::printf("ECN thresholds: %s\n%s\n",
                oneMap ? results.front().ecnMap.c_str() : "per scheme (see --summary)",
                FormatEffectiveSettings(results.front().effective).c_str());
    std::printf("last: completion of the last message; peakQ, meanQ: the bottleneck egress "
                "queue, peak and\ntime-weighted mean until then; paused: PFC pause time summed "
                "over ports; cc-moves:\nrate and window changes of the congestion control\n\n");
    std::printf("%-14s %12s %9s %9s %7s %10s %7s %6s %6s %9s %7s\n",
                "scheme",
                "last(us)",
                "peakQ(KB)",
                "meanQ(KB)",
                "pauses",
                "paused(us)",
                "ecn",
                "cnps",
                "drops",
                "cc-moves",
                "Mev/s");
    for (const auto& r : results)
    {
        std::printf("%-14s %12.3f %9.1f %9.1f %7llu %10.3f %7llu %6llu %6llu %9llu %7.2f\n",
                    r.scheme.c_str(),
                    r.lastCompletion.GetSeconds() * 1e6,
                    r.peakQueueBytes / 1e3,
                    r.meanQueueBytes / 1e3,
                    static_cast<unsigned long long>(r.pfcPauseFrames),
                    r.pausedTime.GetSeconds() * 1e6,
                    static_cast<unsigned long long>(r.ecnMarks),
                    static_cast<unsigned long long>(r.cnps),
                    static_cast<unsigned long long>(r.drops),
                    static_cast<unsigned long long>(r.rateChanges + r.windowChanges),
                    MegaEventsPerSecond(r));
    }
}

/** Print the run as tables. */
void
PrintTables(const IncastConfig& config, const IncastResult& r)
{
    PrintHeading(config, r);
    std::printf("%8s %16s %14s %12s %14s\n",
                "sender",
                "completion(us)",
                "goodput(Gb/s)",
                "received",
                "retransmit(B)");
    for (const auto& f : r.flows)
    {
        std::printf("%8u %16.3f %14.2f %12u %14llu\n",
                    f.sender,
                    f.completion.GetSeconds() * 1e6,
                    Gbps(config.messageBytes, f.completion),
                    f.timesReceived,
                    static_cast<unsigned long long>(f.retransmittedBytes));
    }
    std::printf("\n%-16s %12s %12s %16s\n", "port", "pause tx", "resume tx", "paused(us)");
    for (const auto& p : r.ports)
    {
        std::printf("%-16s %12llu %12llu %16.3f\n",
                    p.name.c_str(),
                    static_cast<unsigned long long>(p.pauseFramesTx),
                    static_cast<unsigned long long>(p.resumeFramesTx),
                    p.pausedTime.GetSeconds() * 1e6);
    }
    if (r.ports.empty())
    {
        std::printf("(no PFC activity)\n");
    }
    std::printf("\n%-28s %llu / %llu\n",
                "bytes delivered / expected",
                static_cast<unsigned long long>(r.bytesDelivered),
                static_cast<unsigned long long>(r.bytesExpected));
    std::printf("%-28s %llu\n", "buffer drops", static_cast<unsigned long long>(r.drops));
    if (config.trim)
    {
        std::printf("%-28s %llu\n", "trimmed packets", static_cast<unsigned long long>(r.trims));
    }
    std::printf(
        "%-28s %llu\n", "frames lost on wire", static_cast<unsigned long long>(r.lostFrames));
    std::printf(
        "%-28s %llu\n", "timeouts / NACKs", static_cast<unsigned long long>(r.timeouts + r.nacks));
    std::printf(
        "%-28s %llu\n", "PFC pause frames", static_cast<unsigned long long>(r.pfcPauseFrames));
    std::printf("%-28s %.3f\n", "PFC paused time (us)", r.pausedTime.GetSeconds() * 1e6);
    std::printf("%-28s %llu\n", "ECN marks", static_cast<unsigned long long>(r.ecnMarks));
    std::printf("%-28s %llu\n", "CNPs", static_cast<unsigned long long>(r.cnps));
    std::printf("%-28s %llu / %llu\n",
                "cc rate / window changes",
                static_cast<unsigned long long>(r.rateChanges),
                static_cast<unsigned long long>(r.windowChanges));
    std::printf("%-28s %s\n", "bottleneck queue", r.bottleneck.c_str());
    std::printf("%-28s %llu\n", "  peak (B)", static_cast<unsigned long long>(r.peakQueueBytes));
    std::printf("%-28s %.0f\n", "  time-weighted mean (B)", r.meanQueueBytes);
    std::printf("%-28s %llu of %llu\n",
                "peak switch buffer (B)",
                static_cast<unsigned long long>(r.maxBufferBytes),
                static_cast<unsigned long long>(r.bufferBytes));
    if (r.effective.relays.npus > 0)
    {
        std::printf("%-28s %llu drops, %llu ECN marks, %llu holds\n",
                    "NPU relays",
                    static_cast<unsigned long long>(r.relayDrops),
                    static_cast<unsigned long long>(r.relayEcnMarks),
                    static_cast<unsigned long long>(r.relayHolds));
        std::printf("%-28s %llu\n",
                    "  peak relay queue (B)",
                    static_cast<unsigned long long>(r.relayPeakQueueBytes));
        std::printf("%-28s %llu of %llu\n",
                    "  peak relay buffer (B)",
                    static_cast<unsigned long long>(r.relayPeakUsedBytes),
                    static_cast<unsigned long long>(r.relayBufferBytes));
    }
    PrintFailureReport(std::cout, r.failures);
    std::printf("%-28s %.3f\n", "last completion (us)", r.lastCompletion.GetSeconds() * 1e6);
    std::printf("%-28s %llu\n", "events", static_cast<unsigned long long>(r.events));
    std::printf("%-28s %.3f\n", "wall time (s)", r.wallSeconds);
    std::printf("%-28s %.3f M/s\n", "events per second", MegaEventsPerSecond(r));
}

/** The run as JSON. */
nlohmann::json
ToJson(const IncastConfig& config, const IncastResult& r)
{
    nlohmann::json flows = nlohmann::json::array();
    for (const auto& f : r.flows)
    {
        flows.push_back({{"sender", f.sender},
                         {"completion_ns", f.completion.GetNanoSeconds()},
                         {"received_ns", f.received.GetNanoSeconds()},
                         {"goodput_gbps", Gbps(config.messageBytes, f.completion)},
                         {"times_received", f.timesReceived},
                         {"retransmitted_bytes", f.retransmittedBytes}});
    }
    nlohmann::json ports = nlohmann::json::array();
    for (const auto& p : r.ports)
    {
        ports.push_back({{"port", p.name},
                         {"pause_frames_tx", p.pauseFramesTx},
                         {"resume_frames_tx", p.resumeFramesTx},
                         {"paused_ns", p.pausedTime.GetNanoSeconds()}});
    }
    nlohmann::json summary = {{"senders", config.senders},
                              {"message_bytes", config.messageBytes},
                              {"bytes_expected", r.bytesExpected},
                              {"bytes_delivered", r.bytesDelivered},
                              {"drops", r.drops},
                              {"trims", r.trims},
                              {"lost_frames", r.lostFrames},
                              {"timeouts", r.timeouts},
                              {"nacks", r.nacks},
                              {"scheme", r.scheme},
                              {"ecn_map", r.ecnMap},
                              {"effective_settings", EffectiveSettingsToJson(r.effective)},
                              {"ecn_marks", r.ecnMarks},
                              {"cnps", r.cnps},
                              {"cc_rate_changes", r.rateChanges},
                              {"cc_window_changes", r.windowChanges},
                              {"pfc_pause_frames", r.pfcPauseFrames},
                              {"pfc_paused_ns", r.pausedTime.GetNanoSeconds()},
                              {"bottleneck", r.bottleneck},
                              {"peak_queue_bytes", r.peakQueueBytes},
                              {"mean_queue_bytes", r.meanQueueBytes},
                              {"buffer_bytes", r.bufferBytes},
                              {"max_buffer_bytes", r.maxBufferBytes},
                              {"relay_drops", r.relayDrops},
                              {"relay_ecn_marks", r.relayEcnMarks},
                              {"relay_holds", r.relayHolds},
                              {"relay_peak_queue_bytes", r.relayPeakQueueBytes},
                              {"relay_peak_buffer_bytes", r.relayPeakUsedBytes},
                              {"relay_buffer_bytes", r.relayBufferBytes},
                              {"completion_time_ns", r.lastCompletion.GetNanoSeconds()},
                              {"events", r.events},
                              {"wall_seconds", r.wallSeconds},
                              {"events_per_second", MegaEventsPerSecond(r) * 1e6},
                              {"flows", flows},
                              {"ports", ports}};
    if (r.invariants.checked)
    {
        summary["invariants"] = ToJson(r.invariants);
    }
    if (!r.failures.empty())
    {
        summary["failures"] = FailuresToJson(r.failures);
    }
    if (!r.partition.empty())
    {
        AddProcessesToSummary(summary, r.partition, r.processEvents, r.processSeconds);
        if (!r.queueCaveat.empty())
        {
            summary["queue_caveat"] = r.queueCaveat;
        }
    }
    return summary;
}

int
Main(int argc, char** argv)
{
    const std::vector<CcParameter> ccParameters = CcParametersFromArguments(argc, argv);
    ExampleCli cli("N-to-1 RoCEv2 incast through one switch");
    cli.Add("senders", "number of senders", "16");
    cli.Add("size", "message size per sender (e.g. 4MiB)", "4MiB");
    cli.Add("rate", "link rate (e.g. 100Gbps)", "100Gbps");
    cli.Add("delay", "link propagation delay (e.g. 1us)", "1us");
    cli.Add("mtu", "data payload per packet (e.g. 4096B; range of ns3::RdmaNic::Mtu)", "4096B");
    cli.Add("pfc", "PFC on the data priority (0 or 1)", "1");
    cli.Add("buffer", "switch buffer size (e.g. 32MiB)", "32MiB");
    cli.Add("loss", "per-frame loss probability on every link", "0");
    cli.Add("trim",
            "packet trimming: a switch cuts a data packet its buffer would drop to its header "
            "and forwards that at ns3::RoceSwitch::TrimPriority (0 or 1; for --pfc=0)",
            "0");
    cli.Add("priority",
            "traffic class of the data (its ACKs follow it): a priority other than "
            "ns3::RdmaNic::CnpPriority",
            "3");
    AddCcOptions(cli);
    AddPathOptions(cli);
    cli.Add("stop", "simulated time limit", "10s");
    cli.AddInput("fabric",
                 "fabric file (YAML, ASTRA-sim YAML or HPCC topology); default one switch");
    cli.Add("receiver", "with --fabric: the receiving rank (default the last)", "-1");
    cli.Add("summary", "write the figures as JSON to this file", "");
    AddInvariantOptions(cli);
    AddFailureOptions(cli);
    AddDistributedOptions(cli);
    cli.Parse(argc, argv);

    IncastConfig config;
    config.senders = cli.GetUint("senders", 1, 4096);
    config.messageBytes = cli.GetBytes("size");
    if (config.messageBytes == 0)
    {
        throw InputError("--size: must be at least 1 byte (got '" + cli.Get("size") + "')");
    }
    config.rateBps = cli.GetRateBps("rate");
    config.delay = cli.GetTime("delay");
    config.mtu = cli.GetBytesFor("mtu", "ns3::RdmaNic", "Mtu");
    config.pfc = cli.GetBool("pfc");
    config.trim = cli.GetBool("trim");
    config.bufferBytes = cli.GetBytesFor("buffer", "ns3::SharedBufferMmu", "BufferBytes");
    config.loss = cli.GetDouble("loss", 0, 0.5);
    config.stopTime = cli.GetTime("stop");
    config.fabricPath = cli.Get("fabric");
    config.invariantPeriod = GetInvariantPeriod(cli);
    config.failures = cli.GetAll("fail");
    if (cli.IsSet("receiver"))
    {
        config.receiverRank = static_cast<int64_t>(cli.GetUint("receiver", 0, 1u << 24));
    }
    const auto priority = cli.GetUintFor("priority", "ns3::RdmaNic", "CnpPriority");
    if (priority == GetCnpPriority())
    {
        throw InputError("--priority: " + std::to_string(priority) +
                         " is the priority of CNPs (ns3::RdmaNic::CnpPriority); data needs "
                         "another");
    }
    if (priority != 3)
    {
        Config::SetDefault("ns3::SharedBufferMmu::LosslessPriorities",
                           UintegerValue(1u << priority));
    }
    config.priority = static_cast<uint8_t>(priority);
    const std::vector<CcSettings> runs = GetCcOptions(cli, ccParameters);
    ApplyPathOptions(cli);
    config.partitionPath = cli.Get("partition");
    if (GetLaunchedProcessCount() > 1)
    {
        if (runs.size() > 1)
        {
            throw InputError("--cc: ns-3's distributed simulator runs one simulation a "
                             "process: give one scheme under mpirun");
        }
#ifdef MLFABRIC_MPI
        config.processes = std::make_shared<MpiProcessGroup>(cli.Get("mpi-engine"));
#endif
    }
    CheckDistributedOptions(cli);

    std::vector<IncastResult> results;
    for (const auto& cc : runs)
    {
        config.cc = cc;
        try
        {
            results.push_back(RunIncast(config));
        }
        catch (const InputError& e)
        {
            if (std::string(e.what()).rfind("--", 0) == 0)
            {
                throw;
            }
            // The options were checked; without a fabric only the buffer can be rejected.
            throw InputError((config.fabricPath.empty() ? "--buffer: " : "--fabric: ") +
                             std::string(e.what()));
        }
    }

    // Every process holds the whole run's figures; the first alone reports them.
    if (config.processes && config.processes->GetProcess() != 0)
    {
        return results[0].bytesDelivered == results[0].bytesExpected ? 0 : 1;
    }
    if (results.size() == 1)
    {
        PrintTables(config, results[0]);
        WriteSummary(cli.Get("summary"), ToJson(config, results[0]));
    }
    else
    {
        PrintComparison(config, results);
        nlohmann::json schemes = nlohmann::json::object();
        for (const auto& r : results)
        {
            schemes[r.scheme] = ToJson(config, r);
        }
        WriteSummary(cli.Get("summary"),
                     {{"senders", config.senders},
                      {"message_bytes", config.messageBytes},
                      {"preset", config.cc.preset},
                      {"schemes", schemes}});
    }
    int status = 0;
    for (const auto& r : results)
    {
        if (!r.queueCaveat.empty())
        {
            std::cerr << "warning: " << r.queueCaveat << std::endl;
        }
        if (r.invariants.checked)
        {
            std::cout << r.scheme << " ";
            PrintInvariantReport(std::cout, r.invariants);
        }
        if (r.bytesDelivered != r.bytesExpected)
        {
            std::cerr << "error: " << r.scheme << ": not every byte was delivered by "
                      << config.stopTime.As(Time::S) << std::endl;
            status = 1;
        }
        if (!r.invariants.violations.empty())
        {
            std::cerr << "error: " << r.scheme << ": the run broke invariants" << std::endl;
            status = 1;
        }
    }
    return status;
}

} // namespace

int
main(int argc, char** argv)
{
#ifdef MLFABRIC_MPI
    return RunMain([&] { return Main(argc, argv); }, true);
#else
    return RunMain([&] { return Main(argc, argv); });
#endif
}
