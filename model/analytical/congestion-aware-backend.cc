/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "congestion-aware-backend.h"

#include "ns3/abort.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/reduction-switch.h"
#include "ns3/scale-up-hop.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CongestionAwareBackend");
NS_OBJECT_ENSURE_REGISTERED(CongestionAwareBackend);

namespace
{
/** A directed link without a queue yet. */
constexpr uint32_t kNoLink = 0xFFFFFFFF;
} // namespace

TypeId
CongestionAwareBackend::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CongestionAwareBackend")
                            .SetParent<AnalyticalBackend>()
                            .SetGroupName("Mlfabric")
                            .AddConstructor<CongestionAwareBackend>();
    return tid;
}

void
CongestionAwareBackend::SetFabric(const Fabric& fabric, const RoutingTable& routes)
{
    if (!m_bidirectionalRing)
    {
        // The routing tables cross every ring the shorter way.
        throw InputError("fabric '" + fabric.GetName() +
                         "': the congestion-aware model follows the routing tables; "
                         "BidirectionalRing=false applies to the congestion-unaware model only");
    }
    AnalyticalBackend::SetFabric(fabric, routes);
    m_paths = std::make_unique<AnalyticalPaths>(GetFabric(), GetRoutes());
    m_links.clear();
    m_linkIndex.assign(2 * static_cast<size_t>(fabric.GetLinkCount()), kNoLink);
    m_queuePairs.clear();
    m_txQueuePairs.assign(fabric.GetNpuCount(), 0);
    m_rxQueuePairs.assign(fabric.GetNpuCount(), 0);
}

EcmpChoice
CongestionAwareBackend::GetEcmpChoice() const
{
    NS_ABORT_MSG_IF(!m_paths, "congestion-aware backend: no fabric set");
    return m_paths->GetEcmpChoice();
}

std::string
CongestionAwareBackend::GetDescription() const
{
    const Fabric& fabric = GetFabric();
    std::ostringstream text;
    text << "analytical, congestion-aware: fabric '" << fabric.GetName() << "', "
         << fabric.GetNpuCount() << " NPUs, " << fabric.GetSwitchCount() << " switches, "
         << fabric.GetLinkCount() << " links, "
         << GetRoutingAlgorithmName(GetRoutes().GetAlgorithm()) << " routes, ECMP by "
         << GetEcmpChoiceName(GetEcmpChoice());
    if (m_goodputFraction != 1.0)
    {
        text << ", goodput " << m_goodputFraction;
    }
    text << DescribeScaleUp() << DescribeReductionEngine();
    return text.str();
}

CongestionAwareBackend::QueuePairs
CongestionAwareBackend::QueuePairsOf(uint32_t src, uint32_t dst)
{
    const uint64_t key = (static_cast<uint64_t>(src) << 32) | dst;
    auto it = m_queuePairs.find(key);
    if (it == m_queuePairs.end())
    {
        it = m_queuePairs.emplace(key, QueuePairs{m_txQueuePairs[src]++, m_rxQueuePairs[dst]++})
                 .first;
    }
    return it->second;
}

uint32_t
CongestionAwareBackend::LinkOf(uint32_t directed)
{
    uint32_t& index = m_linkIndex[directed];
    if (index == kNoLink)
    {
        const uint32_t l = AnalyticalPaths::LinkOf(directed);
        const FabricLink& link = GetFabric().GetLink(l);
        const uint32_t to = directed % 2 == 0 ? link.nodeB : link.nodeA;
        const double latencyPs = static_cast<double>(link.settings.delayPs) +
                                 static_cast<double>(ScaleUpSwitchLatencyPs(GetFabric(), l, to));
        m_links.emplace_back(LinkBytesPerNs(l), latencyPs / 1000.0);
        index = static_cast<uint32_t>(m_links.size() - 1);
    }
    return index;
}

void
CongestionAwareBackend::Send(const Message& message, MessageCallback sent, MessageCallback arrived)
{
    NS_LOG_FUNCTION(this << message.src << message.dst << message.bytes << message.tag);
    CheckRanks(message);
    std::vector<uint32_t> path;
    if (message.src != message.dst)
    {
        const QueuePairs qp = QueuePairsOf(message.src, message.dst);
        path = m_paths->Walk(message.src, message.dst, qp.src, qp.dst);
    }
    std::vector<uint32_t> links;
    for (uint32_t directed : path)
    {
        links.push_back(LinkOf(directed));
    }
    const uint64_t id = m_nextFlight++;
    Flight& flight = m_flights[id];
    flight.message = message;
    flight.sent = std::move(sent);
    flight.arrived = std::move(arrived);
    flight.links = std::move(links);
    if (flight.links.empty())
    {
        Simulator::ScheduleNow([this, id]() { Advance(id); });
        return;
    }
    Advance(id);
}

void
CongestionAwareBackend::Advance(uint64_t id)
{
    auto it = m_flights.find(id);
    Flight& flight = it->second;
    if (flight.next == flight.links.size())
    {
        Flight done = std::move(flight);
        m_flights.erase(it);
        if (done.toSwitch)
        {
            done.arrived(done.message);
            return;
        }
        Deliver(done.message, done.sent, done.arrived);
        return;
    }
    const uint32_t link = flight.links[flight.next++];
    if (m_links[link].IsBusy())
    {
        m_links[link].Waiting().push_back(id);
        return;
    }
    Transmit(link, id);
}

void
CongestionAwareBackend::Transmit(uint32_t link, uint64_t id)
{
    AnalyticalLink& l = m_links[link];
    l.SetBusy(true);
    const uint64_t bytes = m_flights.at(id).message.bytes;
    // Arrival first, then the link's release: ASTRA-sim's order for equal times.
    Simulator::Schedule(NanoSeconds(l.DeliveryNs(bytes)), [this, id]() { Advance(id); });
    Simulator::Schedule(NanoSeconds(l.SerializationNs(bytes)), [this, link]() { LinkFree(link); });
}

void
CongestionAwareBackend::LinkFree(uint32_t link)
{
    AnalyticalLink& l = m_links[link];
    l.SetBusy(false);
    if (!l.Waiting().empty())
    {
        const uint64_t next = l.Waiting().front();
        l.Waiting().pop_front();
        Transmit(link, next);
    }
}

void
CongestionAwareBackend::Fly(const Message& message,
                            std::vector<uint32_t> links,
                            bool toSwitch,
                            MessageCallback arrived)
{
    const uint64_t id = m_nextFlight++;
    Flight& flight = m_flights[id];
    flight.message = message;
    flight.arrived = std::move(arrived);
    flight.links = std::move(links);
    flight.toSwitch = toSwitch;
    Advance(id);
}

ReductionTree
CongestionAwareBackend::ReductionTreeFor(const std::vector<uint32_t>& members) const
{
    return ReductionTreeOf(GetFabric(),
                           members,
                           [this](uint32_t from, uint32_t to)
                           { return m_paths->Walk(from, to, 0, 0).front(); });
}

uint32_t
CongestionAwareBackend::DirectedLink(uint32_t npu, uint32_t other, bool up) const
{
    for (const FabricPort& port : GetFabric().GetPorts(npu))
    {
        if (port.peer == other)
        {
            const bool fromA = GetFabric().GetLink(port.link).nodeA == npu;
            // 2 x link, + 1 when crossed from nodeB to nodeA (AnalyticalPaths).
            return 2 * port.link + ((fromA == up) ? 0 : 1);
        }
    }
    NS_ABORT_MSG("node " << npu << " is not linked to node " << other);
    return 0;
}

void
CongestionAwareBackend::ReduceInSwitch(const Contribution& contribution, ContributionCallback done)
{
    NS_LOG_FUNCTION(this << contribution.rank << contribution.bytes << contribution.tag);
    NS_ABORT_MSG_UNLESS(contribution.members, "a contribution without members");
    const std::vector<uint32_t>& members = *contribution.members;
    for (uint32_t rank : members)
    {
        CheckRanks({rank, rank, 0, contribution.tag});
    }
    const ReductionKey key{contribution.tag, members};
    auto tree = m_trees.find(key);
    if (tree == m_trees.end())
    {
        ReductionTree found = ReductionTreeFor(members);
        if (found.IsSingleSwitch())
        {
            const uint32_t sw = found.switches.front().node;
            const uint32_t npu = GetFabric().GetNpuNode(contribution.rank);
            const Message up{
                contribution.rank, contribution.rank, contribution.bytes, contribution.tag};
            Fly(up,
                {LinkOf(DirectedLink(npu, sw, true))},
                true,
                [this, sw, contribution, done = std::move(done)](const Message&)
                {
                    const double now = static_cast<double>(Simulator::Now().GetNanoSeconds());
                    auto complete = m_reductions.Add({contribution, done, now});
                    if (!complete.empty())
                    {
                        FinishReduction(sw, complete);
                    }
                });
            return;
        }
        if (contribution.op != InSwitchOp::AllReduce)
        {
            throw InputError("rank " + std::to_string(contribution.rank) +
                             ": in-switch reduction over " + std::to_string(members.size()) +
                             " ranks: no switch is linked to every member, and an aggregation "
                             "tree over several switches runs all-reduce only");
        }
        TreeReduction r;
        r.tree = std::move(found);
        r.bytes = contribution.bytes;
        for (const ReductionTree::Switch& sw : r.tree.switches)
        {
            r.waiting.push_back(sw.members.size() + sw.below.size());
        }
        tree = m_trees.emplace(key, std::move(r)).first;
    }
    const auto self = static_cast<uint32_t>(
        std::lower_bound(members.begin(), members.end(), contribution.rank) - members.begin());
    const uint32_t joined = tree->second.tree.attach.at(self);
    const uint32_t sw = tree->second.tree.switches[joined].node;
    const uint32_t npu = GetFabric().GetNpuNode(contribution.rank);
    Fly({contribution.rank, contribution.rank, contribution.bytes, contribution.tag},
        {LinkOf(DirectedLink(npu, sw, true))},
        true,
        [this, key, joined, contribution, done = std::move(done)](const Message&)
        {
            const double now = static_cast<double>(Simulator::Now().GetNanoSeconds());
            auto complete = m_reductions.Add({contribution, done, now});
            if (!complete.empty())
            {
                m_trees.at(key).done = std::move(complete);
            }
            TreeChildIn(key, joined);
        });
}

uint64_t
CongestionAwareBackend::EngineDelayNs(uint32_t switchNode, uint64_t bytes)
{
    const auto now = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
    uint64_t& engineFree = m_engineFreeNs[switchNode];
    uint64_t reduced = std::max(engineFree, now);
    if (ReductionBytesPerNs() > 0)
    {
        reduced += static_cast<uint64_t>(static_cast<double>(bytes) / ReductionBytesPerNs());
    }
    engineFree = reduced;
    return reduced + static_cast<uint64_t>(m_reductionLatency.GetNanoSeconds()) - now;
}

void
CongestionAwareBackend::TreeChildIn(const ReductionKey& key, uint32_t s)
{
    TreeReduction& r = m_trees.at(key);
    if (--r.waiting[s] > 0)
    {
        return;
    }
    const ReductionTree::Switch& sw = r.tree.switches[s];
    const uint64_t delay = EngineDelayNs(sw.node, r.bytes);
    Simulator::Schedule(NanoSeconds(delay),
                        [this, key, s]()
                        {
                            const TreeReduction& r = m_trees.at(key);
                            const ReductionTree::Switch& sw = r.tree.switches[s];
                            if (sw.parent < 0)
                            {
                                TreeDown(key, s);
                                return;
                            }
                            // The partial sum goes up as one message, stored and forwarded.
                            const uint32_t rank = key.second.front();
                            const uint32_t parent = r.tree.switches[sw.parent].node;
                            Fly({rank, rank, r.bytes, key.first},
                                {LinkOf(DirectedLink(sw.node, parent, true))},
                                true,
                                [this, key, up = static_cast<uint32_t>(sw.parent)](const Message&)
                                { TreeChildIn(key, up); });
                        });
}

void
CongestionAwareBackend::TreeDown(const ReductionKey& key, uint32_t s)
{
    const TreeReduction& r = m_trees.at(key);
    const ReductionTree::Switch& sw = r.tree.switches[s];
    const uint32_t rank = key.second.front();
    for (uint32_t below : sw.below)
    {
        Fly({rank, rank, r.bytes, key.first},
            {LinkOf(DirectedLink(r.tree.switches[below].node, sw.node, false))},
            true,
            [this, key, below](const Message&) { TreeDown(key, below); });
    }
    for (uint32_t m : sw.members)
    {
        const InSwitchRendezvous::Arrival& a = r.done.at(m);
        const Contribution c = a.contribution;
        const uint32_t npu = GetFabric().GetNpuNode(c.rank);
        Fly({c.rank, c.rank, ResultBytes(c), c.tag},
            {LinkOf(DirectedLink(npu, sw.node, false))},
            false,
            [this, key, c, done = a.done](const Message&)
            {
                TreeReduction& r = m_trees.at(key);
                if (++r.finished == r.done.size())
                {
                    m_trees.erase(key);
                }
                done(c);
            });
    }
}

void
CongestionAwareBackend::FinishReduction(uint32_t switchNode,
                                        const std::vector<InSwitchRendezvous::Arrival>& arrivals)
{
    const uint64_t ready = EngineDelayNs(switchNode, ReducedBytes(arrivals.front().contribution));
    Simulator::Schedule(NanoSeconds(ready),
                        [this, switchNode, arrivals]()
                        {
                            for (const auto& a : arrivals)
                            {
                                const auto& c = a.contribution;
                                const uint32_t npu = GetFabric().GetNpuNode(c.rank);
                                Fly({c.rank, c.rank, ResultBytes(c), c.tag},
                                    {LinkOf(DirectedLink(npu, switchNode, false))},
                                    false,
                                    [c, done = a.done](const Message&) { done(c); });
                            }
                        });
}

} // namespace ns3
