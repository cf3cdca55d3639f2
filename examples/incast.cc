/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// N senders each send one message to one receiver through one switch.
//
//   ./mlfabric run incast --senders=16 --size=4MiB --rate=100Gbps --delay=1us --pfc=1
//
// Prints per-sender completion and goodput, PFC activity per port, drops, the switch
// buffer peak and the simulator's speed; --summary=FILE writes the same as JSON.

#include "helper/example-cli.h"
#include "helper/incast-scenario.h"
#include "helper/summary.h"
#include "model/util/input-error.h"

#include "ns3/core-module.h"

#include <cstdio>
#include <iostream>

using namespace ns3;

namespace
{

/** Goodput in Gb/s of \p bytes over \p t. */
double
Gbps(uint64_t bytes, Time t)
{
    return t.IsStrictlyPositive() ? bytes * 8.0 / t.GetSeconds() / 1e9 : 0.0;
}

/** Print the run as tables. */
void
PrintTables(const IncastConfig& config, const IncastResult& r)
{
    std::printf("incast: %u senders x %llu B -> 1 receiver, %.0f Gb/s links, PFC %s\n\n",
                config.senders,
                static_cast<unsigned long long>(config.messageBytes),
                config.rateBps / 1e9,
                config.pfc ? "on" : "off");
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
    std::printf("%-28s %llu\n", "switch drops", static_cast<unsigned long long>(r.drops));
    std::printf("%-28s %llu\n", "frames lost on wire", static_cast<unsigned long long>(r.lostFrames));
    std::printf("%-28s %llu\n", "timeouts / NACKs",
                static_cast<unsigned long long>(r.timeouts + r.nacks));
    std::printf("%-28s %llu\n", "PFC pause frames", static_cast<unsigned long long>(r.pfcPauseFrames));
    std::printf("%-28s %llu of %llu\n",
                "peak switch buffer (B)",
                static_cast<unsigned long long>(r.maxBufferBytes),
                static_cast<unsigned long long>(r.bufferBytes));
    std::printf("%-28s %.3f\n", "last completion (us)", r.lastCompletion.GetSeconds() * 1e6);
    std::printf("%-28s %llu\n", "events", static_cast<unsigned long long>(r.events));
    std::printf("%-28s %.3f\n", "wall time (s)", r.wallSeconds);
    std::printf("%-28s %.3f M/s\n",
                "events per second",
                r.wallSeconds > 0 ? r.events / r.wallSeconds / 1e6 : 0.0);
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
    return {{"senders", config.senders},
            {"message_bytes", config.messageBytes},
            {"bytes_expected", r.bytesExpected},
            {"bytes_delivered", r.bytesDelivered},
            {"drops", r.drops},
            {"lost_frames", r.lostFrames},
            {"timeouts", r.timeouts},
            {"nacks", r.nacks},
            {"ecn_marks", r.ecnMarks},
            {"pfc_pause_frames", r.pfcPauseFrames},
            {"buffer_bytes", r.bufferBytes},
            {"max_buffer_bytes", r.maxBufferBytes},
            {"completion_time_ns", r.lastCompletion.GetNanoSeconds()},
            {"events", r.events},
            {"wall_seconds", r.wallSeconds},
            {"flows", flows},
            {"ports", ports}};
}

int
Main(int argc, char** argv)
{
    ExampleCli cli("N-to-1 RoCEv2 incast through one switch");
    cli.Add("senders", "number of senders", "16");
    cli.Add("size", "message size per sender (e.g. 4MiB)", "4MiB");
    cli.Add("rate", "link rate (e.g. 100Gbps)", "100Gbps");
    cli.Add("delay", "link propagation delay (e.g. 1us)", "1us");
    cli.Add("mtu", "data payload per packet, bytes (64..9000)", "4096");
    cli.Add("pfc", "PFC on the data priority (0 or 1)", "1");
    cli.Add("buffer", "switch buffer size (e.g. 32MiB)", "32MiB");
    cli.Add("loss", "per-frame loss probability on every link", "0");
    cli.Add("priority", "traffic class of the data (0..6)", "3");
    cli.Add("cc", "congestion control: none or an ns-3 TypeId name", "none");
    cli.Add("stop", "simulated time limit", "10s");
    cli.Add("fabric", "fabric file (YAML, ASTRA-sim YAML or HPCC topology); default one switch", "");
    cli.Add("receiver", "with --fabric: the receiving rank (default the last)", "-1");
    cli.Add("summary", "write the figures as JSON to this file", "");
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
    config.mtu = cli.GetUint("mtu", 64, 9000);
    config.pfc = cli.GetBool("pfc");
    config.bufferBytes = cli.GetBytes("buffer");
    config.loss = cli.GetDouble("loss", 0, 0.5);
    config.stopTime = cli.GetTime("stop");
    config.fabricPath = cli.Get("fabric");
    if (cli.IsSet("receiver"))
    {
        config.receiverRank = static_cast<int64_t>(cli.GetUint("receiver", 0, 1u << 24));
    }
    const auto priority = cli.GetUint("priority", 0, 6);
    if (priority != 3)
    {
        Config::SetDefault("ns3::SharedBufferMmu::LosslessPriorities",
                           UintegerValue(1u << priority));
    }
    config.priority = static_cast<uint8_t>(priority);
    const std::string cc = cli.Get("cc");
    config.cc = cc == "none" ? "ns3::CcNone" : cc;
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(config.cc, &tid))
    {
        throw InputError("--cc: unknown congestion control '" + cc + "'");
    }

    IncastResult result;
    try
    {
        result = RunIncast(config);
    }
    catch (const InputError& e)
    {
        // Without a fabric, the only configuration the models can reject is the buffer.
        throw InputError((config.fabricPath.empty() ? "--buffer: " : "--fabric: ") +
                         std::string(e.what()));
    }
    PrintTables(config, result);
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
