/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Describe a fabric file: counts, per-dimension bandwidth, bisection, diameter, ECMP
// width and whether its routing can deadlock under PFC; draw it with Graphviz.
//
//   ./mlfabric run fabric-info --fabric=fabrics/two-dim-8x4.yaml --summary=out.json
#include "ns3/channel-dependency-graph.h"
#include "ns3/example-cli.h"
#include "ns3/fabric-dot-writer.h"
#include "ns3/fabric-figures.h"
#include "ns3/fabric-loader.h"
#include "ns3/fabric-routing.h"
#include "ns3/failure-spec.h"
#include "ns3/hpcc-topology-writer.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/summary.h"
#include "ns3/units.h"

#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("FabricInfo");

namespace
{

/** "400 Gb/s", "2.5 Tb/s" */
std::string
Rate(uint64_t bps)
{
    std::ostringstream text;
    text << std::setprecision(4);
    if (bps >= 1000000000000ULL)
    {
        text << static_cast<double>(bps) / 1e12 << " Tb/s";
    }
    else
    {
        text << static_cast<double>(bps) / 1e9 << " Gb/s";
    }
    return text.str();
}

/** Quote a path for /bin/sh. */
std::string
ShellQuote(const std::string& text)
{
    std::string quoted = "'";
    for (char c : text)
    {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return quoted + "'";
}

void
PrintFigures(const FabricFigures& f, const std::string& format, const std::string& path)
{
    std::cout << "fabric '" << f.name << "' (" << format << " format, " << path << ")\n\n";
    const auto row = [](const std::string& label, const std::string& value)
    {
        std::cout << "  " << std::left << std::setw(24) << label << value << '\n';
    };
    row("nodes", std::to_string(f.nodes));
    row("NPUs", std::to_string(f.npus));
    row("switches", std::to_string(f.switches));
    row("links", std::to_string(f.links));
    std::string byRate;
    for (const auto& [rate, count] : f.linksByRate)
    {
        byRate += (byRate.empty() ? "" : ", ") + std::to_string(count) + " x " + Rate(rate);
    }
    row("links by rate", byRate);
    if (!f.dimensions.empty())
    {
        std::cout << "\n  " << std::left << std::setw(12) << "dimension" << std::setw(16)
                  << "topology" << std::right << std::setw(6) << "size" << std::setw(8) << "links"
                  << std::setw(14) << "link rate" << std::setw(16) << "per-NPU bw" << '\n';
        for (const auto& d : f.dimensions)
        {
            std::cout << "  " << std::left << std::setw(12) << d.name << std::setw(16) << d.topology
                      << std::right << std::setw(6) << d.size << std::setw(8) << d.links
                      << std::setw(14) << Rate(d.linkRateBps) << std::setw(16)
                      << Rate(d.npuBandwidthBps) << '\n';
        }
        std::cout << '\n';
    }
    row("bisection bandwidth",
        Rate(f.bisectionBps) + " (" + f.bisectionMethod +
            (f.bisectionMethod == "structure"
                 ? "; rank-halves cut " + Rate(f.rankHalvesCutBps) + ")"
                 : ")"));
    row("diameter", std::to_string(f.diameter) + " hops");
    row("routing", f.routing + (f.npuForwarding ? " (NPUs forward)" : " (NPUs do not forward)"));
    row("longest route", std::to_string(f.longestRoute) + " hops");
    std::ostringstream ecmp;
    ecmp << "max " << f.ecmpMax << ", mean " << std::fixed << std::setprecision(2) << f.ecmpMean;
    row("ECMP width", ecmp.str());
    row("channel dependencies",
        std::to_string(f.channels) + " channels, " + std::to_string(f.dependencies) +
            " dependencies");
    row("dependency cycle",
        f.cdgCyclic ? "YES: deadlock risk under PFC, e.g. " + f.cdgCycle : "none (deadlock-free)");
}

int
Run(int argc, char** argv)
{
    ExampleCli cli("Describe a fabric: counts, bandwidth, routing, deadlock check, picture");
    cli.AddInput("fabric",
                 "fabric file: mlfabric YAML, ASTRA-sim network .yml or HPCC topology .txt");
    cli.Add("routing", "shortest or dimension-order (default: the file's choice)", "");
    cli.Add("dot", "Graphviz file to write (none by default)", "");
    cli.Add("svg", "also render the picture as SVG when Graphviz' dot is on PATH", "1");
    cli.Add("export-hpcc", "also write the fabric as an HPCC topology file", "");
    cli.Add("summary", "write the figures as JSON to this file", "");
    cli.Add("links", "also list every link by the name --fail takes (0 or 1)", "0");
    cli.Parse(argc, argv);

    const std::string path = cli.Get("fabric");
    if (path.empty())
    {
        throw InputError("--fabric: required (an mlfabric YAML, ASTRA-sim .yml or HPCC .txt file)");
    }
    LoadedFabric loaded = LoadFabric(path);
    RoutingAlgorithm algorithm = loaded.routing;
    if (cli.IsSet("routing") && !ParseRoutingAlgorithm(cli.Get("routing"), algorithm))
    {
        throw InputError("--routing: unknown routing '" + cli.Get("routing") +
                         "' (known: shortest, dimension-order)");
    }
    const bool svg = cli.GetBool("svg");
    const RoutingTable routing = ComputeRouting(loaded.fabric, algorithm);
    const ChannelDependencyGraph cdg(loaded.fabric, routing);
    const FabricFigures figures = ComputeFabricFigures(loaded.fabric, routing, cdg);
    PrintFigures(figures, loaded.format, path);

    // Only where asked: a program run from anywhere does not leave files behind.
    const std::string dot = cli.Get("dot");
    std::string picture = dot.empty() ? "none (--dot=FILE writes one)" : dot;
    if (!dot.empty())
    {
        WriteFabricDot(loaded.fabric, dot);
    }
    if (!dot.empty() && svg && std::system("command -v dot >/dev/null 2>&1") == 0)
    {
        const std::string svgPath =
            dot.substr(0, dot.rfind(".dot") == std::string::npos ? dot.size() : dot.rfind(".dot")) +
            ".svg";
        if (std::system(("dot -Tsvg " + ShellQuote(dot) + " -o " + ShellQuote(svgPath)).c_str()) ==
            0)
        {
            picture += ", " + svgPath;
        }
        else
        {
            picture += " (Graphviz could not render it)";
        }
    }
    else if (!dot.empty() && svg)
    {
        picture += " (install Graphviz for SVG)";
    }
    std::cout << "  " << std::left << std::setw(24) << "picture" << picture << '\n';
    if (!cli.Get("export-hpcc").empty())
    {
        WriteHpccTopology(loaded.fabric, cli.Get("export-hpcc"));
        std::cout << "  " << std::left << std::setw(24) << "HPCC topology" << cli.Get("export-hpcc")
                  << '\n';
    }

    if (cli.GetBool("links"))
    {
        std::cout << "\nlinks (as --fail names them):\n";
        for (uint32_t l = 0; l < loaded.fabric.GetLinkCount(); ++l)
        {
            std::cout << "  " << FailureLinkName(loaded.fabric, l) << "  "
                      << FormatRate(loaded.fabric.GetLink(l).settings.rateBps) << '\n';
        }
    }

    nlohmann::json summary = FabricFiguresToJson(figures);
    summary["format"] = loaded.format;
    summary["fabric_file"] = path;
    summary["dot_file"] = dot; // "" when no picture was written
    WriteSummary(cli.Get("summary"), summary);
    return 0;
}

} // namespace

int
main(int argc, char** argv)
{
    return RunMain([&] { return Run(argc, argv); });
}
