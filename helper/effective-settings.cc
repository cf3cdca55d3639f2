/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "effective-settings.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/roce-network.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"
#include "ns3/units.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

namespace ns3
{

namespace
{

/** ECN classes, counted by (rate, kmin, kmax, pmax, from the fabric). */
using EcnCount = std::map<std::tuple<uint64_t, uint64_t, uint64_t, double, bool>, uint32_t>;

/** Count port \p port of \p node, marking with \p t, in \p ecn. */
void
CountEcn(
    const RoceNetwork& net, uint32_t node, uint32_t port, const EcnThresholds& t, EcnCount& ecn)
{
    // The link's thresholds hold unless an explicit map replaced them. Scale-up ports
    // do not mark (EditDepartingFrame): they form no ECN class.
    const Fabric& f = net.GetFabric();
    const uint32_t link = f.GetPort(node, port).link;
    if (f.GetLinkScaleUp(link))
    {
        return;
    }
    const auto& own = f.GetLink(link).settings.ecn;
    const bool fromLink = own && own->kminBytes == t.kminBytes && own->kmaxBytes == t.kmaxBytes &&
                          own->pmax == t.pmax;
    ++ecn[{net.GetPorts(node)[port]->GetRateBps(), t.kminBytes, t.kmaxBytes, t.pmax, fromLink}];
}

/** \return the classes of \p ecn in order */
std::vector<EcnClass>
EcnClasses(const EcnCount& ecn)
{
    std::vector<EcnClass> classes;
    for (const auto& [key, ports] : ecn)
    {
        const auto& [rate, kmin, kmax, pmax, fromLink] = key;
        classes.push_back({rate, EcnThresholds{kmin, kmax, pmax}, fromLink, ports});
    }
    return classes;
}

/** The relays of \p net into \p s. */
void
CollectRelays(const RoceNetwork& net, RelaySettings& s)
{
    EcnCount ecn;
    for (uint32_t node : net.GetHosts())
    {
        Ptr<NpuRelay> relay = net.GetNic(node)->GetRelay();
        if (!relay->IsConfigured())
        {
            continue;
        }
        ++s.npus;
        s.bufferBytes = std::max(s.bufferBytes, relay->GetMmu()->GetBufferBytes());
        s.ecnMarking = s.ecnMarking || relay->IsEcnEnabled();
        s.localWeight = relay->GetLocalWeight();
        s.transitWeight = relay->GetTransitWeight();
        bool credit = false;
        bool roce = false;
        for (uint32_t port = 0; port < net.GetNic(node)->GetNPorts(); ++port)
        {
            s.lossless |= relay->GetMmu()->GetLosslessPriorities(port);
            CountEcn(net, node, port, relay->GetEcnThresholds(port), ecn);
            const bool hasCredits = net.GetNic(node)->GetPort(port)->HasCreditFlowControl();
            credit = credit || hasCredits;
            roce = roce || !hasCredits;
        }
        s.handOvers += credit && roce ? 1 : 0;
        s.stagedHandOvers += credit && roce && relay->IsStagingHandOvers() ? 1 : 0;
    }
    s.ecn = EcnClasses(ecn);
}

/** \return "3" or "0,3", or "none" */
std::string
PriorityList(uint8_t mask)
{
    std::string text;
    for (uint8_t p = 0; p < kNumPriorities; ++p)
    {
        if ((mask >> p) & 1u)
        {
            text += (text.empty() ? "" : ",") + std::to_string(p);
        }
    }
    return text.empty() ? "none" : text;
}

/** Fill the flow control per dimension and the congestion control per port class. */
void
CollectFlowControl(const RoceNetwork& net, EffectiveSettings& s)
{
    const Fabric& f = net.GetFabric();
    const auto& dims = f.GetDimensions();
    std::vector<DimensionFlowControl> fc(dims.size() + 1);
    for (size_t d = 0; d < dims.size(); ++d)
    {
        fc[d].name = dims[d].name;
        fc[d].scaleUp = dims[d].scaleUp;
    }
    fc.back().name = "(no dimension)";
    uint32_t rocePorts = 0;
    uint32_t scaleUpPorts = 0;
    for (uint32_t l = 0; l < f.GetLinkCount(); ++l)
    {
        const FabricLink& link = f.GetLink(l);
        const bool inDim = link.dimension >= 0 && static_cast<size_t>(link.dimension) < dims.size();
        DimensionFlowControl& entry = inDim ? fc[link.dimension] : fc.back();
        ++entry.links;
        const bool scaleUp = f.GetLinkScaleUp(l) != nullptr;
        entry.pfc = entry.pfc || (!scaleUp && (net.GetLosslessPriorities(link.nodeA, link.portA) |
                                               net.GetLosslessPriorities(link.nodeB, link.portB)));
        const uint32_t npuEnds = (f.IsNpu(link.nodeA) ? 1 : 0) + (f.IsNpu(link.nodeB) ? 1 : 0);
        (scaleUp ? scaleUpPorts : rocePorts) += npuEnds;
    }
    for (auto& entry : fc)
    {
        if (entry.links > 0)
        {
            s.flowControl.push_back(entry);
        }
    }
    std::string scheme = "none";
    if (!net.GetHosts().empty())
    {
        TypeIdValue cc;
        net.GetNic(net.GetHosts().front())->GetAttribute("CongestionControl", cc);
        scheme = cc.Get().GetName();
        UintegerValue ackInterval;
        net.GetNic(net.GetHosts().front())->GetAttribute("ScaleUpAckInterval", ackInterval);
        s.scaleUpAckInterval = static_cast<uint32_t>(ackInterval.Get());
    }
    if (rocePorts > 0)
    {
        s.congestionControl.push_back({"RoCE", scheme, rocePorts});
    }
    if (scaleUpPorts > 0)
    {
        s.congestionControl.push_back({"scale-up", "ns3::CcNone", scaleUpPorts});
    }
}

} // namespace

EffectiveSettings
CollectEffectiveSettings(const RoceNetwork& net)
{
    EffectiveSettings s;
    std::map<uint8_t, uint32_t> lossless;
    EcnCount ecn;
    const uint32_t nodes = net.GetFabric().GetNodeCount();
    for (uint32_t node = 0; node < nodes; ++node)
    {
        const uint32_t ports = net.GetFabric().GetPortCount(node);
        for (uint32_t port = 0; port < ports; ++port)
        {
            ++lossless[net.GetLosslessPriorities(node, port)];
            if (net.IsHost(node))
            {
                continue;
            }
            Ptr<RoceSwitch> sw = net.GetSwitch(node);
            BooleanValue marking;
            sw->GetAttribute("EcnEnabled", marking);
            s.ecnMarking = s.ecnMarking || marking.Get();
            CountEcn(net, node, port, sw->GetEcnThresholds(port), ecn);
        }
    }
    for (const auto& [mask, ports] : lossless)
    {
        s.lossless.push_back({mask, ports});
    }
    std::map<std::tuple<double, double, uint64_t>, uint32_t> buffers;
    for (uint32_t node : net.GetSwitches())
    {
        Ptr<SharedBufferMmu> mmu = net.GetSwitch(node)->GetMmu();
        EnumValue point;
        net.GetSwitch(node)->GetAttribute("EcnMarkPoint", point);
        s.ecnAtEnqueue = s.ecnAtEnqueue || point.Get() == MARK_AT_ENQUEUE;
        StringValue priorities;
        net.GetSwitch(node)->GetAttribute("EcnPriorityThresholds", priorities);
        s.ecnPriorities = s.ecnPriorities.empty() ? priorities.Get() : s.ecnPriorities;
        DoubleValue alpha;
        mmu->GetAttribute("Alpha", alpha);
        ++buffers[{alpha.Get(), mmu->GetLossyEgressAlpha(), mmu->GetHeadroomPoolBytes()}];
    }
    for (const auto& [key, switches] : buffers)
    {
        s.buffers.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), switches});
    }
    CollectFlowControl(net, s);
    s.ecn = EcnClasses(ecn);
    CollectRelays(net, s.relays);
    s.paths = CollectPathSettings(net);
    return s;
}

namespace
{

/** Append the ECN classes \p ecn, or " off". */
void
FormatEcn(std::ostringstream& out, bool marking, const std::vector<EcnClass>& ecn)
{
    if (!marking)
    {
        out << " off";
    }
    for (size_t i = 0; marking && i < ecn.size(); ++i)
    {
        const EcnClass& c = ecn[i];
        out << (i ? ";" : "") << " " << FormatRate(c.rateBps) << " " << c.ecn.kminBytes << "/"
            << c.ecn.kmaxBytes << " B, pmax " << c.ecn.pmax << " ("
            << (c.fromLink ? "fabric" : "ECN map") << ", " << c.ports << " ports)";
    }
}

/** \return the ECN classes \p ecn as JSON */
nlohmann::json
EcnJson(const std::vector<EcnClass>& classes)
{
    nlohmann::json ecn = nlohmann::json::array();
    for (const auto& c : classes)
    {
        ecn.push_back({{"rate_bps", c.rateBps},
                       {"kmin_bytes", c.ecn.kminBytes},
                       {"kmax_bytes", c.ecn.kmaxBytes},
                       {"pmax", c.ecn.pmax},
                       {"source", c.fromLink ? "fabric" : "ecn_map"},
                       {"ports", c.ports}});
    }
    return ecn;
}

/** \return the priorities of \p mask as a JSON array */
nlohmann::json
PriorityJson(uint8_t mask)
{
    nlohmann::json priorities = nlohmann::json::array();
    for (uint8_t p = 0; p < kNumPriorities; ++p)
    {
        if ((mask >> p) & 1u)
        {
            priorities.push_back(p);
        }
    }
    return priorities;
}

} // namespace

std::string
FormatEffectiveSettings(const EffectiveSettings& s)
{
    std::ostringstream out;
    out << "lossless priorities:";
    for (size_t i = 0; i < s.lossless.size(); ++i)
    {
        out << (i ? ";" : "") << " " << PriorityList(s.lossless[i].priorities) << " ("
            << s.lossless[i].ports << " ports)";
    }
    out << "\nECN at switch ports:";
    FormatEcn(out, s.ecnMarking, s.ecn);
    if (s.ecnMarking)
    {
        out << "; marked at " << (s.ecnAtEnqueue ? "enqueue" : "dequeue");
        out << (s.ecnPriorities.empty() ? "" : "; per priority " + s.ecnPriorities);
    }
    for (size_t i = 0; i < s.buffers.size(); ++i)
    {
        const BufferAdmission& b = s.buffers[i];
        out << (i ? ";" : "\nswitch buffers:") << " alpha " << b.alpha << ", lossy egress ";
        if (b.lossyEgressAlpha > 0)
        {
            out << "alpha " << b.lossyEgressAlpha;
        }
        else
        {
            out << "unlimited";
        }
        out << ", headroom "
            << (b.headroomPoolBytes > 0 ? "pool " + std::to_string(b.headroomPoolBytes) + " B"
                                        : "per queue")
            << " (" << b.switches << " switches)";
    }
    const RelaySettings& r = s.relays;
    if (r.npus > 0)
    {
        out << "\nNPU relays: " << r.npus << " NPUs, buffer " << r.bufferBytes
            << " B each, upstream "
            << (r.lossless ? "PFC on priorities " + PriorityList(r.lossless) : "none (lossy)")
            << ", own:transit data " << r.localWeight << ":" << r.transitWeight << ", ECN:";
        FormatEcn(out, r.ecnMarking, r.ecn);
        if (r.stagedHandOvers > 0)
        {
            out << "; on " << r.stagedHandOvers
                << " NPUs a frame relayed from a scale-up link to a RoCE port (PXN's path) "
                   "is staged: it gives its scale-up credits back on arrival, and keeps them "
                   "until it leaves only while the relay's shared pool is at its threshold";
        }
        if (r.handOvers > r.stagedHandOvers)
        {
            out << "; on " << r.handOvers - r.stagedHandOvers
                << " NPUs (StageHandOvers off) a frame relayed from a scale-up link to a RoCE "
                   "port holds its scale-up credits until it leaves at the RoCE port's rate, "
                   "and the NPU's own scale-up frames on that virtual channel wait behind it";
        }
    }
    out << "\nflow control:";
    for (size_t i = 0; i < s.flowControl.size(); ++i)
    {
        const DimensionFlowControl& d = s.flowControl[i];
        out << (i ? ";" : "") << " " << d.name << " ";
        if (d.scaleUp)
        {
            const ScaleUpSettings& su = *d.scaleUp;
            out << "credits " << su.creditBytes << " B per VC, returned per " << su.creditBatchBytes
                << " B or " << su.creditIntervalPs / 1000.0 << " ns, credit return +"
                << su.creditReturnPs / 1000.0 << " ns, switch " << su.switchLatencyPs / 1000.0
                << " ns, packets " << su.payloadBytes << " B + " << su.headerBytes
                << " B header in " << su.flitBytes << " B flits";
        }
        else
        {
            out << (d.pfc ? "PFC" : "none (lossy)");
        }
        out << " (" << d.links << " links)";
    }
    out << "\ncongestion control:";
    for (size_t i = 0; i < s.congestionControl.size(); ++i)
    {
        const CcPortClass& c = s.congestionControl[i];
        out << (i ? ";" : "") << " " << c.scheme << " on " << c.portClass << " NIC ports ("
            << c.ports << ")";
    }
    if (s.congestionControl.size() > 1)
    {
        out << "; a queue pair whose path stays in a scale-up domain has none and is "
               "acknowledged every "
            << s.scaleUpAckInterval << " packets";
    }
    out << "\n" << FormatPathSettings(s.paths);
    return out.str();
}

nlohmann::json
EffectiveSettingsToJson(const EffectiveSettings& s)
{
    nlohmann::json lossless = nlohmann::json::array();
    for (const auto& g : s.lossless)
    {
        lossless.push_back({{"priorities", PriorityJson(g.priorities)}, {"ports", g.ports}});
    }
    nlohmann::json flow = nlohmann::json::array();
    for (const auto& d : s.flowControl)
    {
        nlohmann::json entry = {{"dimension", d.name},
                                {"kind", d.scaleUp ? "credit" : (d.pfc ? "pfc" : "none")},
                                {"links", d.links}};
        if (d.scaleUp)
        {
            entry["vc_buffer_bytes"] = d.scaleUp->creditBytes;
            entry["credit_latency_ps"] = d.scaleUp->creditReturnPs;
            entry["credit_batch_bytes"] = d.scaleUp->creditBatchBytes;
            entry["credit_interval_ps"] = d.scaleUp->creditIntervalPs;
            entry["switch_latency_ps"] = d.scaleUp->switchLatencyPs;
            entry["payload_bytes"] = d.scaleUp->payloadBytes;
            entry["header_bytes"] = d.scaleUp->headerBytes;
            entry["flit_bytes"] = d.scaleUp->flitBytes;
        }
        flow.push_back(entry);
    }
    nlohmann::json cc = nlohmann::json::array();
    for (const auto& c : s.congestionControl)
    {
        nlohmann::json entry = {
            {"port_class", c.portClass}, {"scheme", c.scheme}, {"ports", c.ports}};
        if (c.portClass == "scale-up")
        {
            entry["ack_interval_packets"] = s.scaleUpAckInterval;
        }
        cc.push_back(entry);
    }
    const RelaySettings& r = s.relays;
    nlohmann::json relays = {{"npus", r.npus},
                             {"buffer_bytes", r.bufferBytes},
                             {"pfc_priorities", PriorityJson(r.lossless)},
                             {"ecn_marking", r.ecnMarking},
                             {"ecn", EcnJson(r.ecn)},
                             {"local_weight", r.localWeight},
                             {"transit_weight", r.transitWeight},
                             {"scale_up_to_roce", r.handOvers},
                             {"scale_up_to_roce_staged", r.stagedHandOvers}};
    nlohmann::json buffers = nlohmann::json::array();
    for (const auto& b : s.buffers)
    {
        buffers.push_back({{"alpha", b.alpha},
                           {"lossy_egress_alpha", b.lossyEgressAlpha},
                           {"headroom_pool_bytes", b.headroomPoolBytes},
                           {"switches", b.switches}});
    }
    return {{"lossless_priorities", lossless},
            {"ecn_marking", s.ecnMarking},
            {"ecn", EcnJson(s.ecn)},
            {"ecn_mark_point", s.ecnAtEnqueue ? "enqueue" : "dequeue"},
            {"ecn_priorities", s.ecnPriorities},
            {"switch_buffers", buffers},
            {"flow_control", flow},
            {"congestion_control", cc},
            {"npu_relays", relays},
            {"paths", PathSettingsToJson(s.paths)}};
}

} // namespace ns3
