/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-network.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/shortest-path-routing.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccNetwork");

namespace
{

/** The ECN thresholds of a port of \p rateBps, or InputError naming the missing map. */
EcnThresholds
EcnFor(const HpccConfig& config, uint64_t rateBps, uint32_t node)
{
    const auto it = config.ecn.find(rateBps);
    const HpccEcnEntry none;
    const HpccEcnEntry& e = it == config.ecn.end() ? none : it->second;
    const std::pair<const char*, bool> maps[] = {
        {"KMIN_MAP", e.hasKmin}, {"KMAX_MAP", e.hasKmax}, {"PMAX_MAP", e.hasPmax}};
    for (const auto& [key, present] : maps)
    {
        if (!present)
        {
            throw InputError(config.Where(key) + ": " + key + " has no entry for " +
                             std::to_string(rateBps) + " bit/s, the rate of a port of switch " +
                             std::to_string(node) + " (ECN is on: ENABLE_QCN 1)");
        }
    }
    if (e.kminKb > e.kmaxKb)
    {
        throw InputError(config.Where("KMIN_MAP") + ": KMIN_MAP " + std::to_string(e.kminKb) +
                         " KB exceeds KMAX_MAP " + std::to_string(e.kmaxKb) + " KB at " +
                         std::to_string(rateBps) + " bit/s");
    }
    EcnThresholds t;
    t.kminBytes = e.kminKb * 1000;
    t.kmaxBytes = e.kmaxKb * 1000;
    t.pmax = e.pmax;
    return t;
}

} // namespace

uint32_t
HpccAckIntervalPackets(const HpccConfig& config)
{
    const uint64_t mtu = config.packetPayloadSize;
    return static_cast<uint32_t>(std::max<uint64_t>(1, (config.l2AckInterval + mtu - 1) / mtu));
}

void
SetHpccNetworkDefaults(const HpccConfig& config, uint8_t losslessPriorities)
{
    Config::SetDefault("ns3::RdmaNic::Mtu", UintegerValue(config.packetPayloadSize));
    Config::SetDefault("ns3::RdmaNic::AckInterval", UintegerValue(HpccAckIntervalPackets(config)));
    Config::SetDefault("ns3::RoceSwitch::EcnEnabled", BooleanValue(config.enableQcn));
    Config::SetDefault("ns3::SharedBufferMmu::BufferBytes",
                       UintegerValue(uint64_t{config.bufferSizeMiB} << 20));
    Config::SetDefault("ns3::SharedBufferMmu::LosslessPriorities",
                       UintegerValue(losslessPriorities));
}

Fabric
HpccRunFabric(const Fabric& fabric, const HpccConfig& config)
{
    Fabric run(fabric.GetName());
    for (uint32_t n = 0; n < fabric.GetNodeCount(); ++n)
    {
        const FabricNode& node = fabric.GetNode(n);
        const uint32_t id = node.kind == FabricNodeKind::Npu
                                ? run.AddNpu(node.name)
                                : run.AddSwitch(node.name, node.role, node.tier, node.dimension);
        NS_ABORT_MSG_IF(id != n, "node ids of the HPCC topology must be kept");
        if (node.kind == FabricNodeKind::Switch)
        {
            run.SetSwitchBuffer(id, uint64_t{config.bufferSizeMiB} << 20);
        }
    }
    run.SetNpuForwarding(false); // as in the HPCC simulator: hosts never carry transit
    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        const FabricLink& link = fabric.GetLink(l);
        LinkSettings s = link.settings;
        if (s.lossProbability == 0)
        {
            s.lossProbability = config.errorRatePerLink;
        }
        if (config.enableQcn)
        {
            // Checked at each switch end: the error names the switch whose port lacks it.
            for (uint32_t node : {link.nodeA, link.nodeB})
            {
                if (!fabric.IsNpu(node))
                {
                    const EcnThresholds t = EcnFor(config, s.rateBps, node);
                    s.ecn = EcnSettings{t.kminBytes, t.kmaxBytes, t.pmax};
                }
            }
        }
        run.AddLink(link.nodeA, link.nodeB, s, link.dimension);
    }
    return run;
}

void
BuildHpccNetwork(const Fabric& fabric, const HpccConfig& config, RoceNetwork& net)
{
    const Fabric run = HpccRunFabric(fabric, config);
    // Pairs that cannot reach each other through switches are refused per flow, naming
    // its line of the flow file (HpccRun), as the simulator fails only on such a flow.
    const RoutingTable routes = ComputeShortestPathRouting(run, /*allowUnreachable=*/true);
    try
    {
        net.Install(run, routes, config.packetPayloadSize);
    }
    catch (const InputError& e)
    {
        // Only the buffer size can make a switch's buffer accounting fail.
        throw InputError(config.Where("BUFFER_SIZE") + ": BUFFER_SIZE " +
                         std::to_string(config.bufferSizeMiB) + ": " + e.what());
    }
    NS_LOG_INFO(fabric.GetNodeCount() << " nodes, " << fabric.GetLinkCount() << " links");
}

} // namespace ns3
