/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "incast-scenario.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/distributed-run.h"
#include "ns3/fabric-installer.h"
#include "ns3/fabric-loader.h"
#include "ns3/fabric-routing.h"
#include "ns3/failure-options.h"
#include "ns3/incast-gather.h"
#include "ns3/input-error.h"
#include "ns3/invariant-checker.h"
#include "ns3/log.h"
#include "ns3/queue-monitor.h"
#include "ns3/roce-network.h"
#include "ns3/shortest-path-routing.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <chrono>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IncastScenario");

Fabric
BuildIncastStar(const IncastConfig& config)
{
    Fabric star("incast-star");
    star.SetDefaultSwitchBuffer(config.bufferBytes);
    const uint32_t sw = star.AddSwitch("switch", "leaf", 1);
    LinkSettings link;
    link.rateBps = config.rateBps;
    link.delayPs = config.delay.GetPicoSeconds();
    link.lossProbability = config.loss;
    for (uint32_t i = 0; i <= config.senders; ++i)
    {
        star.AddLink(star.AddNpu(i == 0 ? "receiver" : "sender" + std::to_string(i)), sw, link);
    }
    star.SetNpuForwarding(false);
    return star;
}

IncastResult
RunIncast(const IncastConfig& config)
{
    Config::SetDefault("ns3::RdmaNic::Mtu", UintegerValue(config.mtu));
    Config::SetDefault("ns3::SharedBufferMmu::BufferBytes", UintegerValue(config.bufferBytes));
    Config::SetDefault("ns3::SharedBufferMmu::PfcEnabled", BooleanValue(config.pfc));
    Config::SetDefault("ns3::RoceSwitch::TrimEnabled", BooleanValue(config.trim));

    ProcessGroup* processes = config.processes.get();
    const bool distributed = processes != nullptr && processes->GetSize() > 1;
    if (distributed)
    {
        RefuseWholeNetworkOptions(config.failures, config.invariantPeriod, *processes);
    }
    IncastResult result;
    RoceNetwork net;
    // Across processes each one builds every node and runs its part of the partition.
    auto partition = [&](const Fabric& fabric)
    {
        if (distributed)
        {
            result.partition = SplitAcrossProcesses(fabric, config.partitionPath, *processes, net);
        }
    };
    std::vector<FailureSpec> failures;
    uint32_t receiver = 0;
    std::vector<uint32_t> senders;
    if (config.fabricPath.empty())
    {
        const Fabric star = BuildIncastStar(config);
        failures = ParseFailureOptions(config.failures, star);
        partition(star);
        const auto rankNode = net.Install(star, ComputeShortestPathRouting(star), config.mtu);
        receiver = rankNode[0];
        senders.assign(rankNode.begin() + 1, rankNode.end());
    }
    else
    {
        const LoadedFabric loaded = LoadFabric(config.fabricPath);
        const uint32_t ranks = loaded.fabric.GetNpuCount();
        const int64_t receiverRank = config.receiverRank < 0 ? ranks - 1 : config.receiverRank;
        if (receiverRank >= ranks)
        {
            throw InputError(config.fabricPath + ": receiver rank " + std::to_string(receiverRank) +
                             " but the fabric has " + std::to_string(ranks) + " NPUs");
        }
        if (config.senders >= ranks)
        {
            throw InputError(config.fabricPath + ": " + std::to_string(config.senders) +
                             " senders need " + std::to_string(config.senders + 1) +
                             " NPUs, the fabric has " + std::to_string(ranks));
        }
        failures = ParseFailureOptions(config.failures, loaded.fabric);
        const RoutingTable routes = ComputeRouting(loaded.fabric, loaded.routing);
        partition(loaded.fabric);
        const auto rankNode = InstallFabric(loaded.fabric, routes, net, config.mtu);
        receiver = rankNode[receiverRank];
        for (uint32_t i = 1; i <= config.senders; ++i)
        {
            senders.push_back(rankNode[(receiverRank + i) % ranks]);
        }
    }

    const CcInstallation cc = InstallCongestionControl(net, config.cc);
    QueueMonitor queues(net);
    const Ptr<FailureSchedule> failureSchedule = InstallFailures(net, failures);

    result.failureHeader = DescribeFailures(net, failureSchedule, failures);
    NS_LOG_INFO("congestion control " << cc.scheme << ", ECN " << cc.ecnMap);
    result.ecnMap = cc.ecnMap.ToString();
    result.effective = CollectEffectiveSettings(net);
    result.bytesExpected = config.messageBytes * config.senders;
    std::map<uint32_t, size_t> flowOf; // sender node -> index in result.flows
    for (uint32_t s : senders)
    {
        flowOf[s] = result.flows.size();
        IncastFlow flow;
        flow.sender = s;
        result.flows.push_back(flow);
    }

    size_t completed = 0;
    bool queuesRead = false;
    auto readQueues = [&]()
    {
        const QueueMonitor::PortQueue q = queues.GetBottleneck();
        result.bottleneck = "switch " + std::to_string(q.node) + " port " + std::to_string(q.port);
        result.peakQueueBytes = q.peakBytes;
        result.meanQueueBytes = q.meanBytes;
        queuesRead = true;
    };
    auto onSent = [&](Ptr<RdmaQueuePair> qp, uint64_t, uint64_t tag, uint64_t, Time)
    {
        result.flows[flowOf.at(static_cast<uint32_t>(tag))].completion = Simulator::Now();
        if (++completed == result.flows.size() && !distributed)
        {
            readQueues();
        }
    };
    auto onRate = [&](uint64_t, uint64_t)
    {
        ++result.rateChanges;
    };
    auto onWindow = [&](uint64_t, uint64_t)
    {
        ++result.windowChanges;
    };
    auto onReceived = [&](uint32_t src, uint32_t, uint64_t tag, uint64_t bytes)
    {
        IncastFlow& flow = result.flows[flowOf.at(src)];
        ++flow.timesReceived;
        flow.received = Simulator::Now();
    };
    net.GetNic(receiver)->TraceConnectWithoutContext(
        "MessageReceived", Callback<void, uint32_t, uint32_t, uint64_t, uint64_t>(onReceived));
    for (uint32_t s : senders)
    {
        Ptr<RdmaNic> nic = net.GetNic(s);
        nic->TraceConnectWithoutContext(
            "MessageSent",
            Callback<void, Ptr<RdmaQueuePair>, uint64_t, uint64_t, uint64_t, Time>(onSent));
        Ptr<RdmaQueuePair> qp = net.Connect(s, receiver, config.priority);
        Ptr<RdmaCongestionOps> ops = qp->GetCongestionOps();
        result.scheme = ops->GetName();
        ops->TraceConnectWithoutContext("Rate", Callback<void, uint64_t, uint64_t>(onRate));
        ops->TraceConnectWithoutContext("Window", Callback<void, uint64_t, uint64_t>(onWindow));
        if (net.IsLocal(s))
        {
            nic->PostSend(qp, config.messageBytes, s);
        }
    }

    std::unique_ptr<InvariantChecker> checker;
    if (config.invariantPeriod.IsStrictlyPositive())
    {
        checker = std::make_unique<InvariantChecker>(net);
        checker->StartPeriodic(config.invariantPeriod,
                               [&]() { return completed == result.flows.size(); });
    }

    const auto wallStart = std::chrono::steady_clock::now();
    Simulator::Stop(config.stopTime);
    Simulator::Run();
    result.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    result.events = Simulator::GetEventCount();
    if (!queuesRead && !distributed)
    {
        readQueues();
    }
    if (failureSchedule)
    {
        result.failures = failureSchedule->GetOutcomes();
    }
    if (checker)
    {
        result.invariants = FinishInvariantChecks(*checker, completed == result.flows.size());
    }

    for (auto& flow : result.flows)
    {
        if (!net.IsLocal(flow.sender))
        {
            continue;
        }
        flow.retransmittedBytes = net.GetNic(flow.sender)->GetCounters().retransmittedBytes;
        result.timeouts += net.GetNic(flow.sender)->GetCounters().timeouts;
        result.lastCompletion = std::max(result.lastCompletion, flow.completion);
    }
    if (net.IsLocal(receiver))
    {
        result.bytesDelivered = net.GetNic(receiver)->GetCounters().deliveredBytes;
        result.nacks = net.GetNic(receiver)->GetCounters().nacksTx;
    }
    for (uint32_t host : net.GetHosts())
    {
        if (!net.IsLocal(host))
        {
            continue;
        }
        result.cnps += net.GetNic(host)->GetCounters().cnpsTx;
        Ptr<NpuRelay> relay = net.GetNic(host)->GetRelay();
        if (!relay->IsConfigured())
        {
            continue;
        }
        const NpuRelay::Counters& c = relay->GetCounters();
        result.relayDrops += c.drops;
        result.relayEcnMarks += c.ecnMarks;
        result.relayHolds += c.holds;
        result.relayPeakQueueBytes = std::max(result.relayPeakQueueBytes, c.peakQueueBytes);
        if (relay->GetMmu()->GetPeakUsedBytes() >= result.relayPeakUsedBytes)
        {
            result.relayBufferBytes = relay->GetMmu()->GetBufferBytes();
            result.relayPeakUsedBytes = relay->GetMmu()->GetPeakUsedBytes();
            result.relayNode = host;
        }
    }
    result.drops += result.relayDrops;
    result.ecnMarks += result.relayEcnMarks;
    for (uint32_t sw : net.GetSwitches())
    {
        if (!net.IsLocal(sw))
        {
            continue;
        }
        Ptr<RoceSwitch> theSwitch = net.GetSwitch(sw);
        result.drops += theSwitch->GetCounters().drops;
        result.trims += theSwitch->GetCounters().trims;
        result.ecnMarks += theSwitch->GetCounters().ecnMarks;
        if (theSwitch->GetMmu()->GetPeakUsedBytes() >= result.maxBufferBytes)
        {
            result.bufferBytes = theSwitch->GetMmu()->GetBufferBytes();
            result.maxBufferBytes = theSwitch->GetMmu()->GetPeakUsedBytes();
            result.bufferNode = sw;
        }
        const Ptr<SharedBufferMmu> mmu = theSwitch->GetMmu();
        result.egressDrops += mmu->GetEgressDrops();
        if (mmu->GetPeakHeadroomUsedBytes() >= result.peakHeadroomBytes)
        {
            result.peakHeadroomBytes = mmu->GetPeakHeadroomUsedBytes();
            result.headroomPoolBytes = mmu->GetHeadroomPoolBytes();
            result.queueHeadroomBytes = mmu->GetQueueHeadroomSumBytes();
            result.headroomNode = sw;
        }
    }

    std::vector<uint32_t> nodes = net.GetHosts();
    nodes.insert(nodes.end(), net.GetSwitches().begin(), net.GetSwitches().end());
    for (uint32_t node : nodes)
    {
        if (!net.IsLocal(node))
        {
            continue;
        }
        const auto ports = net.GetPorts(node);
        for (size_t i = 0; i < ports.size(); ++i)
        {
            const auto c = ports[i]->GetCounters();
            result.lostFrames += c.lostFrames;
            result.pfcPauseFrames += c.pfcPauseTx;
            Time paused;
            for (const auto& t : c.pausedTime)
            {
                paused += t;
            }
            result.pausedTime += paused;
            if (c.pfcPauseTx + c.pfcResumeTx > 0 || paused.IsStrictlyPositive())
            {
                IncastPort port;
                port.name = (net.IsHost(node) ? "host " : "switch ") + std::to_string(node) +
                            " port " + std::to_string(i);
                port.node = node;
                port.port = static_cast<uint32_t>(i);
                port.pauseFramesTx = c.pfcPauseTx;
                port.resumeFramesTx = c.pfcResumeTx;
                port.pausedTime = paused;
                result.ports.push_back(port);
            }
        }
    }
    if (distributed)
    {
        GatherIncastResult(result, *processes, queues, net);
    }
    Simulator::Destroy();
    return result;
}

} // namespace ns3
