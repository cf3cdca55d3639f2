/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "latency-settings.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/rdma-nic.h"
#include "ns3/switch-pipeline.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

namespace
{

/** \return the current default of attribute \p name of \p tid */
template <typename V>
auto
DefaultOf(TypeId tid, const std::string& name)
{
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_UNLESS(tid.LookupAttributeByName(name, &info), "no attribute " << name);
    const auto value = DynamicCast<const V>(info.initialValue);
    NS_ABORT_MSG_UNLESS(value, "attribute " << name << " has another type");
    return value->Get();
}

} // namespace

LatencySettings
LatencySettings::Current()
{
    const TypeId sw = SwitchPipeline::GetTypeId();
    const TypeId nic = RdmaNic::GetTypeId();
    LatencySettings s;
    s.switchLatency = DefaultOf<TimeValue>(sw, "Latency");
    const bool cut = DefaultOf<EnumValue>(sw, "Mode") == SwitchPipeline::CUT_THROUGH;
    s.cutThroughBytes =
        cut ? static_cast<uint32_t>(DefaultOf<UintegerValue>(sw, "CutThroughBytes")) : 0;
    s.nicTransmit = DefaultOf<TimeValue>(nic, "TransmitLatency");
    s.nicReceive = DefaultOf<TimeValue>(nic, "ReceiveLatency");
    s.ackTurnaround = DefaultOf<TimeValue>(nic, "AckTurnaround");
    s.ackInterval = static_cast<uint32_t>(DefaultOf<UintegerValue>(nic, "AckInterval"));
    s.scaleUpAckInterval =
        static_cast<uint32_t>(DefaultOf<UintegerValue>(nic, "ScaleUpAckInterval"));
    return s;
}

std::string
LatencySettings::Describe() const
{
    std::ostringstream text;
    text << "switch pipeline " << switchLatency.As(Time::NS) << " "
         << (cutThroughBytes > 0 ? "cut-through after " + std::to_string(cutThroughBytes) + " B"
                                 : std::string("store-and-forward"))
         << ", NIC transmit " << nicTransmit.As(Time::NS) << ", receive " << nicReceive.As(Time::NS)
         << ", ACK turnaround " << ackTurnaround.As(Time::NS);
    return text.str();
}

void
LatencySettings::ApplyTo(Ptr<FlowBackend> flow) const
{
    flow->SetAttribute("SwitchLatency", TimeValue(switchLatency));
    flow->SetAttribute("SwitchCutThroughBytes", UintegerValue(cutThroughBytes));
    flow->SetAttribute("NicTransmitLatency", TimeValue(nicTransmit));
    flow->SetAttribute("NicReceiveLatency", TimeValue(nicReceive));
    flow->SetAttribute("AckTurnaround", TimeValue(ackTurnaround));
    flow->SetAttribute("AckInterval", UintegerValue(ackInterval));
    flow->SetAttribute("ScaleUpAckInterval", UintegerValue(scaleUpAckInterval));
}

} // namespace ns3
