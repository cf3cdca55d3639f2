/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-fidelity.h"

#include "ns3/attribute-default.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/input-error.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/roce-wire.h"
#include "ns3/switch-pipeline.h"
#include "ns3/uinteger.h"

#include <utility>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccFidelity");

HpccFidelity
ParseHpccFidelity(const std::string& text, const std::string& what)
{
    if (text == "faithful")
    {
        return HpccFidelity::Faithful;
    }
    if (text == "peer")
    {
        return HpccFidelity::Peer;
    }
    throw InputError(what + ": must be faithful or peer (got '" + text + "')");
}

std::string
HpccFidelityName(HpccFidelity fidelity)
{
    return fidelity == HpccFidelity::Peer ? "peer" : "faithful";
}

void
ApplyHpccFidelity(HpccFidelity fidelity, uint8_t dataPriority, Time stopTime)
{
    NS_LOG_FUNCTION(HpccFidelityName(fidelity) << unsigned(dataPriority) << stopTime);
    const std::vector<std::pair<std::string, Ptr<const AttributeValue>>> peer = {
        {"ns3::RocePort::PauseExpires", Create<BooleanValue>(false)},
        {"ns3::RdmaNic::AckPriority", Create<IntegerValue>(dataPriority)},
        {"ns3::RdmaNic::NackRetryInterval", Create<TimeValue>(MicroSeconds(500))},
        {"ns3::RdmaNic::RetransmitTimeout", Create<TimeValue>(stopTime + Seconds(1))},
        {"ns3::SharedBufferMmu::ReservedBytes", Create<UintegerValue>(4096)},
        {"ns3::SharedBufferMmu::ResumeOffsetBytes", Create<UintegerValue>(3072)},
        // The peer admits at ingress only (its egress admission always passes).
        {"ns3::SharedBufferMmu::LossyEgressAlpha", Create<DoubleValue>(0)},
        // The peer's ports act on a pause at once; its headroom keeps the same 500 ns.
        {"ns3::RocePort::PfcResponseTime", Create<TimeValue>(Time(0))},
        {"ns3::SharedBufferMmu::HeadroomExtraTime", Create<TimeValue>(NanoSeconds(500))},
        // The peer's switches and NICs add no time: store-and-forward, no pipelines.
        {"ns3::SwitchPipeline::Latency", Create<TimeValue>(Time(0))},
        {"ns3::SwitchPipeline::Mode", Create<EnumValue>(SwitchPipeline::STORE_AND_FORWARD)},
        {"ns3::RdmaNic::TransmitLatency", Create<TimeValue>(Time(0))},
        {"ns3::RdmaNic::ReceiveLatency", Create<TimeValue>(Time(0))},
        {"ns3::RdmaNic::AckTurnaround", Create<TimeValue>(Time(0))},
    };
    for (const auto& [path, value] : peer)
    {
        if (fidelity == HpccFidelity::Peer)
        {
            Config::SetDefault(path, *value);
        }
        else
        {
            ResetAttributeDefault(path);
        }
    }
    wire::SetFormat(fidelity == HpccFidelity::Peer ? wire::Format::HpccPeer : wire::Format::RoceV2);
}

} // namespace ns3
