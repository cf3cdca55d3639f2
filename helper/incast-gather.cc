/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "incast-gather.h"

#include "ns3/distributed-run.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

namespace ns3
{

namespace
{

/** A node's candidate for a "largest, last in node order" figure, and what goes with it. */
struct Candidate
{
    uint64_t value{0};  //!< the figure compared
    uint64_t first{0};  //!< what the winner reports with it
    uint64_t second{0}; //!< more of it
};

/** \return the candidates of every process by node id (each node is on one process) */
std::map<uint32_t, Candidate>
GatherCandidates(ProcessGroup& processes, const std::map<uint32_t, Candidate>& mine)
{
    std::ostringstream text;
    for (const auto& [node, c] : mine)
    {
        text << node << ' ' << c.value << ' ' << c.first << ' ' << c.second << '\n';
    }
    std::map<uint32_t, Candidate> all;
    for (const std::string& part : processes.Gather(text.str()))
    {
        std::istringstream in(part);
        uint32_t node = 0;
        Candidate c;
        while (in >> node >> c.value >> c.first >> c.second)
        {
            all[node] = c;
        }
    }
    return all;
}

/** \return the candidate with the largest value, the last in node order among equals */
Candidate
LastLargest(const std::map<uint32_t, Candidate>& all)
{
    Candidate best;
    for (const auto& [node, c] : all)
    {
        if (c.value >= best.value)
        {
            best = c;
        }
    }
    return best;
}

/** \return this process's winner as the one candidate of its node, or none */
std::map<uint32_t, Candidate>
Mine(const std::optional<uint32_t>& node, const Candidate& c)
{
    std::map<uint32_t, Candidate> mine;
    if (node)
    {
        mine[*node] = c;
    }
    return mine;
}

/**
 * Reduce the buffer, headroom and relay peaks: each process's winner (RunIncast's
 * largest, last in node order) against the others', by the same rule.
 */
void
GatherPeaks(IncastResult& r, ProcessGroup& processes)
{
    const Candidate buffer = LastLargest(
        GatherCandidates(processes, Mine(r.bufferNode, {r.maxBufferBytes, r.bufferBytes, 0})));
    r.maxBufferBytes = buffer.value;
    r.bufferBytes = buffer.first;
    const Candidate room = LastLargest(GatherCandidates(
        processes,
        Mine(r.headroomNode, {r.peakHeadroomBytes, r.headroomPoolBytes, r.queueHeadroomBytes})));
    r.peakHeadroomBytes = room.value;
    r.headroomPoolBytes = room.first;
    r.queueHeadroomBytes = room.second;
    const auto relays = GatherCandidates(
        processes, Mine(r.relayNode, {r.relayPeakUsedBytes, r.relayBufferBytes, 0}));
    if (!relays.empty())
    {
        const Candidate relay = LastLargest(relays);
        r.relayPeakUsedBytes = relay.value;
        r.relayBufferBytes = relay.first;
    }
}

/** Bring the ports with PFC activity together, in node order as one process lists them. */
void
GatherPorts(IncastResult& r, ProcessGroup& processes, const RoceNetwork& net)
{
    std::ostringstream text;
    for (const IncastPort& p : r.ports)
    {
        text << p.node << ' ' << p.port << ' ' << p.pauseFramesTx << ' ' << p.resumeFramesTx << ' '
             << p.pausedTime.GetTimeStep() << ' ' << p.name << '\n';
    }
    // One process lists hosts before switches, each in node order.
    std::map<std::tuple<bool, uint32_t, uint32_t>, IncastPort> all;
    for (const std::string& part : processes.Gather(text.str()))
    {
        std::istringstream in(part);
        IncastPort p;
        int64_t paused = 0;
        while (in >> p.node >> p.port >> p.pauseFramesTx >> p.resumeFramesTx >> paused)
        {
            std::getline(in >> std::ws, p.name);
            p.pausedTime = TimeStep(paused);
            all[{!net.IsHost(p.node), p.node, p.port}] = p;
        }
    }
    r.ports.clear();
    for (const auto& entry : all)
    {
        r.ports.push_back(entry.second);
    }
}

/** Read the bottleneck queue over [0, until] from every process's switches. */
void
GatherBottleneck(IncastResult& r, ProcessGroup& processes, const QueueMonitor& queues, Time until)
{
    const BusiestQueue busiest = GatherBusiestQueue(processes, queues, until);
    if (busiest.until > until)
    {
        r.queueCaveat = "a switch queue changed after the last completion, at " +
                        std::to_string(busiest.until.GetSeconds() * 1e6) +
                        " us: the bottleneck figures run to then, not to the completion";
    }
    const QueueMonitor::PortQueue& q = busiest.queue;
    r.bottleneck = "switch " + std::to_string(q.node) + " port " + std::to_string(q.port);
    r.peakQueueBytes = q.peakBytes;
    r.meanQueueBytes = q.meanBytes;
}

} // namespace

void
GatherIncastResult(IncastResult& r,
                   ProcessGroup& processes,
                   const QueueMonitor& queues,
                   const RoceNetwork& net)
{
    const ProcessFigures each = GatherProcessFigures(processes, r.events, r.wallSeconds);
    r.processEvents = each.events;
    r.processSeconds = each.seconds;
    std::vector<uint64_t> sums{r.bytesDelivered,
                               r.drops,
                               r.lostFrames,
                               r.pfcPauseFrames,
                               r.timeouts,
                               r.nacks,
                               r.ecnMarks,
                               r.cnps,
                               static_cast<uint64_t>(r.pausedTime.GetTimeStep()),
                               r.rateChanges,
                               r.windowChanges,
                               r.egressDrops,
                               r.relayDrops,
                               r.relayEcnMarks,
                               r.relayHolds,
                               r.trims,
                               r.events};
    for (const IncastFlow& f : r.flows)
    {
        sums.push_back(f.timesReceived);
        sums.push_back(f.retransmittedBytes);
    }
    processes.SumOver(sums);
    uint64_t* s = sums.data();
    for (uint64_t* field : {&r.bytesDelivered,
                            &r.drops,
                            &r.lostFrames,
                            &r.pfcPauseFrames,
                            &r.timeouts,
                            &r.nacks,
                            &r.ecnMarks,
                            &r.cnps})
    {
        *field = *s++;
    }
    r.pausedTime = TimeStep(static_cast<int64_t>(*s++));
    for (uint64_t* field : {&r.rateChanges,
                            &r.windowChanges,
                            &r.egressDrops,
                            &r.relayDrops,
                            &r.relayEcnMarks,
                            &r.relayHolds,
                            &r.trims,
                            &r.events})
    {
        *field = *s++;
    }
    for (IncastFlow& f : r.flows)
    {
        f.timesReceived = static_cast<uint32_t>(*s++);
        f.retransmittedBytes = *s++;
    }

    std::vector<int64_t> maxima{r.lastCompletion.GetTimeStep(),
                                static_cast<int64_t>(r.relayPeakQueueBytes),
                                Simulator::Now().GetTimeStep()};
    for (const IncastFlow& f : r.flows)
    {
        maxima.push_back(f.completion.GetTimeStep());
        maxima.push_back(f.received.GetTimeStep());
    }
    processes.MaxOver(maxima);
    r.lastCompletion = TimeStep(maxima[0]);
    r.relayPeakQueueBytes = static_cast<uint64_t>(maxima[1]);
    const Time end = TimeStep(maxima[2]);
    r.wallSeconds = *std::max_element(r.processSeconds.begin(), r.processSeconds.end());
    bool allCompleted = true;
    for (size_t i = 0; i < r.flows.size(); ++i)
    {
        r.flows[i].completion = TimeStep(maxima[3 + 2 * i]);
        r.flows[i].received = TimeStep(maxima[3 + 2 * i + 1]);
        allCompleted = allCompleted && r.flows[i].completion.IsStrictlyPositive();
    }
    GatherPeaks(r, processes);
    GatherPorts(r, processes, net);
    // One process reads the queues when the last message completes, or at the end.
    GatherBottleneck(r, processes, queues, allCompleted ? r.lastCompletion : end);
}

} // namespace ns3
