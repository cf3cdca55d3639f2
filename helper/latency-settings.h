/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_LATENCY_SETTINGS_H
#define MLFABRIC_LATENCY_SETTINGS_H

#include "ns3/flow-backend.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * The switch and NIC latencies and the ACK cadence the packet level will install: the
 * defaults of ns3::SwitchPipeline and ns3::RdmaNic as they stand (Config::SetDefault
 * included), so one setting moves the packet and the flow level alike.
 */
struct LatencySettings
{
    Time switchLatency;             //!< ns3::SwitchPipeline::Latency
    uint32_t cutThroughBytes{0};    //!< ns3::SwitchPipeline::CutThroughBytes; 0: store-and-forward
    Time nicTransmit;               //!< ns3::RdmaNic::TransmitLatency
    Time nicReceive;                //!< ns3::RdmaNic::ReceiveLatency
    Time ackTurnaround;             //!< ns3::RdmaNic::AckTurnaround
    uint32_t ackInterval{1};        //!< ns3::RdmaNic::AckInterval
    uint32_t scaleUpAckInterval{1}; //!< ns3::RdmaNic::ScaleUpAckInterval

    /** \return the settings in force now */
    static LatencySettings Current();
    /** \return one line for a run header, e.g. "switch pipeline 300 ns, cut-through ..." */
    std::string Describe() const;
    /**
     * Give a flow backend the same latencies and ACK cadence, so the flow level times paths
     * and loads reverse links as packets do.
     * \param flow the backend, before SetFabric
     */
    void ApplyTo(Ptr<FlowBackend> flow) const;
};

} // namespace ns3

#endif // MLFABRIC_LATENCY_SETTINGS_H
