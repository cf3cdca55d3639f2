/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "congestion-unaware-backend.h"

#include "ns3/abort.h"
#include "ns3/analytical-fabric-dimensions.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CongestionUnawareBackend");
NS_OBJECT_ENSURE_REGISTERED(CongestionUnawareBackend);

TypeId
CongestionUnawareBackend::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CongestionUnawareBackend")
                            .SetParent<AnalyticalBackend>()
                            .SetGroupName("Mlfabric")
                            .AddConstructor<CongestionUnawareBackend>();
    return tid;
}

void
CongestionUnawareBackend::SetFabric(const Fabric& fabric, const RoutingTable& routes)
{
    // Derive first: a fabric the model refuses leaves the backend as it was.
    AnalyticalTopology topology = MakeAnalyticalTopology(fabric, m_goodputFraction);
    AnalyticalBackend::SetFabric(fabric, routes);
    m_topology = std::move(topology);
    m_router = std::make_unique<AnalyticalRouter>(m_topology, m_bidirectionalRing);
}

std::string
CongestionUnawareBackend::GetDescription() const
{
    std::ostringstream text;
    text << "analytical, congestion-unaware";
    for (const auto& d : m_topology.GetDimensions())
    {
        text << (&d == &m_topology.GetDimensions().front() ? ": " : " x ") << d.npus << " @ "
             << d.bandwidthGBps << " GB/s, " << d.latencyNs << " ns";
    }
    text << DescribeScaleUp() << DescribeReductionEngine();
    return text.str();
}

uint64_t
CongestionUnawareBackend::ComputeDelayNs(uint32_t src, uint32_t dst, uint64_t bytes) const
{
    const uint32_t d = m_topology.FirstDifferingDimension(src, dst);
    if (d == m_topology.GetDimensions().size())
    {
        return 0;
    }
    const AnalyticalDimension& dim = m_topology.GetDimensions()[d];
    const uint32_t hops =
        m_router->HopCount(d, m_topology.GetCoordinate(src, d), m_topology.GetCoordinate(dst, d));
    const double delay =
        hops * dim.latencyNs +
        static_cast<double>(bytes) / AnalyticalTopology::ToBytesPerNs(dim.bandwidthGBps);
    return static_cast<uint64_t>(delay);
}

void
CongestionUnawareBackend::Send(const Message& message,
                               MessageCallback sent,
                               MessageCallback arrived)
{
    NS_LOG_FUNCTION(this << message.src << message.dst << message.bytes << message.tag);
    CheckRanks(message);
    const uint64_t delay = ComputeDelayNs(message.src, message.dst, message.bytes);
    Simulator::Schedule(NanoSeconds(delay),
                        [this, message, sent, arrived]() { Deliver(message, sent, arrived); });
}

uint32_t
CongestionUnawareBackend::InSwitchDimension(const std::vector<uint32_t>& members) const
{
    const auto& dims = m_topology.GetDimensions();
    auto list = [&members]()
    {
        std::string text;
        for (size_t i = 0; i < members.size() && i < 8; ++i)
        {
            text += (i ? "," : "") + std::to_string(members[i]);
        }
        return text + (members.size() > 8 ? ",..." : "");
    };
    uint32_t spanned = static_cast<uint32_t>(dims.size());
    for (uint32_t d = 0; d < dims.size(); ++d)
    {
        for (uint32_t rank : members)
        {
            if (m_topology.GetCoordinate(rank, d) != m_topology.GetCoordinate(members[0], d))
            {
                if (spanned != dims.size() && spanned != d)
                {
                    throw InputError("in-switch reduction over ranks " + list() +
                                     ": they span dimensions " + std::to_string(spanned) + " and " +
                                     std::to_string(d) +
                                     "; one switch joins the NPUs of one dimension");
                }
                spanned = d;
            }
        }
    }
    if (spanned == dims.size())
    {
        throw InputError("in-switch reduction over ranks " + list() +
                         ": they do not span any dimension");
    }
    if (dims[spanned].block != AnalyticalBlock::Switch)
    {
        throw InputError(
            "in-switch reduction (nvls, inNetwork) over ranks " + list() + ": dimension " +
            std::to_string(spanned) + " is " +
            (dims[spanned].block == AnalyticalBlock::Ring ? "a Ring" : "FullyConnected") +
            " and has no switch to reduce in");
    }
    return spanned;
}

void
CongestionUnawareBackend::ReduceInSwitch(const Contribution& contribution,
                                         ContributionCallback done)
{
    NS_LOG_FUNCTION(this << contribution.rank << contribution.bytes << contribution.tag);
    NS_ABORT_MSG_UNLESS(contribution.members, "a contribution without members");
    for (uint32_t rank : *contribution.members)
    {
        CheckRanks({rank, rank, 0, contribution.tag});
    }
    InSwitchDimension(*contribution.members);
    const double now = static_cast<double>(Simulator::Now().GetNanoSeconds());
    auto complete = m_reductions.Add({contribution, std::move(done), now});
    if (!complete.empty())
    {
        FinishReduction(complete);
    }
}

void
CongestionUnawareBackend::FinishReduction(const std::vector<InSwitchRendezvous::Arrival>& arrivals)
{
    const auto& first = arrivals.front().contribution;
    const AnalyticalDimension& dim = m_topology.GetDimensions()[InSwitchDimension(*first.members)];
    const double bytes = static_cast<double>(first.bytes);
    const double linkBytesPerNs = AnalyticalTopology::ToBytesPerNs(dim.bandwidthGBps);
    double lastUp = 0;    // the last member's last byte is at the switch
    double lastFirst = 0; // every member's first byte is at the switch
    for (const auto& a : arrivals)
    {
        lastUp = std::max(lastUp, a.issuedNs + dim.latencyNs + bytes / linkBytesPerNs);
        lastFirst = std::max(lastFirst, a.issuedNs + dim.latencyNs);
    }
    double reduced = lastUp;
    const auto summed = static_cast<double>(ReducedBytes(first));
    if (ReductionBytesPerNs() > 0 && summed > 0)
    {
        reduced = std::max(reduced, lastFirst + summed / ReductionBytesPerNs());
    }
    // A result larger than the data (an all-gather's) streams down at the link's rate.
    const double down = lastFirst + static_cast<double>(ResultBytes(first)) / linkBytesPerNs;
    const double finish = std::max(reduced, down) +
                          static_cast<double>(m_reductionLatency.GetNanoSeconds()) + dim.latencyNs;
    const double now = static_cast<double>(Simulator::Now().GetNanoSeconds());
    // Whole ns, as ComputeDelayNs truncates a message's delay.
    const auto delay = static_cast<uint64_t>(finish - now);
    for (const auto& a : arrivals)
    {
        Simulator::Schedule(NanoSeconds(delay),
                            [this, a]()
                            {
                                const auto& c = a.contribution;
                                Deliver({c.rank, c.rank, ResultBytes(c), c.tag}, nullptr, nullptr);
                                a.done(c);
                            });
    }
}

} // namespace ns3
