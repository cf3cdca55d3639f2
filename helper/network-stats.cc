/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "network-stats.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NetworkStats");

nlohmann::json
NetworkStats::ToJson() const
{
    nlohmann::json j = {{"pfc_pause_frames", pfcPauseFrames},
                        {"pfc_paused_ns", pfcPausedTime.GetNanoSeconds()},
                        {"ecn_marks", ecnMarks},
                        {"cnps", cnps},
                        {"drops", drops},
                        {"lost_frames", lostFrames},
                        {"timeouts", timeouts},
                        {"retransmitted_bytes", retransmittedBytes},
                        {"pfc_watchdog_triggers", watchdogTriggers},
                        {"relay_staged_frames", relayStaged},
                        {"relay_credit_held_frames", relayHeldCredits},
                        {"peak_queue_bytes", peakQueueBytes},
                        {"mean_queue_bytes", meanQueueBytes},
                        {"peak_buffer_bytes", peakBufferBytes}};
    if (!busiestLinks.empty())
    {
        nlohmann::json links = nlohmann::json::array();
        for (const LinkUtilization& l : busiestLinks)
        {
            links.push_back(l.ToJson());
        }
        j["busiest_links"] = std::move(links);
        j["link_window_ns"] = linkWindow.GetNanoSeconds();
    }
    return j;
}

NetworkStats
CollectNetworkStats(const RoceNetwork& net, const QueueMonitor* queues)
{
    NetworkStats s;
    s.effective = CollectEffectiveSettings(net);
    std::vector<uint32_t> nodes = net.GetHosts();
    nodes.insert(nodes.end(), net.GetSwitches().begin(), net.GetSwitches().end());
    for (uint32_t node : nodes)
    {
        for (const auto& port : net.GetPorts(node))
        {
            const auto c = port->GetCounters();
            s.pfcPauseFrames += c.pfcPauseTx;
            s.lostFrames += c.lostFrames;
            s.watchdogTriggers += c.watchdogTriggers;
            for (const Time& t : c.pausedTime)
            {
                s.pfcPausedTime += t;
            }
        }
    }
    for (uint32_t host : net.GetHosts())
    {
        const auto& c = net.GetNic(host)->GetCounters();
        s.cnps += c.cnpsTx;
        s.timeouts += c.timeouts;
        s.retransmittedBytes += c.retransmittedBytes;
        const auto& relay = net.GetNic(host)->GetRelay()->GetCounters();
        s.ecnMarks += relay.ecnMarks;
        s.drops += relay.drops;
        s.relayStaged += relay.staged;
        s.relayHeldCredits += relay.heldCredits;
        s.peakQueueBytes = std::max(s.peakQueueBytes, relay.peakQueueBytes);
    }
    for (uint32_t sw : net.GetSwitches())
    {
        const auto& c = net.GetSwitch(sw)->GetCounters();
        s.ecnMarks += c.ecnMarks;
        s.drops += c.drops;
        s.peakQueueBytes = std::max(s.peakQueueBytes, c.peakQueueBytes);
        s.peakBufferBytes =
            std::max(s.peakBufferBytes, net.GetSwitch(sw)->GetMmu()->GetPeakUsedBytes());
    }
    if (queues != nullptr)
    {
        s.meanQueueBytes = queues->GetBottleneck().meanBytes;
    }
    return s;
}

std::string
RelayHeldCreditsWarning(uint64_t frames)
{
    return std::to_string(frames) +
           " frame(s) relayed from scale-up links to RoCE ports held their scale-up credits "
           "until they left, the relay's shared pool being at its threshold: the relaying "
           "NPUs' own scale-up frames waited behind them (doc/fabrics.md, scale_up)";
}

} // namespace ns3
