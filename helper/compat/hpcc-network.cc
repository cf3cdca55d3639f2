/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-network.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
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

void
BuildHpccNetwork(const Fabric& fabric, const HpccConfig& config, RoceNetwork& net)
{

    for (uint32_t n = 0; n < fabric.GetNodeCount(); ++n)
    {
        const uint32_t id = fabric.IsNpu(n) ? net.AddHost() : net.AddSwitch();
        NS_ABORT_MSG_IF(id != n, "the HPCC network must be built before any other node");
    }
    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        const FabricLink& link = fabric.GetLink(l);
        const LinkSettings& s = link.settings;
        const double loss = s.lossProbability > 0 ? s.lossProbability : config.errorRatePerLink;
        const auto [portA, portB] =
            net.AddLink(link.nodeA, link.nodeB, s.rateBps, PicoSeconds(s.delayPs), loss);
        if (!config.enableQcn)
        {
            continue;
        }
        for (const auto& [node, port] : {std::pair{link.nodeA, portA}, {link.nodeB, portB}})
        {
            if (!net.IsHost(node))
            {
                net.GetSwitch(node)->SetEcnThresholds(port, EcnFor(config, s.rateBps, node));
            }
        }
    }
    try
    {
        net.Finalize(config.packetPayloadSize);
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
