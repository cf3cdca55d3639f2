/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "load-balancer.h"

#include "ns3/enum.h"
#include "ns3/flow-hash.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(LoadBalancer);
NS_OBJECT_ENSURE_REGISTERED(EcmpBalancer);
NS_OBJECT_ENSURE_REGISTERED(FlowletBalancer);
NS_OBJECT_ENSURE_REGISTERED(SprayBalancer);
NS_OBJECT_ENSURE_REGISTERED(AdaptiveBalancer);

TypeId
LoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LoadBalancer").SetParent<Object>().SetGroupName("Mlfabric");
    return tid;
}

LoadBalancer::LoadBalancer()
    : m_rng(CreateObject<UniformRandomVariable>())
{
}

void
LoadBalancer::DoDispose()
{
    m_rng = nullptr;
    Object::DoDispose();
}

int64_t
LoadBalancer::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

uint32_t
LoadBalancer::Draw(uint32_t n)
{
    return m_rng->GetInteger(0, n - 1);
}

// ECMP

TypeId
EcmpBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EcmpBalancer")
                            .SetParent<LoadBalancer>()
                            .SetGroupName("Mlfabric")
                            .AddConstructor<EcmpBalancer>();
    return tid;
}

uint32_t
EcmpBalancer::Choose(const RoceHeader&,
                     const std::vector<uint32_t>& ports,
                     uint32_t hash,
                     const EgressLoad&)
{
    return ports[hash % ports.size()];
}

std::string
EcmpBalancer::Describe() const
{
    return "ecmp (per-flow hash)";
}

bool
EcmpBalancer::MayReorder() const
{
    return false;
}

int64_t
EcmpBalancer::AssignStreams(int64_t)
{
    return 0; // never draws: runs keep the streams they had before load balancing
}

// Flowlets

TypeId
FlowletBalancer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowletBalancer")
            .SetParent<LoadBalancer>()
            .SetGroupName("Mlfabric")
            .AddConstructor<FlowletBalancer>()
            .AddAttribute("Gap",
                          "Idle time after which a flow's next packet starts a new flowlet; "
                          "default 50 us (LetFlow's range for data-centre RTTs)",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&FlowletBalancer::m_gap),
                          MakeTimeChecker(Time(0)));
    return tid;
}

size_t
FlowletBalancer::FlowKeyHash::operator()(const FlowKey& k) const
{
    return FlowHash(static_cast<uint32_t>(k.sourceQp >> 32),
                    0,
                    static_cast<uint32_t>(k.sourceQp),
                    0,
                    0,
                    k.entropy);
}

uint32_t
FlowletBalancer::Choose(const RoceHeader& h,
                        const std::vector<uint32_t>& ports,
                        uint32_t,
                        const EgressLoad&)
{
    const Time now = Simulator::Now();
    const FlowKey key{static_cast<uint64_t>(h.src) << 32 | h.srcQp, h.entropy};
    auto [it, fresh] = m_flows.try_emplace(key);
    Flowlet& f = it->second;
    if (fresh || now - f.last > m_gap ||
        std::find(ports.begin(), ports.end(), f.port) == ports.end())
    {
        f.port = ports[Draw(ports.size())];
        ++m_flowlets;
        NS_LOG_LOGIC("flow " << h.src << ":" << h.srcQp << " new flowlet on port " << f.port);
    }
    f.last = now;
    return f.port;
}

std::string
FlowletBalancer::Describe() const
{
    std::ostringstream os;
    os << "flowlet (gap " << m_gap.As(Time::US) << ", random port per flowlet)";
    return os.str();
}

bool
FlowletBalancer::MayReorder() const
{
    return true; // only when the gap is shorter than the paths' delay difference
}

uint64_t
FlowletBalancer::GetFlowlets() const
{
    return m_flowlets;
}

// Spraying

TypeId
SprayBalancer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SprayBalancer")
            .SetParent<LoadBalancer>()
            .SetGroupName("Mlfabric")
            .AddConstructor<SprayBalancer>()
            .AddAttribute(
                "Order",
                "How each data packet's port is picked: Random (uniform draw) or "
                "RoundRobin (the next port per destination)",
                EnumValue(SprayBalancer::RANDOM),
                MakeEnumAccessor(&SprayBalancer::m_order),
                MakeEnumChecker(
                    SprayBalancer::RANDOM, "Random", SprayBalancer::ROUND_ROBIN, "RoundRobin"));
    return tid;
}

uint32_t
SprayBalancer::Choose(const RoceHeader& h,
                      const std::vector<uint32_t>& ports,
                      uint32_t,
                      const EgressLoad&)
{
    if (m_order == RANDOM)
    {
        return ports[Draw(ports.size())];
    }
    if (m_cursor.size() <= h.dst)
    {
        m_cursor.resize(h.dst + 1, 0);
    }
    const uint32_t at = m_cursor[h.dst]++ % ports.size();
    return ports[at];
}

std::string
SprayBalancer::Describe() const
{
    return m_order == RANDOM ? "spray (random per packet)" : "spray (round robin per packet)";
}

bool
SprayBalancer::MayReorder() const
{
    return true;
}

// Adaptive routing

TypeId
AdaptiveBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdaptiveBalancer")
                            .SetParent<LoadBalancer>()
                            .SetGroupName("Mlfabric")
                            .AddConstructor<AdaptiveBalancer>();
    return tid;
}

uint32_t
AdaptiveBalancer::Choose(const RoceHeader&,
                         const std::vector<uint32_t>& ports,
                         uint32_t,
                         const EgressLoad& load)
{
    uint64_t least = UINT64_MAX;
    m_ties.clear();
    for (const uint32_t p : ports)
    {
        const uint64_t bytes = load.GetQueueBytes(p);
        if (bytes < least)
        {
            least = bytes;
            m_ties.clear();
        }
        if (bytes == least)
        {
            m_ties.push_back(p);
        }
    }
    return m_ties.size() == 1 ? m_ties[0] : m_ties[Draw(m_ties.size())];
}

std::string
AdaptiveBalancer::Describe() const
{
    return "adaptive (least egress queue bytes per packet)";
}

bool
AdaptiveBalancer::MayReorder() const
{
    return true;
}

// Names

std::vector<std::string>
LoadBalancerNames()
{
    return {"ecmp", "flowlet", "spray", "adaptive"};
}

TypeId
LoadBalancerTypeId(const std::string& name)
{
    if (name == "ecmp")
    {
        return EcmpBalancer::GetTypeId();
    }
    if (name == "flowlet")
    {
        return FlowletBalancer::GetTypeId();
    }
    if (name == "spray")
    {
        return SprayBalancer::GetTypeId();
    }
    if (name == "adaptive")
    {
        return AdaptiveBalancer::GetTypeId();
    }
    throw InputError("unknown load balancing '" + name +
                     "' (known: ecmp, flowlet, spray, adaptive)");
}

} // namespace ns3
