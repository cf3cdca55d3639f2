/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "path-settings.h"

#include "ns3/config.h"
#include "ns3/enum.h"
#include "ns3/example-cli.h"
#include "ns3/input-error.h"
#include "ns3/load-balancer.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-network.h"
#include "ns3/roce-switch.h"
#include "ns3/uinteger.h"

#include <sstream>
#include <string>

namespace ns3
{

void
AddPathOptions(ExampleCli& cli)
{
    cli.Add("lb",
            "switch choice among equal-cost ports for data: ecmp (per-flow hash), flowlet, "
            "spray (per packet) or adaptive (least queued bytes per packet)",
            "ecmp");
    cli.Add("spray-order", "--lb=spray: random or round-robin", "random");
    cli.Add("flowlet-gap", "--lb=flowlet: idle time that starts a new flowlet", "50us");
    cli.Add("entropies",
            "entropy values (UDP source ports) each queue pair's packets take in turn",
            "1");
    cli.Add("transport",
            "loss recovery: gbn (go-back-N), sr (selective repeat, receive bitmap and "
            "selective NACK) or rud (unordered reliable delivery: placed on arrival, "
            "messages complete out of order)",
            "gbn");
}

void
ApplyPathOptions(const ExampleCli& cli)
{
    TypeId balancer;
    try
    {
        balancer = LoadBalancerTypeId(cli.Get("lb"));
    }
    catch (const InputError& e)
    {
        throw InputError(std::string("--lb: ") + e.what());
    }
    Config::SetDefault("ns3::RoceSwitch::LoadBalancer", TypeIdValue(balancer));

    const std::string order = cli.Get("spray-order");
    if (order != "random" && order != "round-robin")
    {
        throw InputError("--spray-order: must be random or round-robin (got '" + order + "')");
    }
    Config::SetDefault(
        "ns3::SprayBalancer::Order",
        EnumValue(order == "random" ? SprayBalancer::RANDOM : SprayBalancer::ROUND_ROBIN));
    Config::SetDefault("ns3::FlowletBalancer::Gap", TimeValue(cli.GetTime("flowlet-gap")));
    Config::SetDefault("ns3::RdmaQueuePair::Entropies",
                       UintegerValue(cli.GetUint("entropies", 1, 65536)));

    const std::string transport = cli.Get("transport");
    if (transport != "gbn" && transport != "sr" && transport != "rud")
    {
        throw InputError("--transport: must be gbn, sr or rud (got '" + transport + "')");
    }
    Config::SetDefault("ns3::RdmaNic::Transport",
                       EnumValue(transport == "gbn"  ? RdmaNic::GO_BACK_N
                                 : transport == "sr" ? RdmaNic::SELECTIVE_REPEAT
                                                     : RdmaNic::UNORDERED));
}

PathSettings
CollectPathSettings(const RoceNetwork& net)
{
    PathSettings s;
    s.loadBalancing = "none";
    const uint32_t nodes = net.GetFabric().GetNodeCount();
    for (const uint32_t sw : net.GetSwitches())
    {
        Ptr<RoceSwitch> roceSwitch = net.GetSwitch(sw);
        bool multipath = false;
        for (uint32_t dst = 0; dst < nodes && !multipath; ++dst)
        {
            multipath = roceSwitch->GetRoute(dst).size() > 1;
        }
        Ptr<LoadBalancer> balancer = roceSwitch->GetLoadBalancer();
        s.loadBalancing = balancer->Describe();
        if (multipath)
        {
            ++s.switches;
            s.mayReorder = s.mayReorder || balancer->MayReorder();
        }
    }
    // Queue pairs are made later, from the attribute's default (Config::SetDefault).
    TypeId::AttributeInformation info;
    RdmaQueuePair::GetTypeId().LookupAttributeByName("Entropies", &info);
    s.entropies =
        static_cast<uint32_t>(std::stoul(info.initialValue->SerializeToString(info.checker)));
    s.transport = "go-back-N";
    if (!net.GetHosts().empty())
    {
        Ptr<RdmaNic> nic = net.GetNic(net.GetHosts().front());
        if (nic->GetTransport() == RdmaNic::SELECTIVE_REPEAT)
        {
            s.transport = "selective repeat";
            s.bitmapPackets = nic->GetBitmapPackets();
            s.reorderPackets = nic->GetReorderPackets();
        }
        else if (nic->GetTransport() == RdmaNic::UNORDERED)
        {
            s.transport = "unordered (RUD)";
            s.reorderPackets = nic->GetReorderPackets();
        }
    }
    s.goBackNReordered =
        s.transport == "go-back-N" && s.switches > 0 && (s.mayReorder || s.entropies > 1);
    return s;
}

std::string
FormatPathSettings(const PathSettings& s)
{
    std::ostringstream out;
    out << "load balancing: " << s.loadBalancing << " (" << s.switches
        << " switches with equal-cost ports), " << s.entropies << " entropy value"
        << (s.entropies == 1 ? "" : "s") << " per queue pair; transport: " << s.transport;
    if (s.bitmapPackets > 0)
    {
        out << " (bitmap " << s.bitmapPackets << " packets, loss after " << s.reorderPackets
            << " packets reported past a gap)";
    }
    else if (s.transport == "unordered (RUD)")
    {
        out << " (no reorder bound, loss after " << s.reorderPackets
            << " packets reported past a gap)";
    }
    if (s.goBackNReordered)
    {
        out << "\nnote: go-back-N on paths that reorder: every packet that arrives past a gap "
               "is dropped and resent, expect goodput to collapse (--transport=sr keeps them)";
    }
    return out.str();
}

nlohmann::json
PathSettingsToJson(const PathSettings& s)
{
    return {{"load_balancing", s.loadBalancing},
            {"multipath_switches", s.switches},
            {"may_reorder", s.mayReorder},
            {"entropies", s.entropies},
            {"transport",
             s.transport == "go-back-N"          ? "gbn"
             : s.transport == "selective repeat" ? "sr"
                                                 : "rud"},
            {"bitmap_packets", s.bitmapPackets},
            {"reorder_packets", s.reorderPackets},
            {"go_back_n_reordered", s.goBackNReordered}};
}

} // namespace ns3
