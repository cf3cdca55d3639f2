/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "effective-settings.h"

#include "ns3/boolean.h"
#include "ns3/roce-network.h"
#include "ns3/units.h"

#include <map>
#include <sstream>
#include <tuple>

namespace ns3
{

namespace
{

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

} // namespace

EffectiveSettings
CollectEffectiveSettings(const RoceNetwork& net)
{
    EffectiveSettings s;
    std::map<uint8_t, uint32_t> lossless;
    std::map<std::tuple<uint64_t, uint64_t, uint64_t, double, bool>, uint32_t> ecn;
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
            const EcnThresholds& t = sw->GetEcnThresholds(port);
            // The link's thresholds hold unless an explicit map replaced them.
            const Fabric& f = net.GetFabric();
            const auto& own = f.GetLink(f.GetPort(node, port).link).settings.ecn;
            const bool fromLink = own && own->kminBytes == t.kminBytes &&
                                  own->kmaxBytes == t.kmaxBytes && own->pmax == t.pmax;
            ++ecn[{sw->GetPort(port)->GetRateBps(), t.kminBytes, t.kmaxBytes, t.pmax, fromLink}];
        }
    }
    for (const auto& [mask, ports] : lossless)
    {
        s.lossless.push_back({mask, ports});
    }
    for (const auto& [key, ports] : ecn)
    {
        const auto& [rate, kmin, kmax, pmax, fromLink] = key;
        s.ecn.push_back({rate, EcnThresholds{kmin, kmax, pmax}, fromLink, ports});
    }
    return s;
}

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
    if (!s.ecnMarking)
    {
        out << " off";
    }
    for (size_t i = 0; s.ecnMarking && i < s.ecn.size(); ++i)
    {
        const EcnClass& c = s.ecn[i];
        out << (i ? ";" : "") << " " << FormatRate(c.rateBps) << " " << c.ecn.kminBytes << "/"
            << c.ecn.kmaxBytes << " B, pmax " << c.ecn.pmax << " ("
            << (c.fromLink ? "fabric" : "ECN map") << ", " << c.ports << " ports)";
    }
    return out.str();
}

nlohmann::json
EffectiveSettingsToJson(const EffectiveSettings& s)
{
    nlohmann::json lossless = nlohmann::json::array();
    for (const auto& g : s.lossless)
    {
        nlohmann::json priorities = nlohmann::json::array();
        for (uint8_t p = 0; p < kNumPriorities; ++p)
        {
            if ((g.priorities >> p) & 1u)
            {
                priorities.push_back(p);
            }
        }
        lossless.push_back({{"priorities", priorities}, {"ports", g.ports}});
    }
    nlohmann::json ecn = nlohmann::json::array();
    for (const auto& c : s.ecn)
    {
        ecn.push_back({{"rate_bps", c.rateBps},
                       {"kmin_bytes", c.ecn.kminBytes},
                       {"kmax_bytes", c.ecn.kmaxBytes},
                       {"pmax", c.ecn.pmax},
                       {"source", c.fromLink ? "fabric" : "ecn_map"},
                       {"ports", c.ports}});
    }
    return {{"lossless_priorities", lossless}, {"ecn_marking", s.ecnMarking}, {"ecn", ecn}};
}

} // namespace ns3
