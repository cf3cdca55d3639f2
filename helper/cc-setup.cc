/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cc-setup.h"

#include "ns3/cc-presets.h"
#include "ns3/cc-registry.h"
#include "ns3/config.h"
#include "ns3/dcqcn-alpha-mapping.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/rdma-nic.h"
#include "ns3/roce-network.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <iostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CcSetup");

namespace
{

/** \return the scheme whose TypeId is \p typeIdName, or "" if none is */
std::string
SchemeOfTypeId(const std::string& typeIdName)
{
    for (const auto& scheme : CcSchemeNames())
    {
        if (CcTypeIdName(scheme) == typeIdName)
        {
            return scheme;
        }
    }
    return "";
}

/** Give \p interval to the NICs whose CnpInterval is the built-in value, and as default. */
void
ApplyPresetCnpInterval(RoceNetwork& net, Time interval)
{
    const std::string path = "ns3::RdmaNic::CnpInterval";
    TypeId::AttributeInformation info;
    RdmaNic::GetTypeId().LookupAttributeByName("CnpInterval", &info);
    const Time builtIn = DynamicCast<const TimeValue>(info.originalInitialValue)->Get();
    Config::SetDefault(path, TimeValue(interval));
    for (uint32_t host : net.GetHosts())
    {
        TimeValue now;
        net.GetNic(host)->GetAttribute("CnpInterval", now);
        if (now.Get() == builtIn)
        {
            net.GetNic(host)->SetAttribute("CnpInterval", TimeValue(interval));
        }
    }
}

/** \return the K <= N warnings of the network's NICs, one per distinct CNP interval */
std::vector<std::string>
DcqcnIntervalWarnings(const RoceNetwork& net)
{
    TypeId::AttributeInformation info;
    TypeId::LookupByName("ns3::CcDcqcn").LookupAttributeByName("AlphaInterval", &info);
    const Time k = DynamicCast<const TimeValue>(info.initialValue)->Get();
    std::vector<Time> seen;
    std::vector<std::string> warnings;
    for (uint32_t host : net.GetHosts())
    {
        TimeValue n;
        net.GetNic(host)->GetAttribute("CnpInterval", n);
        if (std::find(seen.begin(), seen.end(), n.Get()) != seen.end())
        {
            continue;
        }
        seen.push_back(n.Get());
        if (std::string w = DcqcnAlphaIntervalWarning(k, n.Get()); !w.empty())
        {
            warnings.push_back(std::move(w));
        }
    }
    return warnings;
}

/** \return the fastest NIC port of the network, or the presets' default without hosts */
uint64_t
FastestHostRate(const RoceNetwork& net)
{
    uint64_t fastest = 0;
    for (uint32_t host : net.GetHosts())
    {
        Ptr<RdmaNic> nic = net.GetNic(host);
        for (uint32_t i = 0; i < nic->GetNPorts(); ++i)
        {
            fastest = std::max(fastest, nic->GetPort(i)->GetRateBps());
        }
    }
    return fastest > 0 ? fastest : kCcPresetDefaultHostRateBps;
}

} // namespace

std::vector<CcParameter>
CcParametersFromArguments(int argc, char** argv)
{
    std::vector<CcParameter> parameters;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if (arg.rfind("--ns3::", 0) != 0)
        {
            continue;
        }
        const auto eq = arg.find('=');
        const std::string name = arg.substr(2, eq == std::string::npos ? eq : eq - 2);
        const auto sep = name.rfind("::");
        const std::string scheme = SchemeOfTypeId(name.substr(0, sep));
        if (scheme.empty())
        {
            continue;
        }
        if (eq == std::string::npos)
        {
            throw InputError("--" + name + ": needs a value (--" + name + "=VALUE)");
        }
        CcParameter p{scheme, name.substr(sep + 2), arg.substr(eq + 1)};
        try
        {
            CheckCcParameter(p.scheme, p.attribute, p.value);
        }
        catch (const InputError& e)
        {
            throw InputError("--" + name + ": " + e.what());
        }
        parameters.push_back(p);
    }
    return parameters;
}

std::string
ResolveCcScheme(const CcSettings& settings)
{
    if (!settings.scheme.empty())
    {
        CcTypeIdName(settings.scheme);
        return settings.scheme;
    }
    return settings.preset.empty() ? "none" : CcPresetScheme(settings.preset);
}

EcnThresholdMap
ResolveEcnMap(const CcSettings& settings, const std::string& scheme, uint64_t hostRateBps)
{
    if (!settings.ecnMap.empty())
    {
        return EcnThresholdMap::Parse(settings.ecnMap);
    }
    if (!settings.preset.empty())
    {
        return CcPresetEcnMap(settings.preset, scheme, hostRateBps);
    }
    return EcnThresholdMap::PeerDefault();
}

void
CheckCcSettings(const CcSettings& settings)
{
    ResolveCcScheme(settings);
    if (!settings.preset.empty())
    {
        CcPresetScheme(settings.preset);
    }
    if (!settings.ecnMap.empty())
    {
        EcnThresholdMap::Parse(settings.ecnMap);
    }
    for (const auto& p : settings.parameters)
    {
        CheckCcParameter(p.scheme, p.attribute, p.value);
    }
}

void
ApplyEcnMap(RoceNetwork& net, const EcnThresholdMap& map, bool overrideLinks)
{
    for (uint32_t node : net.GetSwitches())
    {
        Ptr<RoceSwitch> sw = net.GetSwitch(node);
        for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
        {
            if (!overrideLinks && net.HasLinkEcn(node, port))
            {
                continue;
            }
            const EcnMapEntry entry = map.Lookup(sw->GetPort(port)->GetRateBps());
            EcnThresholds thresholds;
            thresholds.kminBytes = entry.kminBytes;
            thresholds.kmaxBytes = entry.kmaxBytes;
            thresholds.pmax = entry.pmax;
            sw->SetEcnThresholds(port, thresholds);
        }
    }
    for (uint32_t node : net.GetHosts())
    {
        Ptr<NpuRelay> relay = net.GetNic(node)->GetRelay();
        if (!relay->IsConfigured())
        {
            continue;
        }
        for (uint32_t port = 0; port < net.GetNic(node)->GetNPorts(); ++port)
        {
            if (!overrideLinks && net.HasLinkEcn(node, port))
            {
                continue;
            }
            const EcnMapEntry entry = map.Lookup(net.GetNic(node)->GetPort(port)->GetRateBps());
            relay->SetEcnThresholds(port,
                                    EcnThresholds{entry.kminBytes, entry.kmaxBytes, entry.pmax});
        }
    }
}

CcInstallation
InstallCongestionControl(RoceNetwork& net, const CcSettings& settings)
{
    CheckCcSettings(settings);
    CcInstallation installed;
    installed.scheme = ResolveCcScheme(settings);
    installed.hostRateBps = settings.hostRateBps > 0 ? settings.hostRateBps : FastestHostRate(net);
    if (!settings.preset.empty())
    {
        ApplyCcPreset(settings.preset, installed.hostRateBps);
    }
    for (const auto& p : settings.parameters)
    {
        SetCcParameter(p.scheme, p.attribute, p.value);
    }
    const TypeIdValue tid(TypeId::LookupByName(CcTypeIdName(installed.scheme)));
    Config::SetDefault("ns3::RdmaNic::CongestionControl", tid);
    for (uint32_t host : net.GetHosts())
    {
        net.GetNic(host)->SetAttribute("CongestionControl", tid);
    }
    if (!settings.preset.empty())
    {
        ApplyPresetCnpInterval(net, CcPresetCnpInterval(settings.preset));
    }
    if (installed.scheme == "dcqcn")
    {
        installed.warnings = DcqcnIntervalWarnings(net);
        for (const auto& w : installed.warnings)
        {
            std::cerr << "warning: " << w << std::endl;
        }
    }
    installed.ecnMap = ResolveEcnMap(settings, installed.scheme, installed.hostRateBps);
    ApplyEcnMap(net, installed.ecnMap, !settings.ecnMap.empty());
    NS_LOG_INFO("congestion control " << installed.scheme << ", ECN map " << installed.ecnMap
                                      << ", host rate " << installed.hostRateBps << " bit/s");
    return installed;
}

} // namespace ns3
