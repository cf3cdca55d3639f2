/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_NETWORK_STATS_H
#define MLFABRIC_NETWORK_STATS_H

#include "ns3/effective-settings.h"
#include "ns3/link-utilization.h"
#include "ns3/nstime.h"
#include "ns3/queue-monitor.h"
#include "ns3/roce-network.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Network-wide figures of a packet-level run, summed over every switch and NIC.
 */
struct NetworkStats
{
    EffectiveSettings effective;    //!< lossless priorities and ECN thresholds as installed
    uint64_t pfcPauseFrames{0};     //!< pause frames sent, switches and NICs
    Time pfcPausedTime;             //!< time transmitters spent paused, summed over ports
    uint64_t ecnMarks{0};           //!< packets marked CE by switches and NPU relays
    uint64_t cnps{0};               //!< congestion notification packets sent
    uint64_t drops{0};              //!< packets refused by switch and relay buffers
    uint64_t lostFrames{0};         //!< frames lost on cables
    uint64_t timeouts{0};           //!< retransmission timeouts
    uint64_t retransmittedBytes{0}; //!< payload sent more than once
    uint64_t watchdogTriggers{0};   //!< pause storms broken by PFC watchdogs
    uint64_t relayStaged{0};        //!< scale-up to RoCE relayed frames staged on arrival
    uint64_t relayHeldCredits{0};   //!< such frames that held their credits: relay pool full
    uint64_t peakQueueBytes{0};     //!< longest egress queue seen, any switch or relay port
    double meanQueueBytes{0};       //!< time-weighted mean of the busiest egress queue
    uint64_t peakBufferBytes{0};    //!< fullest switch buffer seen
    std::vector<LinkUtilization> busiestLinks; //!< by mean utilization, where sampled
    Time linkWindow;                           //!< the window of the links' peaks

    /** \return the figures as JSON, with the keys the examples' summaries use */
    nlohmann::json ToJson() const;
};

/**
 * \ingroup mlfabric-helper
 * Collect the figures of \p net now.
 * \param net the network
 * \param queues its queue monitor (for the mean queue), or nullptr
 * \return the figures
 */
NetworkStats CollectNetworkStats(const RoceNetwork& net, const QueueMonitor* queues);

/**
 * \ingroup mlfabric-helper
 * \param frames frames relayed from scale-up links to RoCE ports that kept their
 *        credits (NpuRelay::Counters::heldCredits), at least 1
 * \return the run-time warning that says what they did to the relaying NPUs
 */
std::string RelayHeldCreditsWarning(uint64_t frames);

} // namespace ns3

#endif /* MLFABRIC_NETWORK_STATS_H */
