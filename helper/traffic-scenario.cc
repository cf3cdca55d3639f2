/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "traffic-scenario.h"

#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/fabric-installer.h"
#include "ns3/fabric-loader.h"
#include "ns3/fabric-routing.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/roce-header.h"
#include "ns3/roce-network.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <random>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrafficScenario");

TrafficPattern
ParseTrafficPattern(const std::string& name)
{
    if (name == "permutation")
    {
        return TrafficPattern::PERMUTATION;
    }
    if (name == "all-to-all")
    {
        return TrafficPattern::ALL_TO_ALL;
    }
    if (name == "incast")
    {
        return TrafficPattern::INCAST;
    }
    throw InputError("unknown pattern '" + name + "' (known: permutation, all-to-all, incast)");
}

std::string
TrafficPatternName(TrafficPattern pattern)
{
    switch (pattern)
    {
    case TrafficPattern::PERMUTATION:
        return "permutation";
    case TrafficPattern::ALL_TO_ALL:
        return "all-to-all";
    case TrafficPattern::INCAST:
        return "incast";
    }
    return "";
}

std::vector<std::pair<uint32_t, uint32_t>>
TrafficFlows(TrafficPattern pattern, uint32_t ranks, uint64_t seed)
{
    std::vector<std::pair<uint32_t, uint32_t>> flows;
    if (pattern == TrafficPattern::ALL_TO_ALL)
    {
        for (uint32_t s = 0; s < ranks; ++s)
        {
            for (uint32_t d = 0; d < ranks; ++d)
            {
                if (s != d)
                {
                    flows.emplace_back(s, d);
                }
            }
        }
        return flows;
    }
    if (pattern == TrafficPattern::INCAST)
    {
        for (uint32_t s = 0; s + 1 < ranks; ++s)
        {
            flows.emplace_back(s, ranks - 1);
        }
        return flows;
    }
    // The engine is specified by the standard, the shuffle written out, so the same
    // seed draws the same permutation with any standard library.
    std::mt19937_64 engine(seed);
    std::vector<uint32_t> to(ranks);
    bool fixedPoint = true;
    while (fixedPoint)
    {
        for (uint32_t i = 0; i < ranks; ++i)
        {
            to[i] = i;
        }
        for (uint32_t i = ranks - 1; i > 0; --i)
        {
            const uint32_t j = static_cast<uint32_t>(engine() % (i + 1));
            std::swap(to[i], to[j]);
        }
        fixedPoint = false;
        for (uint32_t i = 0; i < ranks; ++i)
        {
            fixedPoint = fixedPoint || to[i] == i;
        }
    }
    for (uint32_t s = 0; s < ranks; ++s)
    {
        flows.emplace_back(s, to[s]);
    }
    return flows;
}

namespace
{

/** \return wire bytes of a message of \p bytes in packets of \p mtu payload */
uint64_t
MessageWireBytes(uint64_t bytes, uint32_t mtu)
{
    RoceHeader h;
    h.type = RoceHeader::DATA;
    h.payload = mtu;
    const uint64_t full = bytes / mtu;
    uint64_t wire = full * h.GetWireBytes();
    if (bytes % mtu != 0)
    {
        h.payload = static_cast<uint32_t>(bytes % mtu);
        wire += h.GetWireBytes();
    }
    return wire;
}

} // namespace

TrafficResult
RunTraffic(const TrafficConfig& config)
{
    Config::SetDefault("ns3::RdmaNic::Mtu", UintegerValue(config.mtu));
    const LoadedFabric loaded = LoadFabric(config.fabricPath);
    const uint32_t ranks = loaded.fabric.GetNpuCount();
    if (ranks < 2)
    {
        throw InputError(config.fabricPath + ": a traffic pattern needs at least 2 NPUs, the " +
                         "fabric has " + std::to_string(ranks));
    }
    RoceNetwork net;
    const RoutingTable routes = ComputeRouting(loaded.fabric, loaded.routing);
    const auto rankNode = InstallFabric(loaded.fabric, routes, net, config.mtu);
    const CcInstallation cc = InstallCongestionControl(net, config.cc);
    if (config.loss >= 0)
    {
        for (uint32_t link = 0; link < loaded.fabric.GetLinkCount(); ++link)
        {
            const auto ends = net.GetLinkPorts(link);
            ends.first->SetAttribute("LossProbability", DoubleValue(config.loss));
            ends.second->SetAttribute("LossProbability", DoubleValue(config.loss));
        }
    }

    TrafficResult result;
    result.effective = CollectEffectiveSettings(net);
    std::map<uint32_t, uint32_t> rankOf;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        rankOf[rankNode[r]] = r;
    }
    const auto pairs = TrafficFlows(config.pattern, ranks, config.seed);
    result.bytesExpected = config.messageBytes * pairs.size();

    // Receiver-side completion: the tag names the flow.
    auto onReceived = [&](uint32_t, uint32_t, uint64_t tag, uint64_t)
    {
        TrafficFlow& flow = result.flows.at(tag);
        if (flow.timesReceived++ == 0)
        {
            flow.received = Simulator::Now();
            result.completion = std::max(result.completion, flow.received);
            if (++result.completedFlows == result.flows.size())
            {
                Simulator::Stop();
            }
        }
    };
    for (uint32_t node : net.GetHosts())
    {
        net.GetNic(node)->TraceConnectWithoutContext(
            "MessageReceived", Callback<void, uint32_t, uint32_t, uint64_t, uint64_t>(onReceived));
    }
    std::vector<uint64_t> wireOut(ranks, 0);
    std::vector<uint64_t> wireIn(ranks, 0);
    const uint64_t wire = MessageWireBytes(config.messageBytes, config.mtu);
    for (const auto& [src, dst] : pairs)
    {
        TrafficFlow flow;
        flow.srcRank = src;
        flow.dstRank = dst;
        result.flows.push_back(flow);
        wireOut[src] += wire;
        wireIn[dst] += wire;
    }
    for (size_t i = 0; i < pairs.size(); ++i)
    {
        const uint32_t src = rankNode[pairs[i].first];
        const uint32_t dst = rankNode[pairs[i].second];
        Ptr<RdmaQueuePair> qp = net.Connect(src, dst, config.priority);
        result.scheme = qp->GetCongestionOps()->GetName();
        net.GetNic(src)->PostSend(qp, config.messageBytes, i);
    }
    uint64_t idealPs = 0;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        const uint64_t rate = net.GetNic(rankNode[r])->GetPort(0)->GetRateBps();
        const uint64_t bytes = std::max(wireOut[r], wireIn[r]);
        idealPs = std::max<uint64_t>(
            idealPs,
            static_cast<uint64_t>(static_cast<double>(bytes) * 8e12 / static_cast<double>(rate)));
    }
    result.idealCompletionPs = idealPs;

    const auto wallStart = std::chrono::steady_clock::now();
    Simulator::Stop(config.stopTime);
    Simulator::Run();
    result.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    result.events = Simulator::GetEventCount();
    const Time span =
        result.completedFlows == result.flows.size() ? result.completion : Simulator::Now();

    for (uint32_t node : net.GetHosts())
    {
        const RdmaNic::Counters& c = net.GetNic(node)->GetCounters();
        result.bytesDelivered += c.deliveredBytes;
        result.duplicateBytes += c.duplicateBytes;
        result.outOfOrderBytes += c.outOfOrderBytes;
        result.retransmittedBytes += c.retransmittedBytes;
        result.timeouts += c.timeouts;
        Ptr<NpuRelay> relay = net.GetNic(node)->GetRelay();
        if (relay->IsConfigured())
        {
            result.drops += relay->GetCounters().drops;
            result.relayHeldCredits += relay->GetCounters().heldCredits;
        }
    }
    for (uint32_t sw : net.GetSwitches())
    {
        result.drops += net.GetSwitch(sw)->GetCounters().drops;
    }
    // Each direction of each fabric link is one port's transmitter.
    double fabricSum = 0;
    uint32_t fabricPorts = 0;
    const Fabric& fabric = net.GetFabric();
    for (uint32_t link = 0; link < fabric.GetLinkCount(); ++link)
    {
        const FabricLink& l = fabric.GetLink(link);
        const bool switchToSwitch = fabric.GetNode(l.nodeA).kind == FabricNodeKind::Switch &&
                                    fabric.GetNode(l.nodeB).kind == FabricNodeKind::Switch;
        const auto [a, b] = net.GetLinkPorts(link);
        for (const auto& port : {a, b})
        {
            const auto c = port->GetCounters();
            result.lostFrames += c.lostFrames;
            if (!span.IsStrictlyPositive())
            {
                continue;
            }
            const double utilization =
                static_cast<double>(c.txBytes) * 8.0 /
                (static_cast<double>(port->GetRateBps()) * span.GetSeconds());
            result.maxLinkUtilization = std::max(result.maxLinkUtilization, utilization);
            if (switchToSwitch)
            {
                result.maxFabricUtilization = std::max(result.maxFabricUtilization, utilization);
                fabricSum += utilization;
                ++fabricPorts;
            }
        }
    }
    result.meanFabricUtilization = fabricPorts > 0 ? fabricSum / fabricPorts : 0;
    NS_LOG_INFO("traffic " << TrafficPatternName(config.pattern) << ": " << cc.scheme << ", "
                           << result.completedFlows << " of " << result.flows.size() << " flows in "
                           << result.completion.As(Time::US));
    Simulator::Destroy();
    return result;
}

} // namespace ns3
