/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-installer.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricInstaller");

std::vector<uint32_t>
InstallFabric(const Fabric& fabric, const RoutingTable& routes, RoceNetwork& net, uint32_t mtu)
{
    for (uint32_t n = 0; n < fabric.GetNodeCount(); ++n)
    {
        const FabricNode& node = fabric.GetNode(n);
        const uint32_t id = node.kind == FabricNodeKind::Npu ? net.AddHost() : net.AddSwitch();
        NS_ABORT_MSG_IF(id != n, "the fabric must be installed before any other node exists");
        if (node.kind == FabricNodeKind::Switch && node.bufferBytes > 0)
        {
            net.GetSwitch(id)->GetMmu()->SetAttribute("BufferBytes",
                                                      UintegerValue(node.bufferBytes));
        }
    }

    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        const FabricLink& link = fabric.GetLink(l);
        const auto [portA, portB] = net.AddLink(link.nodeA,
                                                link.nodeB,
                                                link.settings.rateBps,
                                                PicoSeconds(link.settings.delayPs),
                                                link.settings.lossProbability);
        NS_ABORT_MSG_IF(portA != link.portA || portB != link.portB,
                        "port numbering of link " << l << " differs from the fabric's");
        if (link.settings.ecn.kmaxBytes == 0)
        {
            continue;
        }
        EcnThresholds ecn;
        ecn.kminBytes = link.settings.ecn.kminBytes;
        ecn.kmaxBytes = link.settings.ecn.kmaxBytes;
        ecn.pmax = link.settings.ecn.pmax;
        if (!net.IsHost(link.nodeA))
        {
            net.GetSwitch(link.nodeA)->SetEcnThresholds(portA, ecn);
        }
        if (!net.IsHost(link.nodeB))
        {
            net.GetSwitch(link.nodeB)->SetEcnThresholds(portB, ecn);
        }
    }

    std::vector<uint32_t> rankNode(fabric.GetNpuCount());
    for (uint32_t r = 0; r < rankNode.size(); ++r)
    {
        rankNode[r] = fabric.GetNpuNode(r);
    }
    std::vector<uint32_t> ports;
    for (uint32_t n = 0; n < fabric.GetNodeCount(); ++n)
    {
        for (uint32_t r = 0; r < rankNode.size(); ++r)
        {
            if (rankNode[r] == n)
            {
                continue;
            }
            const PortSet set = routes.GetEgressPorts(n, r);
            if (!set.empty())
            {
                ports.assign(set.begin(), set.end());
                net.SetRoute(n, rankNode[r], ports);
            }
        }
    }
    net.Finalize(mtu);
    return rankNode;
}

} // namespace ns3
