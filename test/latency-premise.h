/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The premise of the tests whose closed forms count cables and serialization only.
#ifndef MLFABRIC_LATENCY_PREMISE_H
#define MLFABRIC_LATENCY_PREMISE_H

#include "ns3/config.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/switch-pipeline.h"

namespace ns3
{

/**
 * Switches and NICs that add no time (no pipelines, pauses that act the instant they
 * arrive) and switches that store and forward
 * (doc/latency.md; test/latency-test.cc tests the latencies themselves), as ASTRA-sim's
 * analytical network and closed forms of link latency alone assume.
 */
inline void
WithoutSwitchAndNicLatency()
{
    Config::SetDefault("ns3::SwitchPipeline::Latency", TimeValue(Time(0)));
    Config::SetDefault("ns3::SwitchPipeline::Mode", EnumValue(SwitchPipeline::STORE_AND_FORWARD));
    Config::SetDefault("ns3::RdmaNic::TransmitLatency", TimeValue(Time(0)));
    Config::SetDefault("ns3::RdmaNic::ReceiveLatency", TimeValue(Time(0)));
    Config::SetDefault("ns3::RocePort::PfcResponseTime", TimeValue(Time(0)));
}

} // namespace ns3

#endif /* MLFABRIC_LATENCY_PREMISE_H */
