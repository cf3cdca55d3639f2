/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-backend-attach.h"

#include "ns3/double.h"
#include "ns3/input-error.h"
#include "ns3/reduction-switch.h"
#include "ns3/switch-reduction.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <string>

namespace ns3
{

namespace
{

/** \return the first ranks of \p ranks, for an error message */
std::string
RankList(const std::vector<uint32_t>& ranks)
{
    std::string text;
    for (size_t i = 0; i < ranks.size() && i < 8; ++i)
    {
        text += (i ? "," : "") + std::to_string(ranks[i]);
    }
    return text + (ranks.size() > 8 ? ",..." : "");
}

/** \return true if \p port of \p node can lose frames of \p priority */
bool
CanLose(const RoceNetwork& net, uint32_t node, uint32_t index, Ptr<RocePort> port, uint8_t priority)
{
    DoubleValue loss;
    port->GetAttribute("LossProbability", loss);
    const bool lossless = port->HasCreditFlowControl() ||
                          ((net.GetLosslessPriorities(node, index) >> priority) & 1u) != 0;
    return !lossless || loss.Get() > 0;
}

/**
 * \param nic a member's NIC
 * \param port its port to the switch
 * \return the payload of one packet there: a scale-up link's packet, else the NIC's MTU,
 *         as the member's queue pairs packetize
 */
uint32_t
ChunkBytes(Ptr<RdmaNic> nic, uint32_t port)
{
    UintegerValue header;
    nic->GetPort(port)->GetAttribute("PacketHeaderBytes", header);
    UintegerValue payload;
    if (header.Get() > 0)
    {
        nic->GetPort(port)->GetAttribute("PacketPayloadBytes", payload);
    }
    else
    {
        nic->GetAttribute("Mtu", payload);
    }
    return static_cast<uint32_t>(payload.Get());
}

/**
 * Find a link between two nodes' ports (a NIC or a switch, each).
 * \param a one node
 * \param b the other
 * \param aPort set to a's port
 * \param bPort set to b's port
 * \return false if they are not linked
 */
template <typename A, typename B>
bool
FindLink(const A& a, const B& b, uint32_t& aPort, uint32_t& bPort)
{
    for (uint32_t i = 0; i < a->GetNPorts(); ++i)
    {
        for (uint32_t j = 0; j < b->GetNPorts(); ++j)
        {
            if (b->GetPort(j)->GetPeer() == a->GetPort(i))
            {
                aPort = i;
                bPort = j;
                return true;
            }
        }
    }
    return false;
}

/** \return the switch's reductions, aggregated to it on first use */
Ptr<SwitchReduction>
ReductionOf(Ptr<RoceSwitch> sw)
{
    Ptr<SwitchReduction> reduction = sw->GetObject<SwitchReduction>();
    if (!reduction)
    {
        reduction = CreateObject<SwitchReduction>();
        reduction->SetSwitch(PeekPointer(sw));
        sw->AggregateObject(reduction);
    }
    return reduction;
}

/**
 * The switch or aggregation tree (ReductionTree) of a reduction over \p ranks: the one
 * switch cabled to every member's NIC when there is one. Throws InputError when there is
 * none and no tree either, or when a link of the reduction can lose its frames.
 */
PacketInSwitchReductions::Placement
PlaceReduction(const RoceNetwork& net,
               const std::vector<uint32_t>& rankNode,
               const std::vector<uint32_t>& ranks,
               uint8_t priority)
{
    const std::string who = "in-switch reduction (nvls, inNetwork) over ranks " + RankList(ranks);
    auto refuseLossy = [&](uint32_t node, uint32_t port, Ptr<RocePort> p, const std::string& what)
    {
        if (CanLose(net, node, port, p, priority))
        {
            throw InputError(who + ": the link of " + what + " can lose frames of traffic class " +
                             std::to_string(priority) +
                             " (no PFC or credits on it, or a loss probability); the "
                             "reduction engine keeps no copy to resend from");
        }
    };
    PacketInSwitchReductions::Placement place;
    for (uint32_t swNode : net.GetSwitches())
    {
        place.nicPorts.clear();
        place.switchPorts.clear();
        for (uint32_t rank : ranks)
        {
            uint32_t nicPort = 0;
            uint32_t swPort = 0;
            if (!FindLink(net.GetNic(rankNode.at(rank)), net.GetSwitch(swNode), nicPort, swPort))
            {
                break;
            }
            place.nicPorts.push_back(nicPort);
            place.switchPorts.push_back(swPort);
        }
        if (place.nicPorts.size() == ranks.size())
        {
            place.switches.push_back({nullptr, swNode, -1, 0, {}});
            place.attach.assign(ranks.size(), 0);
            break;
        }
    }
    if (place.switches.empty())
    {
        const Fabric& fabric = net.GetFabric();
        for (uint32_t rank : ranks)
        {
            NS_ASSERT_MSG(rankNode.at(rank) == fabric.GetNpuNode(rank), "rank " << rank);
        }
        // No single switch: the caller's tie-break among common switches is never asked.
        const ReductionTree tree = ReductionTreeOf(fabric, ranks, {});
        place.nicPorts.assign(ranks.size(), 0);
        place.switchPorts.assign(ranks.size(), 0);
        place.attach = tree.attach;
        for (const ReductionTree::Switch& t : tree.switches)
        {
            place.switches.push_back({nullptr, t.node, t.parent, 0, {}});
            for (uint32_t m : t.members)
            {
                NS_ABORT_MSG_UNLESS(FindLink(net.GetNic(rankNode.at(ranks[m])),
                                             net.GetSwitch(t.node),
                                             place.nicPorts[m],
                                             place.switchPorts[m]),
                                    "rank " << ranks[m] << " is not linked to switch " << t.node);
            }
        }
        for (uint32_t s = 1; s < place.switches.size(); ++s)
        {
            auto& sw = place.switches[s];
            auto& parent = place.switches[sw.parent];
            uint32_t downPort = 0;
            NS_ABORT_MSG_UNLESS(
                FindLink(net.GetSwitch(sw.node), net.GetSwitch(parent.node), sw.upPort, downPort),
                "switch " << sw.node << " is not linked to switch " << parent.node);
            const std::string link =
                "switch " + std::to_string(sw.node) + " to switch " + std::to_string(parent.node);
            refuseLossy(sw.node, sw.upPort, net.GetSwitch(sw.node)->GetPort(sw.upPort), link);
            refuseLossy(parent.node, downPort, net.GetSwitch(parent.node)->GetPort(downPort), link);
            parent.below.push_back({sw.node, downPort});
        }
    }
    for (uint32_t m = 0; m < ranks.size(); ++m)
    {
        const uint32_t node = rankNode.at(ranks[m]);
        const uint32_t swNode = place.switches[place.attach[m]].node;
        const std::string link =
            "rank " + std::to_string(ranks[m]) + " to switch " + std::to_string(swNode);
        refuseLossy(node, place.nicPorts[m], net.GetNic(node)->GetPort(place.nicPorts[m]), link);
        refuseLossy(swNode,
                    place.switchPorts[m],
                    net.GetSwitch(swNode)->GetPort(place.switchPorts[m]),
                    link);
    }
    place.chunkBytes = ChunkBytes(net.GetNic(rankNode.at(ranks[0])), place.nicPorts[0]);
    for (uint32_t m = 1; m < ranks.size(); ++m)
    {
        place.chunkBytes = std::min(
            place.chunkBytes, ChunkBytes(net.GetNic(rankNode.at(ranks[m])), place.nicPorts[m]));
    }
    for (auto& sw : place.switches)
    {
        sw.reduction = ReductionOf(net.GetSwitch(sw.node));
    }
    return place;
}

} // namespace

void
AttachRoceNetwork(Ptr<RdmaNetworkBackend> backend,
                  RoceNetwork& net,
                  const std::vector<uint32_t>& rankNode)
{
    std::vector<Ptr<RdmaNic>> nics;
    for (uint32_t node : rankNode)
    {
        nics.push_back(net.GetNic(node));
    }
    backend->Attach(nics,
                    [&net, rankNode](uint32_t src, uint32_t dst, uint8_t priority)
                    { return net.Connect(rankNode.at(src), rankNode.at(dst), priority); });
    backend->SetReductionPlacer(
        [&net, rankNode](const std::vector<uint32_t>& ranks, uint8_t priority)
        { return PlaceReduction(net, rankNode, ranks, priority); });
}

} // namespace ns3
