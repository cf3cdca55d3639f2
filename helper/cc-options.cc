/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cc-options.h"

#include "ns3/cc-presets.h"
#include "ns3/cc-registry.h"
#include "ns3/ecn-threshold-map.h"
#include "ns3/example-cli.h"
#include "ns3/input-error.h"

#include <algorithm>

namespace ns3
{

namespace
{

/** Run \p check; prefix the message of an InputError it throws with "--option: ". */
template <typename F>
void
Checked(const std::string& option, F check)
{
    try
    {
        check();
    }
    catch (const InputError& e)
    {
        throw InputError("--" + option + ": " + e.what());
    }
}

} // namespace

void
AddCcOptions(ExampleCli& cli)
{
    cli.Add("cc",
            "congestion control: none, dcqcn, dcqcn-hpccns3, dcqcn-window, hpcc, timely, "
            "dctcp, swift, nscc, or all (each in turn); without it the preset's scheme, else none",
            "none");
    cli.Add("cc-preset",
            "parameter values of a peer simulator: hpcc-ns3 or astra-sim-ns3 (default none)",
            "");
    cli.Add("ecn",
            "ECN thresholds per link rate, e.g. 100Gbps:400KB/1600KB/0.2,400Gbps:800KB/3200KB/0.2 "
            "(default: the preset's map, else the peers' map)",
            "");
}

std::vector<CcSettings>
GetCcOptions(const ExampleCli& cli, const std::vector<CcParameter>& parameters)
{
    CcSettings shared;
    shared.preset = cli.Get("cc-preset");
    shared.ecnMap = cli.Get("ecn");
    shared.parameters = parameters;
    if (!shared.preset.empty())
    {
        Checked("cc-preset", [&] { CcPresetScheme(shared.preset); });
    }
    if (!shared.ecnMap.empty())
    {
        Checked("ecn", [&] { EcnThresholdMap::Parse(shared.ecnMap); });
    }

    std::vector<std::string> schemes;
    if (!cli.IsSet("cc"))
    {
        schemes.emplace_back("");
    }
    else if (cli.Get("cc") == "all")
    {
        schemes = CcSchemeNames();
    }
    else
    {
        const auto known = CcSchemeNames();
        if (std::find(known.begin(), known.end(), cli.Get("cc")) == known.end())
        {
            std::string list;
            for (const auto& name : known)
            {
                list += name + ", ";
            }
            throw InputError("--cc: unknown congestion control '" + cli.Get("cc") +
                             "' (known: " + list + "all)");
        }
        schemes.push_back(cli.Get("cc"));
    }

    std::vector<CcSettings> runs;
    for (const auto& scheme : schemes)
    {
        CcSettings run = shared;
        run.scheme = scheme;
        runs.push_back(run);
    }
    return runs;
}

} // namespace ns3
