/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-pipeline.h"

#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchPipeline");
NS_OBJECT_ENSURE_REGISTERED(SwitchPipeline);

TypeId
SwitchPipeline::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwitchPipeline")
            .SetParent<Object>()
            .SetGroupName("Mlfabric")
            .AddConstructor<SwitchPipeline>()
            .AddAttribute("Latency",
                          "Forwarding pipeline latency of the switch: from a frame reaching "
                          "its ingress (its last bit, or its first CutThroughBytes) to its "
                          "joining the egress queue; default 300 ns, the port-to-port "
                          "latency of a Spectrum-2-class switch (doc/latency.md)",
                          TimeValue(NanoSeconds(300)),
                          MakeTimeAccessor(&SwitchPipeline::m_latency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute(
                "Mode",
                "Forwarding mode: CutThrough (default, as datacenter switches "
                "run) or StoreAndForward",
                EnumValue(CUT_THROUGH),
                MakeEnumAccessor(&SwitchPipeline::m_mode),
                MakeEnumChecker(CUT_THROUGH, "CutThrough", STORE_AND_FORWARD, "StoreAndForward"))
            .AddAttribute("CutThroughBytes",
                          "Bytes of a frame, from its preamble, a cut-through port waits "
                          "for before forwarding it: the headers up to the forwarding "
                          "decision, at least a minimum Ethernet frame",
                          UintegerValue(64),
                          MakeUintegerAccessor(&SwitchPipeline::m_cutThroughBytes),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

Time
SwitchPipeline::GetLatency() const
{
    return m_latency;
}

SwitchPipeline::Mode
SwitchPipeline::GetMode() const
{
    return m_mode;
}

uint32_t
SwitchPipeline::GetCutThroughBytes() const
{
    return m_cutThroughBytes;
}

uint32_t
SwitchPipeline::Apply(const std::vector<Ptr<RocePort>>& ports) const
{
    uint64_t fastest = 0;
    for (const auto& port : ports)
    {
        fastest = std::max(fastest, port->GetDataRate().GetBitRate());
    }
    uint32_t fallBack = 0;
    for (const auto& port : ports)
    {
        port->SetAttribute("PipelineLatency", TimeValue(m_latency));
        const bool cut = m_mode == CUT_THROUGH && port->GetDataRate().GetBitRate() >= fastest;
        fallBack += m_mode == CUT_THROUGH && !cut ? 1 : 0;
        port->SetAttribute("CutThroughBytes", UintegerValue(cut ? m_cutThroughBytes : 0));
    }
    NS_LOG_INFO(ports.size() << " ports, " << fallBack << " store-and-forward by rate");
    return fallBack;
}

} // namespace ns3
