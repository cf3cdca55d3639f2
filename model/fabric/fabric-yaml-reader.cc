/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-yaml-reader.h"

#include "ns3/astra-network-reader.h"
#include "ns3/clos-builder.h"
#include "ns3/fabric-check.h"
#include "ns3/fat-tree-builder.h"
#include "ns3/input-error.h"
#include "ns3/link-defaults.h"
#include "ns3/log.h"
#include "ns3/multi-dim-builder.h"
#include "ns3/rail-builder.h"
#include "ns3/yaml-input.h"

#include <algorithm>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricYamlReader");

namespace
{

/** Keys a link description may hold (besides those of its context). */
#define MLFABRIC_LINK_KEYS "rate", "latency", "loss", "ecn", "pfc_priorities"

/** Bit mask of a list of priorities 0..7. */
uint8_t
ParsePriorities(const YamlInput& in, const YAML::Node& node, const std::string& key)
{
    in.RequireSequence(node, key);
    uint8_t mask = 0;
    for (size_t i = 0; i < node.size(); ++i)
    {
        mask |=
            static_cast<uint8_t>(1u << in.Uint(node[i], key + "[" + std::to_string(i) + "]", 0, 7));
    }
    return mask;
}

EcnSettings
ParseEcn(const YamlInput& in, const YAML::Node& node, const std::string& key)
{
    in.CheckKeys(node, key, {"kmin", "kmax", "pmax", "rate"});
    EcnSettings ecn;
    ecn.kminBytes = in.Bytes(in.Require(node, "kmin"), key + ".kmin");
    ecn.kmaxBytes = in.Bytes(in.Require(node, "kmax"), key + ".kmax");
    ecn.pmax = in.Number(in.Require(node, "pmax"), key + ".pmax");
    if (ecn.kminBytes > ecn.kmaxBytes)
    {
        in.Fail(node, key, "kmin must not exceed kmax");
    }
    if (ecn.pmax < 0 || ecn.pmax > 1)
    {
        in.Fail(node["pmax"], key + ".pmax", "must be in [0, 1]");
    }
    return ecn;
}

double
ParseLoss(const YamlInput& in, const YAML::Node& node, const std::string& key)
{
    const double loss = in.Number(node, key);
    if (loss < 0 || loss > 1)
    {
        in.Fail(node, key, "must be in [0, 1]");
    }
    return loss;
}

/** The link fields of a map (rate and latency required), over the defaults. */
LinkSettings
ParseLink(const YamlInput& in,
          const YAML::Node& map,
          const std::string& key,
          const LinkDefaults& defaults)
{
    in.RequireMap(map, key);
    const uint64_t rate = in.RateBps(in.Require(map, "rate"), key + ".rate");
    const int64_t delay = in.DelayPs(in.Require(map, "latency"), key + ".latency");
    LinkSettings link = defaults.Make(rate, delay);
    if (map["loss"])
    {
        link.lossProbability = ParseLoss(in, map["loss"], key + ".loss");
    }
    if (map["ecn"])
    {
        link.ecn = ParseEcn(in, map["ecn"], key + ".ecn");
    }
    if (map["pfc_priorities"])
    {
        link.pfcPriorities = ParsePriorities(in, map["pfc_priorities"], key + ".pfc_priorities");
    }
    return link;
}

/** A link map that holds only link keys. */
LinkSettings
ParseLinkOnly(const YamlInput& in,
              const YAML::Node& map,
              const std::string& key,
              const LinkDefaults& defaults)
{
    in.CheckKeys(map, key, {MLFABRIC_LINK_KEYS});
    return ParseLink(in, map, key, defaults);
}

void
ParseDefaults(const YamlInput& in,
              const YAML::Node& node,
              LinkDefaults& defaults,
              uint64_t& buffer,
              uint64_t& relayBuffer)
{
    in.CheckKeys(
        node, "defaults", {"switch_buffer", "relay_buffer", "pfc_priorities", "loss", "ecn"});
    if (node["switch_buffer"])
    {
        buffer = in.Bytes(node["switch_buffer"], "defaults.switch_buffer");
    }
    if (node["relay_buffer"])
    {
        relayBuffer = in.Bytes(node["relay_buffer"], "defaults.relay_buffer");
        if (relayBuffer == 0)
        {
            in.Fail(node["relay_buffer"], "defaults.relay_buffer", "must be > 0");
        }
    }
    if (node["pfc_priorities"])
    {
        defaults.SetPfcPriorities(
            ParsePriorities(in, node["pfc_priorities"], "defaults.pfc_priorities"));
    }
    if (node["loss"])
    {
        defaults.SetLossProbability(ParseLoss(in, node["loss"], "defaults.loss"));
    }
    if (node["ecn"])
    {
        const YAML::Node& table = node["ecn"];
        in.RequireSequence(table, "defaults.ecn");
        std::vector<EcnRateEntry> entries;
        for (size_t i = 0; i < table.size(); ++i)
        {
            const std::string key = "defaults.ecn[" + std::to_string(i) + "]";
            EcnRateEntry entry;
            entry.ecn = ParseEcn(in, table[i], key);
            entry.rateBps = in.RateBps(in.Require(table[i], "rate"), key + ".rate");
            entries.push_back(entry);
        }
        if (entries.empty())
        {
            in.Fail(table, "defaults.ecn", "needs at least one entry");
        }
        defaults.SetEcnTable(entries);
    }
}

/**
 * A dimension's scale_up value: true (the defaults), false, or a map overriding them.
 * PFC priorities and ECN thresholds do not apply to credit links and are refused beside it.
 */
std::optional<ScaleUpSettings>
ParseScaleUp(const YamlInput& in, const YAML::Node& entry, const std::string& dimKey)
{
    const YAML::Node& node = entry["scale_up"];
    const std::string key = dimKey + ".scale_up";
    ScaleUpSettings s;
    if (!node.IsMap())
    {
        if (!in.Bool(node, key))
        {
            return std::nullopt;
        }
    }
    else
    {
        in.CheckKeys(node,
                     key,
                     {"vc_buffer",
                      "credit_latency",
                      "credit_batch",
                      "credit_interval",
                      "switch_latency",
                      "payload",
                      "header",
                      "flit"});
        if (node["vc_buffer"])
        {
            s.creditBytes = in.Bytes(node["vc_buffer"], key + ".vc_buffer");
            if (s.creditBytes == 0)
            {
                in.Fail(node["vc_buffer"], key + ".vc_buffer", "must be > 0");
            }
        }
        if (node["credit_latency"])
        {
            s.creditReturnPs = in.DelayPs(node["credit_latency"], key + ".credit_latency");
        }
        if (node["credit_batch"])
        {
            const uint64_t batch = in.Bytes(node["credit_batch"], key + ".credit_batch");
            if (batch > s.creditBytes)
            {
                in.Fail(node["credit_batch"],
                        key + ".credit_batch",
                        "must not exceed vc_buffer (" + std::to_string(s.creditBytes) + " B)");
            }
            s.creditBatchBytes = static_cast<uint32_t>(batch);
        }
        if (node["credit_interval"])
        {
            s.creditIntervalPs = in.DelayPs(node["credit_interval"], key + ".credit_interval");
        }
        if (node["switch_latency"])
        {
            s.switchLatencyPs = in.DelayPs(node["switch_latency"], key + ".switch_latency");
        }
        const auto size = [&](const char* name, uint64_t max)
        {
            const YAML::Node& v = node[name];
            const std::string where = key + "." + name;
            const uint64_t bytes = in.Bytes(v, where);
            if (bytes == 0 || bytes > max)
            {
                in.Fail(v, where, "must be between 1 B and " + std::to_string(max) + " B");
            }
            return static_cast<uint32_t>(bytes);
        };
        if (node["payload"])
        {
            s.payloadBytes = size("payload", 9000);
        }
        if (node["header"])
        {
            s.headerBytes = size("header", 4096);
        }
        if (node["flit"])
        {
            s.flitBytes = size("flit", 4096);
        }
    }
    if (entry["pfc_priorities"])
    {
        in.Fail(entry["pfc_priorities"],
                dimKey + ".pfc_priorities",
                "does not apply to a scale_up dimension (its links use credit flow "
                "control, not PFC)");
    }
    if (entry["ecn"])
    {
        in.Fail(entry["ecn"],
                dimKey + ".ecn",
                "does not apply to a scale_up dimension (scale-up links neither mark ECN "
                "nor stamp INT)");
    }
    return s;
}

std::vector<DimensionSpec>
ParseDimensions(const YamlInput& in, const YAML::Node& node, const LinkDefaults& defaults)
{
    in.RequireSequence(node, "dimensions");
    if (node.size() == 0)
    {
        in.Fail(node, "dimensions", "needs at least one dimension");
    }
    std::vector<DimensionSpec> dims;
    for (size_t d = 0; d < node.size(); ++d)
    {
        const std::string key = "dimensions[" + std::to_string(d) + "]";
        const YAML::Node& entry = node[d];
        in.CheckKeys(entry, key, {"topology", "npus", "name", "scale_up", MLFABRIC_LINK_KEYS});
        DimensionSpec spec;
        const std::string topology = in.String(in.Require(entry, "topology"), key + ".topology");
        if (!ParseDimensionTopology(topology, spec.topology))
        {
            in.Fail(entry["topology"],
                    key + ".topology",
                    "unknown topology '" + topology + "' (known: Ring, FullyConnected, Switch)");
        }
        spec.npus = static_cast<uint32_t>(
            in.Uint(in.Require(entry, "npus"), key + ".npus", 2, kMaxFabricNpus));
        spec.link = ParseLink(in, entry, key, defaults);
        spec.name =
            entry["name"] ? in.String(entry["name"], key + ".name") : "dim" + std::to_string(d);
        if (entry["scale_up"])
        {
            spec.scaleUp = ParseScaleUp(in, entry, key);
        }
        dims.push_back(spec);
    }
    return dims;
}

/** What the scale-out section builds, once its NPUs exist. */
struct ScaleOut
{
    std::string topology; //!< clos, fat-tree or rail
    uint32_t servers{0};  //!< servers connected
    ClosSpec clos;        //!< clos and fat-tree shape
    RailSpec rail;        //!< rail shape
    YAML::Node node;      //!< the section, for messages
};

uint32_t
ParseCount(const YamlInput& in, const YAML::Node& map, const char* key, uint64_t min)
{
    return static_cast<uint32_t>(
        in.Uint(in.Require(map, key), std::string("scale_out.") + key, min, 1u << 24));
}

ScaleOut
ParseScaleOut(const YamlInput& in,
              const YAML::Node& node,
              uint32_t npusPerServer,
              const LinkDefaults& defaults)
{
    ScaleOut out;
    out.node = node;
    in.RequireMap(node, "scale_out");
    out.topology = in.String(in.Require(node, "topology"), "scale_out.topology");
    if (out.topology == "clos")
    {
        in.CheckKeys(node,
                     "scale_out",
                     {"topology",
                      "servers",
                      "tiers",
                      "hosts_per_leaf",
                      "spines",
                      "oversubscription",
                      "leaves_per_pod",
                      "aggs_per_pod",
                      "cores",
                      "host_link",
                      "leaf_link",
                      "core_link"});
        out.servers = ParseCount(in, node, "servers", 1);
        ClosSpec& c = out.clos;
        c.tiers = node["tiers"]
                      ? static_cast<uint32_t>(in.Uint(node["tiers"], "scale_out.tiers", 2, 3))
                      : 2;
        c.hostsPerLeaf = ParseCount(in, node, "hosts_per_leaf", 1);
        c.hostLink =
            ParseLinkOnly(in, in.Require(node, "host_link"), "scale_out.host_link", defaults);
        if (node["leaf_link"])
        {
            c.leafLink = ParseLinkOnly(in, node["leaf_link"], "scale_out.leaf_link", defaults);
        }
        if (c.tiers == 2)
        {
            if (node["spines"] && node["oversubscription"])
            {
                in.Fail(node["oversubscription"],
                        "scale_out.oversubscription",
                        "give spines or oversubscription, not both");
            }
            if (node["oversubscription"])
            {
                c.spines = UplinksForOversubscription(
                    c.hostsPerLeaf,
                    c.hostLink.rateBps,
                    in.RateBps(in.Require(in.Require(node, "leaf_link"), "rate"),
                               "scale_out.leaf_link.rate"),
                    in.Number(node["oversubscription"], "scale_out.oversubscription"),
                    in.Where(node["oversubscription"]) + ": scale_out.oversubscription");
            }
            else
            {
                c.spines = ParseCount(in, node, "spines", 0);
            }
            if (c.spines > 0 && !node["leaf_link"])
            {
                in.Fail(node, "scale_out.leaf_link", "missing (spines need it)");
            }
            for (const char* key : {"leaves_per_pod", "aggs_per_pod", "cores", "core_link"})
            {
                if (node[key])
                {
                    in.Fail(node[key], std::string("scale_out.") + key, "only for tiers: 3");
                }
            }
        }
        else
        {
            c.leavesPerPod = ParseCount(in, node, "leaves_per_pod", 1);
            c.aggsPerPod = ParseCount(in, node, "aggs_per_pod", 1);
            c.cores = ParseCount(in, node, "cores", 1);
            in.Require(node, "leaf_link");
            c.coreLink =
                ParseLinkOnly(in, in.Require(node, "core_link"), "scale_out.core_link", defaults);
            for (const char* key : {"spines", "oversubscription"})
            {
                if (node[key])
                {
                    in.Fail(node[key], std::string("scale_out.") + key, "only for tiers: 2");
                }
            }
        }
    }
    else if (out.topology == "fat-tree")
    {
        in.CheckKeys(
            node,
            "scale_out",
            {"topology", "servers", "k", "oversubscription", "host_link", "agg_link", "core_link"});
        FatTreeSpec tree;
        tree.k = ParseCount(in, node, "k", 2);
        tree.oversubscription =
            node["oversubscription"]
                ? static_cast<uint32_t>(
                      in.Uint(node["oversubscription"], "scale_out.oversubscription", 1, 64))
                : 1;
        tree.hostLink =
            ParseLinkOnly(in, in.Require(node, "host_link"), "scale_out.host_link", defaults);
        tree.aggLink =
            ParseLinkOnly(in, in.Require(node, "agg_link"), "scale_out.agg_link", defaults);
        tree.coreLink =
            ParseLinkOnly(in, in.Require(node, "core_link"), "scale_out.core_link", defaults);
        try
        {
            out.clos = MakeFatTreeClosSpec(tree);
        }
        catch (const InputError& e)
        {
            in.Fail(node["k"], "scale_out", e.what());
        }
        const uint32_t hosts = GetFatTreeHosts(tree);
        if (hosts % npusPerServer != 0)
        {
            in.Fail(node,
                    "scale_out",
                    "a fat-tree of " + std::to_string(hosts) + " hosts cannot hold servers of " +
                        std::to_string(npusPerServer) + " NPUs");
        }
        out.servers = hosts / npusPerServer;
        if (node["servers"] && ParseCount(in, node, "servers", 1) != out.servers)
        {
            in.Fail(node["servers"],
                    "scale_out.servers",
                    "a fat-tree with k " + std::to_string(tree.k) + " holds " +
                        std::to_string(out.servers) + " servers of " +
                        std::to_string(npusPerServer) + " NPUs");
        }
    }
    else if (out.topology == "rail")
    {
        in.CheckKeys(node,
                     "scale_out",
                     {"topology",
                      "servers",
                      "servers_per_rail_switch",
                      "spines",
                      "oversubscription",
                      "nic_link",
                      "spine_link"});
        RailSpec& r = out.rail;
        r.servers = ParseCount(in, node, "servers", 1);
        out.servers = r.servers;
        r.serversPerRailSwitch = node["servers_per_rail_switch"]
                                     ? ParseCount(in, node, "servers_per_rail_switch", 1)
                                     : 0;
        r.nicLink = ParseLinkOnly(in, in.Require(node, "nic_link"), "scale_out.nic_link", defaults);
        if (node["spine_link"])
        {
            r.spineLink = ParseLinkOnly(in, node["spine_link"], "scale_out.spine_link", defaults);
        }
        if (node["spines"] && node["oversubscription"])
        {
            in.Fail(node["oversubscription"],
                    "scale_out.oversubscription",
                    "give spines or oversubscription, not both");
        }
        if (node["oversubscription"])
        {
            r.spines = UplinksForOversubscription(
                r.serversPerRailSwitch == 0 ? r.servers : r.serversPerRailSwitch,
                r.nicLink.rateBps,
                in.RateBps(in.Require(in.Require(node, "spine_link"), "rate"),
                           "scale_out.spine_link.rate"),
                in.Number(node["oversubscription"], "scale_out.oversubscription"),
                in.Where(node["oversubscription"]) + ": scale_out.oversubscription");
        }
        else
        {
            r.spines = node["spines"] ? ParseCount(in, node, "spines", 0) : 0;
        }
        if (r.spines > 0 && !node["spine_link"])
        {
            in.Fail(node, "scale_out.spine_link", "missing (spines need it)");
        }
    }
    else
    {
        in.Fail(node["topology"],
                "scale_out.topology",
                "unknown topology '" + out.topology + "' (known: clos, fat-tree, rail)");
    }
    return out;
}

/**
 * \param out a parsed scale-out section (none when its topology is empty)
 * \param npus NPUs of the fabric
 * \param npusPerServer NPUs of one server
 * \return the links AddScaleOut adds: one per NPU to its leaf or rail switch, every leaf
 *         to every spine (two tiers, rails), or leaves to aggregation switches and those to
 *         their cores (three tiers, fat-trees)
 */
double
CountScaleOutLinks(const ScaleOut& out, uint64_t npus, uint64_t npusPerServer)
{
    if (out.topology.empty())
    {
        return 0;
    }
    const double hosts = static_cast<double>(npus);
    if (out.topology == "rail")
    {
        const RailSpec& r = out.rail;
        const double perSwitch = r.serversPerRailSwitch == 0 ? r.servers : r.serversPerRailSwitch;
        const double leaves = static_cast<double>(npusPerServer) * r.servers / perSwitch;
        return hosts + leaves * r.spines;
    }
    const ClosSpec& c = out.clos;
    const double leaves = hosts / std::max<uint32_t>(c.hostsPerLeaf, 1);
    if (c.tiers == 2)
    {
        return hosts + leaves * c.spines;
    }
    const double pods = leaves / std::max<uint32_t>(c.leavesPerPod, 1);
    return hosts + pods * c.aggsPerPod * c.leavesPerPod + pods * c.cores;
}

/** Build the scale-out over the fabric's NPUs; returns its structural bisection. */
uint64_t
AddScaleOut(const YamlInput& in, Fabric& fabric, const ScaleOut& out, uint32_t npusPerServer)
{
    const auto dimension = static_cast<int32_t>(fabric.GetDimensions().size());
    try
    {
        if (out.topology == "rail")
        {
            fabric.AddDimension(FabricDimension{"scale-out", "Rail", out.servers, std::nullopt});
            AddRails(fabric, npusPerServer, out.rail, dimension);
            return RailBisectionBps(npusPerServer, out.rail);
        }
        fabric.AddDimension(FabricDimension{
            "scale-out", out.topology == "clos" ? "Clos" : "FatTree", out.servers, std::nullopt});
        AddClosOverNpus(fabric, out.clos, dimension);
    }
    catch (const InputError& e)
    {
        in.Fail(out.node, "scale_out", e.what());
    }
    // Servers must not straddle the rank halves for the Clos figure to hold.
    return out.servers % 2 == 0 || npusPerServer == 1
               ? ClosBisectionBps(fabric.GetNpuCount(), out.clos)
               : 0;
}

void
AddExplicitSwitches(const YamlInput& in, Fabric& fabric, const YAML::Node& node)
{
    in.RequireSequence(node, "switches");
    for (size_t i = 0; i < node.size(); ++i)
    {
        const std::string key = "switches[" + std::to_string(i) + "]";
        const YAML::Node& entry = node[i];
        in.CheckKeys(entry, key, {"name", "role", "tier", "buffer"});
        const std::string name = in.String(in.Require(entry, "name"), key + ".name");
        if (fabric.FindNode(name) != Fabric::kNoNode)
        {
            in.Fail(entry["name"], key + ".name", "a node named '" + name + "' exists already");
        }
        const std::string role = entry["role"] ? in.String(entry["role"], key + ".role") : "switch";
        const auto tier =
            entry["tier"] ? static_cast<uint32_t>(in.Uint(entry["tier"], key + ".tier", 1, 16)) : 1;
        const uint32_t id = fabric.AddSwitch(name, role, tier);
        if (entry["buffer"])
        {
            fabric.SetSwitchBuffer(id, in.Bytes(entry["buffer"], key + ".buffer"));
        }
    }
}

void
AddExplicitLinks(const YamlInput& in,
                 Fabric& fabric,
                 const YAML::Node& node,
                 const LinkDefaults& defaults)
{
    in.RequireSequence(node, "links");
    for (size_t i = 0; i < node.size(); ++i)
    {
        const std::string key = "links[" + std::to_string(i) + "]";
        const YAML::Node& entry = node[i];
        in.CheckKeys(entry, key, {"a", "b", "dimension", MLFABRIC_LINK_KEYS});
        uint32_t ends[2];
        const char* names[] = {"a", "b"};
        for (int e = 0; e < 2; ++e)
        {
            const std::string name = in.String(in.Require(entry, names[e]), key + "." + names[e]);
            ends[e] = fabric.FindNode(name);
            if (ends[e] == Fabric::kNoNode)
            {
                in.Fail(entry[names[e]], key + "." + names[e], "no node named '" + name + "'");
            }
        }
        if (ends[0] == ends[1])
        {
            in.Fail(entry, key, "links a node to itself");
        }
        int32_t dimension = -1;
        if (entry["dimension"])
        {
            dimension = static_cast<int32_t>(
                in.Uint(entry["dimension"],
                        key + ".dimension",
                        0,
                        fabric.GetDimensions().empty() ? 0 : fabric.GetDimensions().size() - 1));
            if (fabric.GetDimensions().empty())
            {
                in.Fail(entry["dimension"], key + ".dimension", "the fabric has no dimensions");
            }
        }
        fabric.AddLink(ends[0], ends[1], ParseLink(in, entry, key, defaults), dimension);
    }
}

/** True when some link joins two NPUs (rings and meshes route through NPUs). */
bool
HasNpuToNpuLinks(const Fabric& fabric)
{
    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        const FabricLink& link = fabric.GetLink(l);
        if (fabric.IsNpu(link.nodeA) && fabric.IsNpu(link.nodeB))
        {
            return true;
        }
    }
    return false;
}

} // namespace

Fabric
ReadFabricYaml(const std::string& path, RoutingAlgorithm& routing)
{
    const YamlInput in(path);
    const YAML::Node& root = in.GetRoot();
    if (!root.IsMap())
    {
        throw InputError(path +
                         ": a fabric file is a map of keys (name, dimensions, scale_out, ...)");
    }
    in.CheckKeys(root,
                 "",
                 {"name",
                  "description",
                  "routing",
                  "npu_forwarding",
                  "defaults",
                  "switch_buffers",
                  "dimensions",
                  "scale_out",
                  "npus",
                  "switches",
                  "links"});
    const std::string name = root["name"] ? in.String(root["name"], "name") : GetFileStem(path);
    routing = RoutingAlgorithm::ShortestPath;
    if (root["routing"])
    {
        const std::string text = in.String(root["routing"], "routing");
        if (!ParseRoutingAlgorithm(text, routing))
        {
            in.Fail(root["routing"],
                    "routing",
                    "unknown routing '" + text + "' (known: shortest, dimension-order)");
        }
    }

    LinkDefaults defaults;
    uint64_t buffer = 32ULL << 20;
    uint64_t relayBuffer = 0;
    if (root["defaults"])
    {
        ParseDefaults(in, root["defaults"], defaults, buffer, relayBuffer);
    }
    std::vector<DimensionSpec> dims;
    uint64_t perServer = 1;
    if (root["dimensions"])
    {
        dims = ParseDimensions(in, root["dimensions"], defaults);
        for (const auto& dim : dims)
        {
            perServer *= dim.npus;
            if (perServer > kMaxFabricNpus)
            {
                in.Fail(root["dimensions"],
                        "dimensions",
                        "more than " + std::to_string(kMaxFabricNpus) + " NPUs");
            }
        }
    }
    ScaleOut scaleOut;
    uint64_t npus = perServer;
    if (root["scale_out"])
    {
        scaleOut = ParseScaleOut(in, root["scale_out"], static_cast<uint32_t>(perServer), defaults);
        npus = perServer * scaleOut.servers;
        if (npus > kMaxFabricNpus)
        {
            in.Fail(root["scale_out"],
                    "scale_out",
                    "more than " + std::to_string(kMaxFabricNpus) + " NPUs");
        }
    }
    if (root["npus"])
    {
        const uint64_t given = in.Uint(root["npus"], "npus", 2, kMaxFabricNpus);
        if ((root["dimensions"] || root["scale_out"]) && given != npus)
        {
            in.Fail(root["npus"],
                    "npus",
                    "is " + std::to_string(given) + " but dimensions and scale_out give " +
                        std::to_string(npus));
        }
        npus = given;
    }
    else if (!root["dimensions"] && !root["scale_out"])
    {
        throw InputError(path + ": needs dimensions, scale_out or npus");
    }

    if (root["dimensions"] || root["scale_out"])
    {
        const char* key = root["scale_out"] ? "scale_out" : "dimensions";
        const double links = CountDimensionLinks(dims, static_cast<double>(npus)) +
                             CountScaleOutLinks(scaleOut, npus, perServer);
        CheckFabricSize(static_cast<double>(npus), links, in.Where(root[key]) + ": " + key);
    }

    Fabric fabric(name);
    fabric.SetDefaultSwitchBuffer(buffer);
    fabric.SetRelayBuffer(relayBuffer);
    for (uint64_t i = 0; i < npus; ++i)
    {
        fabric.AddNpu();
    }
    uint64_t bisection = 0;
    if (!dims.empty())
    {
        try
        {
            AddDimensionLinks(fabric, dims);
        }
        catch (const InputError& e)
        {
            in.Fail(root["dimensions"], "dimensions", e.what());
        }
        bisection = MultiDimBisectionBps(dims);
    }
    if (root["scale_out"])
    {
        bisection = AddScaleOut(in, fabric, scaleOut, static_cast<uint32_t>(perServer));
    }
    if (root["switches"])
    {
        AddExplicitSwitches(in, fabric, root["switches"]);
        bisection = 0;
    }
    if (root["links"])
    {
        AddExplicitLinks(in, fabric, root["links"], defaults);
        bisection = 0;
    }
    fabric.SetStructuralBisection(bisection);

    if (root["switch_buffers"])
    {
        const YAML::Node& roles = root["switch_buffers"];
        in.RequireMap(roles, "switch_buffers");
        for (const auto& entry : roles)
        {
            const std::string role = entry.first.Scalar();
            const uint64_t bytes = in.Bytes(entry.second, "switch_buffers." + role);
            bool found = false;
            for (uint32_t node = 0; node < fabric.GetNodeCount(); ++node)
            {
                if (!fabric.IsNpu(node) && fabric.GetNode(node).role == role)
                {
                    fabric.SetSwitchBuffer(node, bytes);
                    found = true;
                }
            }
            if (!found)
            {
                in.Fail(entry.first, "switch_buffers." + role, "no switch has role '" + role + "'");
            }
        }
    }

    const std::string forwarding =
        root["npu_forwarding"] ? in.String(root["npu_forwarding"], "npu_forwarding") : "auto";
    if (forwarding == "auto")
    {
        // Dimension-order routing moves a message one dimension at a time: the NPU where it
        // turns from one dimension into the next carries it.
        const bool turnsAtNpus =
            routing == RoutingAlgorithm::DimensionOrder && fabric.GetDimensions().size() > 1;
        fabric.SetNpuForwarding(HasNpuToNpuLinks(fabric) || NpusNeedForwarding(fabric) ||
                                turnsAtNpus);
    }
    else
    {
        fabric.SetNpuForwarding(in.Bool(root["npu_forwarding"], "npu_forwarding"));
    }
    CheckFabric(fabric, path);
    return fabric;
}

} // namespace ns3
