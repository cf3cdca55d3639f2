/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-partition.h"

#include "ns3/input-error.h"
#include "ns3/input-file.h"
#include "ns3/units.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>
#include <tuple>

namespace ns3
{

namespace
{

/** Union-find over node ids. */
class NodeSets
{
  public:
    explicit NodeSets(uint32_t n)
        : m_parent(n)
    {
        std::iota(m_parent.begin(), m_parent.end(), 0);
    }

    uint32_t
    Find(uint32_t x)
    {
        while (m_parent[x] != x)
        {
            m_parent[x] = m_parent[m_parent[x]];
            x = m_parent[x];
        }
        return x;
    }

    void
    Join(uint32_t a, uint32_t b)
    {
        a = Find(a);
        b = Find(b);
        if (a != b)
        {
            m_parent[std::max(a, b)] = std::min(a, b);
        }
    }

  private:
    std::vector<uint32_t> m_parent;
};

/** \return true if link \p l may be cut: it is not a scale-up link */
bool
IsCuttable(const Fabric& fabric, uint32_t l)
{
    return fabric.GetLinkScaleUp(l) == nullptr;
}

/** Fill the cut links, lookahead and per-process counts of \p p from its processOf. */
void
Summarize(const Fabric& fabric, FabricPartition& p)
{
    p.cutLinks.clear();
    p.nodesOf.assign(p.processes, 0);
    p.npusOf.assign(p.processes, 0);
    for (uint32_t n = 0; n < fabric.GetNodeCount(); ++n)
    {
        ++p.nodesOf[p.processOf[n]];
        p.npusOf[p.processOf[n]] += fabric.IsNpu(n) ? 1 : 0;
    }
    int64_t lookahead = std::numeric_limits<int64_t>::max();
    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        const FabricLink& link = fabric.GetLink(l);
        if (p.processOf[link.nodeA] != p.processOf[link.nodeB])
        {
            p.cutLinks.push_back(l);
            lookahead = std::min(lookahead, link.settings.delayPs);
        }
    }
    p.lookaheadPs = p.cutLinks.empty() ? 0 : lookahead;
}

/**
 * \return the units that stay on one process: components joined by scale-up links and,
 *         with \p joinBelow, by every RoCE link shorter than it
 */
std::vector<std::vector<uint32_t>>
UnitsOf(const Fabric& fabric, int64_t joinBelow)
{
    NodeSets sets(fabric.GetNodeCount());
    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        const FabricLink& link = fabric.GetLink(l);
        if (!IsCuttable(fabric, l) || link.settings.delayPs < joinBelow)
        {
            sets.Join(link.nodeA, link.nodeB);
        }
    }
    // Units in the order of their first NPU; NPU-less components are not units.
    std::map<uint32_t, std::vector<uint32_t>> byRoot;
    std::vector<uint32_t> order;
    for (uint32_t r = 0; r < fabric.GetNpuCount(); ++r)
    {
        const uint32_t root = sets.Find(fabric.GetNpuNode(r));
        if (byRoot.find(root) == byRoot.end())
        {
            order.push_back(root);
            byRoot[root];
        }
    }
    for (uint32_t n = 0; n < fabric.GetNodeCount(); ++n)
    {
        auto it = byRoot.find(sets.Find(n));
        if (it != byRoot.end())
        {
            it->second.push_back(n);
        }
    }
    std::vector<std::vector<uint32_t>> units;
    for (uint32_t root : order)
    {
        units.push_back(std::move(byRoot[root]));
    }
    return units;
}

/** \return the NPUs of \p unit */
uint32_t
NpusIn(const Fabric& fabric, const std::vector<uint32_t>& unit)
{
    return static_cast<uint32_t>(
        std::count_if(unit.begin(), unit.end(), [&](uint32_t n) { return fabric.IsNpu(n); }));
}

/** Give each unit, in order, to a process, in contiguous blocks of even NPU counts. */
void
AssignUnits(const Fabric& fabric,
            const std::vector<std::vector<uint32_t>>& units,
            FabricPartition& p)
{
    const uint32_t npus = fabric.GetNpuCount();
    uint64_t placed = 0;
    uint32_t process = 0;
    uint32_t unitsHere = 0;
    for (size_t u = 0; u < units.size(); ++u)
    {
        // Move on once this process holds its share, keeping a unit for each one after it.
        const bool full = placed * p.processes >= static_cast<uint64_t>(npus) * (process + 1);
        const bool needed = units.size() - u <= p.processes - 1 - process;
        if (process + 1 < p.processes && unitsHere > 0 && (full || needed))
        {
            ++process;
            unitsHere = 0;
        }
        for (uint32_t n : units[u])
        {
            p.processOf[n] = process;
        }
        placed += NpusIn(fabric, units[u]);
        ++unitsHere;
    }
}

/** Place every node no unit holds (switches outside them) by its neighbours. */
void
PlaceRemainingSwitches(const Fabric& fabric, std::vector<bool>& placed, FabricPartition& p)
{
    std::vector<uint32_t> nodes(p.processes, 0);
    for (uint32_t n = 0; n < fabric.GetNodeCount(); ++n)
    {
        nodes[p.processOf[n]] += placed[n] ? 1 : 0;
    }
    // Lower tiers first, so that a spine sees where its leaves went.
    std::vector<uint32_t> order;
    for (uint32_t n = 0; n < fabric.GetNodeCount(); ++n)
    {
        if (!placed[n])
        {
            order.push_back(n);
        }
    }
    std::stable_sort(order.begin(),
                     order.end(),
                     [&](uint32_t a, uint32_t b)
                     { return fabric.GetNode(a).tier < fabric.GetNode(b).tier; });
    for (uint32_t n : order)
    {
        std::vector<uint64_t> npuLinks(p.processes, 0);
        std::vector<uint64_t> links(p.processes, 0);
        for (const FabricPort& port : fabric.GetPorts(n))
        {
            if (!placed[port.peer])
            {
                continue;
            }
            ++links[p.processOf[port.peer]];
            npuLinks[p.processOf[port.peer]] += fabric.IsNpu(port.peer) ? 1 : 0;
        }
        uint32_t best = 0;
        for (uint32_t q = 1; q < p.processes; ++q)
        {
            const auto key = [&](uint32_t x)
            {
                return std::make_tuple(npuLinks[x], links[x], -static_cast<int64_t>(nodes[x]));
            };
            if (key(q) > key(best))
            {
                best = q;
            }
        }
        p.processOf[n] = best;
        placed[n] = true;
        ++nodes[best];
    }
}

/** Throw unless every process has a node and no scale-up link is cut. */
void
CheckPartition(const Fabric& fabric, const FabricPartition& p, const std::string& where)
{
    for (uint32_t q = 0; q < p.processes; ++q)
    {
        if (p.nodesOf[q] == 0)
        {
            throw InputError(where + ": process " + std::to_string(q) + " of " +
                             std::to_string(p.processes) + " has no node");
        }
    }
    for (uint32_t l : p.cutLinks)
    {
        if (!IsCuttable(fabric, l))
        {
            const FabricLink& link = fabric.GetLink(l);
            throw InputError(where + ": the scale-up link " + fabric.GetNode(link.nodeA).name +
                             " - " + fabric.GetNode(link.nodeB).name + " joins processes " +
                             std::to_string(p.processOf[link.nodeA]) + " and " +
                             std::to_string(p.processOf[link.nodeB]) +
                             ": scale-up links return credits directly and cannot be cut");
        }
    }
}

} // namespace

FabricPartition
PartitionFabric(const Fabric& fabric, uint32_t processes)
{
    FabricPartition p;
    p.processes = std::max<uint32_t>(processes, 1);
    p.processOf.assign(fabric.GetNodeCount(), 0);
    // Two delays or more: try to cut only the longest links (the most lookahead).
    int64_t longest = 0;
    int64_t shortest = std::numeric_limits<int64_t>::max();
    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        if (IsCuttable(fabric, l))
        {
            longest = std::max(longest, fabric.GetLink(l).settings.delayPs);
            shortest = std::min(shortest, fabric.GetLink(l).settings.delayPs);
        }
    }
    std::vector<std::vector<uint32_t>> units;
    if (shortest < longest)
    {
        units = UnitsOf(fabric, longest);
        p.method = "automatic, cut on the " + FormatTime(PicoSeconds(longest)) + " links";
    }
    if (units.size() < p.processes)
    {
        units = UnitsOf(fabric, 0);
        p.method = "automatic, by scale-up domain and leaf";
    }
    if (units.size() < p.processes)
    {
        throw InputError("fabric '" + fabric.GetName() + "': cannot split across " +
                         std::to_string(p.processes) + " processes: it has " +
                         std::to_string(units.size()) +
                         " part(s) that stay whole (scale-up domains and NPUs outside one)");
    }
    std::vector<bool> placed(fabric.GetNodeCount(), false);
    for (const auto& unit : units)
    {
        for (uint32_t n : unit)
        {
            placed[n] = true;
        }
    }
    AssignUnits(fabric, units, p);
    PlaceRemainingSwitches(fabric, placed, p);
    Summarize(fabric, p);
    CheckPartition(fabric, p, "fabric '" + fabric.GetName() + "'");
    return p;
}

FabricPartition
ReadFabricPartition(const std::string& path, const Fabric& fabric, uint32_t processes)
{
    CheckInputFile(path, "partition file");
    std::ifstream in(path);
    FabricPartition p;
    p.processes = processes;
    p.method = "from " + path;
    constexpr uint32_t kUnset = std::numeric_limits<uint32_t>::max();
    p.processOf.assign(fabric.GetNodeCount(), kUnset);
    std::vector<uint32_t> lineOf(fabric.GetNodeCount(), 0);
    std::string line;
    for (uint32_t number = 1; std::getline(in, line); ++number)
    {
        const std::string where = path + ":" + std::to_string(number);
        line = line.substr(0, line.find('#'));
        std::istringstream fields(line);
        std::string name;
        std::string process;
        std::string extra;
        if (!(fields >> name))
        {
            continue;
        }
        if (!(fields >> process) || (fields >> extra))
        {
            throw InputError(where + ": expected '<node name> <process>'");
        }
        const uint32_t node = fabric.FindNode(name);
        if (node == Fabric::kNoNode)
        {
            throw InputError(where + ": fabric '" + fabric.GetName() + "' has no node '" + name +
                             "'");
        }
        if (p.processOf[node] != kUnset)
        {
            throw InputError(where + ": node '" + name + "' is already on line " +
                             std::to_string(lineOf[node]));
        }
        if (process.empty() || process.find_first_not_of("0123456789") != std::string::npos ||
            process.size() > 9 || std::stoul(process) >= processes)
        {
            throw InputError(where + ": node '" + name + "': process '" + process +
                             "' is not one of 0.." + std::to_string(processes - 1));
        }
        p.processOf[node] = static_cast<uint32_t>(std::stoul(process));
        lineOf[node] = number;
    }
    for (uint32_t n = 0; n < fabric.GetNodeCount(); ++n)
    {
        if (p.processOf[n] == kUnset)
        {
            throw InputError(path + ": node '" + fabric.GetNode(n).name +
                             "' is on no process (every node of fabric '" + fabric.GetName() +
                             "' needs a line)");
        }
    }
    Summarize(fabric, p);
    CheckPartition(fabric, p, path);
    return p;
}

std::string
DescribeFabricPartition(const Fabric& fabric, const FabricPartition& p)
{
    std::ostringstream out;
    out << "partition: " << p.processes << " processes (" << p.method << "); nodes/NPUs";
    for (uint32_t q = 0; q < p.processes; ++q)
    {
        out << (q == 0 ? " " : ", ") << p.nodesOf[q] << "/" << p.npusOf[q];
    }
    out << "; " << p.cutLinks.size() << " of " << fabric.GetLinkCount() << " links cut";
    if (!p.cutLinks.empty())
    {
        out << ", lookahead " << FormatTime(PicoSeconds(p.lookaheadPs));
    }
    return out.str();
}

} // namespace ns3
