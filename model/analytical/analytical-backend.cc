/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "analytical-backend.h"

#include "ns3/abort.h"
#include "ns3/analytical-fabric-dimensions.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fabric-routing.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/scale-up-framing.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AnalyticalBackend");
NS_OBJECT_ENSURE_REGISTERED(AnalyticalBackend);

TypeId
AnalyticalBackend::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AnalyticalBackend")
            .SetParent<NetworkBackend>()
            .SetGroupName("Mlfabric")
            .AddAttribute("BidirectionalRing",
                          "Whether Ring dimensions use their links in both directions "
                          "(ASTRA-sim's default); if false every ring is crossed clockwise "
                          "(congestion-unaware model only).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&AnalyticalBackend::m_bidirectionalRing),
                          MakeBooleanChecker())
            .AddAttribute("GoodputFraction",
                          "Share of every link's rate that carries payload, in (0, 1]; "
                          "1 keeps ASTRA-sim's figures. Read when the fabric is set.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&AnalyticalBackend::m_goodputFraction),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("ReductionLatency",
                          "Latency of a switch's reduction engine (nvls, inNetwork all-reduce)",
                          TimeValue(NanoSeconds(0)),
                          MakeTimeAccessor(&AnalyticalBackend::m_reductionLatency),
                          MakeTimeChecker(NanoSeconds(0)))
            .AddAttribute("ReductionRate",
                          "Rate at which a switch's reduction engine adds the members' data "
                          "(nvls, inNetwork all-reduce); 0 bps: as fast as the links deliver it",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&AnalyticalBackend::m_reductionRate),
                          MakeDataRateChecker());
    return tid;
}

void
AnalyticalBackend::SetFabric(const Fabric& fabric, const RoutingTable& routes)
{
    NS_LOG_FUNCTION(this << fabric.GetName());
    if (!(m_goodputFraction > 0 && m_goodputFraction <= 1))
    {
        throw InputError("fabric '" + fabric.GetName() + "': goodput fraction " +
                         std::to_string(m_goodputFraction) + " is not in (0, 1]");
    }
    m_fabric = std::make_unique<const Fabric>(fabric);
    m_routes = std::make_unique<const RoutingTable>(routes);
}

std::string
AnalyticalBackend::DescribeReductionEngine() const
{
    if (m_reductionRate.GetBitRate() == 0 && m_reductionLatency.IsZero())
    {
        return "";
    }
    std::ostringstream text;
    text << ", in-switch reduction engine: rate ";
    if (m_reductionRate.GetBitRate() == 0)
    {
        text << "unbounded";
    }
    else
    {
        text << m_reductionRate.GetBitRate() / 1e9 << " Gb/s";
    }
    text << ", latency " << m_reductionLatency.GetNanoSeconds() << " ns";
    return text.str();
}

double
AnalyticalBackend::ReductionBytesPerNs() const
{
    return static_cast<double>(m_reductionRate.GetBitRate()) / 8e9;
}

void
AnalyticalBackend::SetTopology(const AnalyticalTopology& topology)
{
    const Fabric fabric = MakeDimensionFabric(topology, "analytical");
    SetFabric(fabric, ComputeRouting(fabric, RoutingAlgorithm::ShortestPath));
}

const Fabric&
AnalyticalBackend::GetFabric() const
{
    NS_ABORT_MSG_IF(!m_fabric, "analytical backend: no fabric set");
    return *m_fabric;
}

const RoutingTable&
AnalyticalBackend::GetRoutes() const
{
    NS_ABORT_MSG_IF(!m_routes, "analytical backend: no fabric set");
    return *m_routes;
}

uint32_t
AnalyticalBackend::GetRankCount() const
{
    return m_fabric ? m_fabric->GetNpuCount() : 0;
}

double
AnalyticalBackend::LinkBytesPerNs(uint32_t link) const
{
    const Fabric& fabric = GetFabric();
    const ScaleUpSettings* su = fabric.GetLinkScaleUp(link);
    const double fraction = su ? ScaleUpGoodput(*su) : m_goodputFraction;
    const double gbps =
        static_cast<double>(fabric.GetLink(link).settings.rateBps) / 8.0 * fraction / 1073741824.0;
    return AnalyticalTopology::ToBytesPerNs(gbps);
}

std::string
AnalyticalBackend::DescribeScaleUp() const
{
    std::ostringstream text;
    for (const FabricDimension& dim : GetFabric().GetDimensions())
    {
        if (!dim.scaleUp)
        {
            continue;
        }
        const ScaleUpSettings& su = *dim.scaleUp;
        text << "; scale-up '" << dim.name << "': goodput " << ScaleUpGoodput(su) << " ("
             << su.payloadBytes << " B / " << ScaleUpFramedBytes(su, su.payloadBytes)
             << " B framed), switch latency " << su.switchLatencyPs / 1000.0 << " ns";
    }
    return text.str();
}

void
AnalyticalBackend::CheckRanks(const Message& message) const
{
    const uint32_t n = GetRankCount();
    if (!m_fabric)
    {
        throw InputError("analytical backend: a message before the fabric was set");
    }
    if (message.src >= n || message.dst >= n)
    {
        throw InputError("message " + std::to_string(message.src) + " -> " +
                         std::to_string(message.dst) + ": rank outside the network of " +
                         std::to_string(n) + " NPUs");
    }
}

void
AnalyticalBackend::Deliver(const Message& message,
                           const MessageCallback& sent,
                           const MessageCallback& arrived)
{
    ++m_deliveredMessages;
    m_deliveredBytes += message.bytes;
    if (sent)
    {
        sent(message);
    }
    if (arrived)
    {
        arrived(message);
    }
}

} // namespace ns3
