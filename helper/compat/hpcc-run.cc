/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-run.h"

#include "ns3/cc-registry.h"
#include "ns3/config.h"
#include "ns3/dcqcn-alpha-mapping.h"
#include "ns3/distributed-run.h"
#include "ns3/failure-options.h"
#include "ns3/hpcc-gather.h"
#include "ns3/hpcc-input-path.h"
#include "ns3/hpcc-network.h"
#include "ns3/hpcc-output-format.h"
#include "ns3/hpcc-output-path.h"
#include "ns3/hpcc-pfc-recorder.h"
#include "ns3/hpcc-qlen-monitor.h"
#include "ns3/hpcc-routes.h"
#include "ns3/hpcc-topology-reader.h"
#include "ns3/hpcc-unmodelled.h"
#include "ns3/input-error.h"
#include "ns3/invariant-checker.h"
#include "ns3/log.h"
#include "ns3/network-stats.h"
#include "ns3/replay-progress.h"
#include "ns3/roce-header.h"
#include "ns3/roce-wire.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccRun");

namespace
{

using Clock = std::chrono::steady_clock;

/** \return seconds since \p start */
double
SecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

/**
 * Per-pair figures under a fidelity: the base RTT, and the header bytes per packet in
 * the standalone FCT.
 */
struct PairModel
{
    uint32_t bytesPerLink{0}; //!< serialized per link in the base RTT
    uint32_t headerBytes{0};  //!< per packet in the standalone FCT
};

/** The simulator's formulas in peer fidelity, the model's in faithful fidelity. */
PairModel
PairModelOf(HpccFidelity fidelity, uint32_t mtu)
{
    if (fidelity == HpccFidelity::Peer)
    {
        // The simulator serializes the payload alone per hop and charges 48 header bytes.
        return PairModel{mtu, wire::peer::kDataHeader};
    }
    RoceHeader data;
    data.payload = mtu;
    RoceHeader ack;
    ack.type = RoceHeader::ACK;
    return PairModel{data.GetWireBytes() + ack.GetWireBytes(), data.GetWireBytes() - mtu};
}

/**
 * \return the base RTT of \p route from \p src to \p dst: the simulator's formula, or
 *         with \p net (faithful fidelity) the installed network's, its switch and NIC
 *         latencies included
 */
Time
RoundTripOf(const HpccRoute& route, const RoceNetwork* net, uint32_t src, uint32_t dst)
{
    return net ? net->GetBaseRtt(src, dst) : route.RoundTrip();
}

/** The largest base RTT and BDP over all host pairs. */
std::pair<Time, uint64_t>
Largest(const Fabric& fabric,
        const HpccRoutes& routes,
        uint32_t bytesPerLink,
        const RoceNetwork* net)
{
    Time maxRtt;
    uint64_t maxBdp = 0;
    for (uint32_t r = 0; r < fabric.GetNpuCount(); ++r)
    {
        const uint32_t src = fabric.GetNpuNode(r);
        const auto from = routes.From(src, bytesPerLink);
        for (uint32_t d = 0; d < fabric.GetNpuCount(); ++d)
        {
            const HpccRoute& route = from[fabric.GetNpuNode(d)];
            if (route.links == 0 || !route.reachable)
            {
                continue;
            }
            const Time rtt = RoundTripOf(route, net, src, fabric.GetNpuNode(d));
            maxRtt = std::max(maxRtt, rtt);
            maxBdp = std::max(maxBdp, HpccRoutes::Bdp(rtt, route.bottleneckBps));
        }
    }
    return {maxRtt, maxBdp};
}

/** Fill each flow's setup; flows are grouped by source so each source is searched once. */
std::vector<HpccFlowDriver::Setup>
SetupFlows(const std::vector<HpccFlow>& flows,
           const std::string& flowPath,
           const HpccRoutes& routes,
           const HpccConfig& config,
           const PairModel& model,
           Time maxRtt,
           uint64_t maxBdp,
           bool peerWindow,
           const RoceNetwork* net)
{
    std::vector<uint32_t> order(flows.size());
    for (uint32_t i = 0; i < order.size(); ++i)
    {
        order[i] = i;
    }
    std::stable_sort(order.begin(),
                     order.end(),
                     [&flows](uint32_t a, uint32_t b) { return flows[a].src < flows[b].src; });
    std::vector<HpccFlowDriver::Setup> setups(flows.size());
    std::vector<HpccRoute> from;
    uint32_t searched = UINT32_MAX;
    for (uint32_t i : order)
    {
        const HpccFlow& f = flows[i];
        if (f.src != searched)
        {
            from = routes.From(f.src, model.bytesPerLink);
            searched = f.src;
        }
        const HpccRoute& route = from[f.dst];
        if (!route.reachable)
        {
            throw InputError(flowPath + ":" + std::to_string(f.line) + ": no route from node " +
                             std::to_string(f.src) + " to node " + std::to_string(f.dst) +
                             " through switches");
        }
        const Time rtt = RoundTripOf(route, net, f.src, f.dst);
        HpccFlowDriver::Setup& s = setups[i];
        s.baseRtt = config.globalT ? maxRtt : rtt;
        s.switchHops = route.links - 1;
        if (peerWindow)
        {
            s.windowBytes = config.globalT ? maxBdp : HpccRoutes::Bdp(rtt, route.bottleneckBps);
        }
        s.standaloneNs = HpccStandaloneFctNs(static_cast<uint64_t>(rtt.GetNanoSeconds()),
                                             f.bytes,
                                             config.packetPayloadSize,
                                             model.headerBytes,
                                             route.bottleneckBps);
    }
    return setups;
}

/** Collect the slowdown figures of the completed flows. */
void
Summarize(HpccRunResult& r, uint32_t bucketPercent)
{
    std::vector<double> all;
    std::vector<HpccFlowSlowdown> sized;
    for (size_t i = 0; i < r.flows.size(); ++i)
    {
        const auto& o = r.outcomes[i];
        r.bytes += r.flows[i].bytes;
        if (!o.completed)
        {
            continue;
        }
        ++r.completed;
        r.lastCompletion = std::max(r.lastCompletion, r.flows[i].start + o.fct);
        const double s =
            HpccSlowdown(static_cast<uint64_t>(o.fct.GetNanoSeconds()), r.setups[i].standaloneNs);
        all.push_back(s);
        sized.push_back(HpccFlowSlowdown{r.flows[i].bytes, s});
    }
    r.slowdown = SummarizeSlowdown(std::move(all));
    r.buckets = SlowdownBySize(std::move(sized), bucketPercent);
}

} // namespace

HpccRunResult
RunHpcc(const HpccRunOptions& o)
{
    const auto setupStart = Clock::now();
    HpccRunResult r;
    r.fidelity = o.fidelity;
    auto warn = [&r, &o](const std::string& text)
    {
        r.warnings.push_back(text);
        if (o.log != nullptr)
        {
            *o.log << "warning: " << text << std::endl;
        }
    };

    // Inputs
    const HpccConfig config = ReadHpccConfig(o.configPath);
    for (const auto& w : config.warnings)
    {
        warn(w);
    }
    // Outputs go where the configuration says; their folders are checked before any work.
    r.fctPath = HpccOutputPath(config, "FCT_OUTPUT_FILE", config.fctOutputFile, o.outDir);
    r.pfcPath = HpccOutputPath(config, "PFC_OUTPUT_FILE", config.pfcOutputFile, o.outDir);
    r.qlenPath = HpccOutputPath(config, "QLEN_MON_FILE", config.qlenMonFile, o.outDir);
    const HpccInputPath topology =
        ResolveHpccInput(config, "TOPOLOGY_FILE", o.topologyPath, "--topology");
    const HpccInputPath flowFile = ResolveHpccInput(config, "FLOW_FILE", o.flowPath, "--flows");
    for (const auto* in : {&topology, &flowFile})
    {
        if (!in->note.empty())
        {
            warn(config.Where(in == &topology ? "TOPOLOGY_FILE" : "FLOW_FILE") + ": " + in->note);
        }
    }
    r.topologyPath = topology.path;
    r.flowPath = flowFile.path;
    const Fabric fabric = ReadHpccTopology(topology.path);
    r.flows = ReadHpccFlows(flowFile.path);
    CheckHpccFlows(r.flows, flowFile.path, fabric);
    if (const uint32_t line = FirstUnsortedFlowLine(r.flows); line != 0)
    {
        warn(flowFile.path + ":" + std::to_string(line) +
             ": starts before the flow above it; the HPCC simulator needs ascending start "
             "times, here every flow starts at its own time");
    }
    r.hosts = fabric.GetNpuCount();
    r.switches = fabric.GetSwitchCount();
    r.links = fabric.GetLinkCount();

    // Congestion control and what the model leaves out
    r.cc = MapHpccCcMode(config.ccMode, o.fidelity);
    if (!r.cc.exact)
    {
        warn(config.Where("CC_MODE") + ": " + r.cc.warning);
    }
    for (const auto& w : HpccUnmodelledSettings(config, r.cc.scheme))
    {
        warn(w);
    }

    // Data plane
    const Time stop = PicoSeconds(std::llround(config.simulatorStopTime * 1e12));
    uint8_t lossless = 0;
    for (const HpccFlow& f : r.flows)
    {
        lossless |= static_cast<uint8_t>(1u << f.pg);
    }
    const uint8_t dataPriority = r.flows.empty() ? 3 : r.flows.front().pg;
    ApplyHpccFidelity(o.fidelity, dataPriority, stop);
    ApplyHpccCcParameters(config, r.cc);
    SetHpccNetworkDefaults(config, lossless == 0 ? 0x08 : lossless);
    for (const auto& [name, value] : o.attributes)
    {
        if (!Config::SetDefaultFailSafe(name, StringValue(value)))
        {
            throw InputError("--" + name + ": not a settable ns-3 attribute or bad value");
        }
    }
    if (r.cc.scheme == "dcqcn")
    {
        if (const std::string w = DcqcnAlphaIntervalWarningForDefaults(); !w.empty())
        {
            warn(w);
        }
    }
    ProcessGroup* processes = o.processes.get();
    const bool distributed = processes != nullptr && processes->GetSize() > 1;
    const bool writer = !distributed || processes->GetProcess() == 0;
    RoceNetwork net;
    if (distributed)
    {
        RefuseWholeNetworkOptions(o.failures, o.invariantPeriod, *processes);
        r.partition = SplitAcrossProcesses(fabric, o.partitionPath, *processes, net);
    }
    BuildHpccNetwork(fabric, config, net);
    r.paths = CollectPathSettings(net);
    const std::vector<FailureSpec> failures = ParseFailureOptions(o.failures, net.GetFabric());
    const Ptr<FailureSchedule> failureSchedule = InstallFailures(net, failures);
    r.failureHeader = DescribeFailures(net, failureSchedule, failures);

    // Per-pair timing
    const HpccRoutes routes(fabric);
    const PairModel model = PairModelOf(o.fidelity, config.packetPayloadSize);
    const RoceNetwork* installed = o.fidelity == HpccFidelity::Peer ? nullptr : &net;
    std::tie(r.maxRtt, r.maxBdp) = Largest(fabric, routes, model.bytesPerLink, installed);
    if (r.cc.scheme == "hpcc-pint")
    {
        // The simulator's switches average utilisation over the largest base RTT.
        SetCcParameter(
            "hpcc-pint", "UtilizationPeriod", std::to_string(r.maxRtt.GetPicoSeconds()) + "ps");
    }
    r.setups = SetupFlows(r.flows,
                          flowFile.path,
                          routes,
                          config,
                          model,
                          r.maxRtt,
                          r.maxBdp,
                          HpccUsesPeerWindow(config, r.cc.scheme),
                          installed);

    // The run
    std::unique_ptr<HpccQlenMonitor> qlen;
    std::unique_ptr<HpccFlowDriver> driver;
    auto flowsDone = [&driver]()
    {
        return driver->GetCompleted() == driver->GetLocalFlows();
    };
    // One process stops when it is done. Processes cannot stop one by one (a stopped
    // process no longer forwards the others' frames): each notes when it was done and
    // the run goes on until none has events left.
    std::optional<Time> doneAt;
    auto finishIfDone = [&qlen, &flowsDone, &doneAt, distributed]()
    {
        if (flowsDone() && (!qlen || qlen->IsDone()) && !doneAt)
        {
            doneAt = Simulator::Now();
            if (!distributed)
            {
                Simulator::Stop();
            }
        }
    };
    driver = std::make_unique<HpccFlowDriver>(
        net, r.flows, r.setups, writer ? r.fctPath : "", finishIfDone);
    qlen = std::make_unique<HpccQlenMonitor>(net,
                                             config.qlenMonStartNs,
                                             config.qlenMonEndNs,
                                             distributed ? "" : r.qlenPath,
                                             finishIfDone);
    HpccPfcRecorder pfc(net);
    // Without lines the checks still watch the stop flag, about ten times a second.
    ReplayProgress progress(
        o.progressSeconds > 0 && !distributed ? o.log : nullptr,
        o.progressSeconds > 0 ? o.progressSeconds : 1.0,
        [&driver]()
        {
            return std::to_string(driver->GetCompleted()) + "/" +
                   std::to_string(driver->GetFlows().size()) + " flows done, " +
                   std::to_string(driver->GetStarted() - driver->GetCompleted()) + " running";
        });
    driver->Start();
    if (distributed)
    {
        // A process sees its own flows only, and may neither stop alone nor keep its
        // events going once its flows are done: no lines, no stop flag.
        progress.SetDoneWhen(flowsDone);
    }
    else
    {
        progress.SetStopFlag(o.stopFlag);
    }
    // Checks adapt their period to the traffic: begin them when the traffic does.
    const Time firstStart = r.flows.empty()
                                ? Time(0)
                                : std::min_element(r.flows.begin(),
                                                   r.flows.end(),
                                                   [](const HpccFlow& a, const HpccFlow& b)
                                                   { return a.start < b.start; })
                                      ->start;
    Simulator::Schedule(firstStart, &ReplayProgress::Start, &progress);
    // The checks, too, begin with the traffic.
    std::unique_ptr<InvariantChecker> checker;
    if (o.invariantPeriod.IsStrictlyPositive())
    {
        checker = std::make_unique<InvariantChecker>(net);
        Simulator::Schedule(firstStart,
                            [&checker, &flowsDone, period = o.invariantPeriod]()
                            { checker->StartPeriodic(period, flowsDone); });
    }
    Simulator::Stop(stop);
    r.setupSeconds = SecondsSince(setupStart);
    NS_LOG_INFO("maxRtt " << r.maxRtt.As(Time::NS) << " maxBdp " << r.maxBdp);

    const auto runStart = Clock::now();
    Simulator::Run();
    r.wallSeconds = SecondsSince(runStart);
    r.events = Simulator::GetEventCount();
    r.simulatedTime = Simulator::Now();
    r.interrupted = progress.WasInterrupted();

    if (checker)
    {
        r.invariants = FinishInvariantChecks(*checker, flowsDone() && !r.interrupted);
    }
    r.outcomes = driver->GetOutcomes();
    std::vector<HpccQlenMonitor::Dump> dumps = qlen->GetDumps();
    const NetworkStats stats = CollectNetworkStats(net, nullptr);
    std::vector<uint64_t> counters = {
        stats.drops, stats.ecnMarks, stats.timeouts, stats.retransmittedBytes, r.events};
    if (distributed)
    {
        // The run ends where the last process was done, or where all stopped.
        std::vector<int64_t> end = {doneAt.value_or(r.simulatedTime).GetTimeStep()};
        processes->MaxOver(end);
        r.simulatedTime = TimeStep(end[0]);
        r.outcomes = GatherHpccOutcomes(r.outcomes, *processes);
        dumps = GatherHpccQlen(dumps, *processes);
        processes->SumOver(counters);
        const ProcessFigures each = GatherProcessFigures(*processes, r.events, r.wallSeconds);
        r.processEvents = each.events;
        r.processSeconds = each.seconds;
        r.wallSeconds = *std::max_element(r.processSeconds.begin(), r.processSeconds.end());
    }
    std::vector<HpccPfcRecorder::Event> pauses = pfc.GetEvents(r.simulatedTime);
    if (distributed)
    {
        pauses = GatherHpccPfc(pauses, *processes);
    }
    if (writer)
    {
        driver->Finish(r.outcomes);
        HpccPfcRecorder::Write(r.pfcPath, pauses);
        if (distributed)
        {
            HpccQlenMonitor::Write(r.qlenPath, dumps);
        }
    }
    r.pfcPauses = HpccPfcRecorder::CountPauses(pauses);
    r.qlenSamples = qlen->GetSamples();
    if (failureSchedule)
    {
        r.failures = failureSchedule->GetOutcomes();
    }
    r.drops = counters[0];
    r.ecnMarks = counters[1];
    r.timeouts = counters[2];
    r.retransmittedBytes = counters[3];
    r.events = counters[4];
    Summarize(r, o.bucketPercent);
    qlen.reset();
    driver.reset();
    Simulator::Destroy();
    return r;
}

} // namespace ns3
