/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-backend-attach.h"

#include "ns3/double.h"
#include "ns3/input-error.h"
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
 * Find a link between a NIC and a switch.
 * \param nic the NIC
 * \param sw the switch
 * \param nicPort set to the NIC's port
 * \param swPort set to the switch's port
 * \return false if they are not linked
 */
bool
FindLink(Ptr<RdmaNic> nic, Ptr<RoceSwitch> sw, uint32_t& nicPort, uint32_t& swPort)
{
    for (uint32_t i = 0; i < nic->GetNPorts(); ++i)
    {
        for (uint32_t j = 0; j < sw->GetNPorts(); ++j)
        {
            if (sw->GetPort(j)->GetPeer() == nic->GetPort(i))
            {
                nicPort = i;
                swPort = j;
                return true;
            }
        }
    }
    return false;
}

/**
 * The switch cabled to every member's NIC, with the ports that join them; throws
 * InputError when there is none or when a member's link can lose the reduction's frames.
 */
PacketInSwitchReductions::Placement
PlaceReduction(const RoceNetwork& net,
               const std::vector<uint32_t>& rankNode,
               const std::vector<uint32_t>& ranks,
               uint8_t priority)
{
    const std::string who = "in-switch reduction (nvls, inNetwork) over ranks " + RankList(ranks);
    for (uint32_t swNode : net.GetSwitches())
    {
        Ptr<RoceSwitch> sw = net.GetSwitch(swNode);
        PacketInSwitchReductions::Placement place;
        for (uint32_t rank : ranks)
        {
            uint32_t nicPort = 0;
            uint32_t swPort = 0;
            if (!FindLink(net.GetNic(rankNode.at(rank)), sw, nicPort, swPort))
            {
                break;
            }
            place.nicPorts.push_back(nicPort);
            place.switchPorts.push_back(swPort);
        }
        if (place.nicPorts.size() != ranks.size())
        {
            continue;
        }
        for (uint32_t m = 0; m < ranks.size(); ++m)
        {
            const uint32_t node = rankNode.at(ranks[m]);
            Ptr<RdmaNic> nic = net.GetNic(node);
            if (CanLose(net, node, place.nicPorts[m], nic->GetPort(place.nicPorts[m]), priority) ||
                CanLose(
                    net, swNode, place.switchPorts[m], sw->GetPort(place.switchPorts[m]), priority))
            {
                throw InputError(who + ": the link of rank " + std::to_string(ranks[m]) +
                                 " to switch " + std::to_string(swNode) +
                                 " can lose frames of traffic class " + std::to_string(priority) +
                                 " (no PFC or credits on it, or a loss probability); the "
                                 "reduction engine keeps no copy to resend from");
            }
        }
        place.chunkBytes = ChunkBytes(net.GetNic(rankNode.at(ranks[0])), place.nicPorts[0]);
        for (uint32_t m = 1; m < ranks.size(); ++m)
        {
            place.chunkBytes = std::min(
                place.chunkBytes, ChunkBytes(net.GetNic(rankNode.at(ranks[m])), place.nicPorts[m]));
        }
        place.reduction = sw->GetObject<SwitchReduction>();
        if (!place.reduction)
        {
            place.reduction = CreateObject<SwitchReduction>();
            place.reduction->SetSwitch(PeekPointer(sw));
            sw->AggregateObject(place.reduction);
        }
        place.switchNode = swNode;
        return place;
    }
    throw InputError(who + ": no switch is cabled to every member; the packet level reduces "
                           "in the switch their NICs are linked to");
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
