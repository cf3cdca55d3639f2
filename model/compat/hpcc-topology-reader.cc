/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-topology-reader.h"

#include "ns3/astra-network-reader.h"
#include "ns3/fabric-check.h"
#include "ns3/input-error.h"
#include "ns3/input-file.h"
#include "ns3/log.h"
#include "ns3/units.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccTopologyReader");

namespace
{

/** Whitespace-separated words of a file, each with its line number. */
class WordReader
{
  public:
    explicit WordReader(const std::string& path)
        : m_path(path)
    {
        CheckInputFile(path);
        std::ifstream in(path);
        if (!in)
        {
            throw InputError(path + ": cannot open");
        }
        std::string line;
        uint32_t number = 0;
        while (std::getline(in, line))
        {
            ++number;
            std::istringstream words(line);
            std::string word;
            while (words >> word)
            {
                m_words.emplace_back(word, number);
            }
        }
    }

    /** \param what what the word should be \return the next word */
    const std::string&
    Next(const std::string& what)
    {
        if (m_next >= m_words.size())
        {
            throw InputError(m_path + ": ends early: " + what + " missing");
        }
        return m_words[m_next++].first;
    }

    /** \return "<file>:<line>" of the last word read */
    std::string
    Where() const
    {
        const uint32_t line = m_words.empty() ? 1 : m_words[m_next == 0 ? 0 : m_next - 1].second;
        return m_path + ":" + std::to_string(line);
    }

    /** \return the next word as a whole number below \p limit */
    uint32_t
    NextUint(const std::string& what, uint64_t limit)
    {
        const std::string& word = Next(what);
        size_t used = 0;
        unsigned long long value = 0;
        try
        {
            value = std::stoull(word, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        if (used == 0 || used != word.size() || word[0] == '-')
        {
            throw InputError(Where() + ": " + what + ": not a whole number (got '" + word + "')");
        }
        if (value >= limit)
        {
            throw InputError(Where() + ": " + what + ": " + word +
                             " is out of range (must be below " + std::to_string(limit) + ")");
        }
        return static_cast<uint32_t>(value);
    }

  private:
    std::string m_path;                                    //!< the file
    std::vector<std::pair<std::string, uint32_t>> m_words; //!< word, line
    size_t m_next{0};                                      //!< next word to read
};

/** One parsed link line. */
struct LinkLine
{
    uint32_t a, b;
    LinkSettings settings;
};

/** Tier of each switch: its hop distance from the nearest host. */
std::vector<uint32_t>
SwitchTiers(uint32_t nodes, const std::vector<bool>& isSwitch, const std::vector<LinkLine>& links)
{
    std::vector<std::vector<uint32_t>> adjacent(nodes);
    for (const auto& link : links)
    {
        adjacent[link.a].push_back(link.b);
        adjacent[link.b].push_back(link.a);
    }
    std::vector<uint32_t> tier(nodes, Fabric::kNoNode);
    std::vector<uint32_t> queue;
    for (uint32_t v = 0; v < nodes; ++v)
    {
        if (!isSwitch[v])
        {
            tier[v] = 0;
            queue.push_back(v);
        }
    }
    for (size_t head = 0; head < queue.size(); ++head)
    {
        for (uint32_t w : adjacent[queue[head]])
        {
            if (tier[w] == Fabric::kNoNode)
            {
                tier[w] = tier[queue[head]] + 1;
                queue.push_back(w);
            }
        }
    }
    return tier;
}

/** \return the name node \p id gets in the fabric */
std::string
NodeName(uint32_t id, const std::vector<bool>& isSwitch)
{
    return (isSwitch[id] ? "switch" : "host") + std::to_string(id);
}

/**
 * CheckFabric's connectivity rule, applied to the links before any node is built, so
 * that a header announcing millions of nodes costs 4 bytes per node, not a fabric, when
 * its links leave them apart. Throws InputError as CheckFabric does.
 * \param path the file
 * \param isSwitch per node id, whether it is a switch (at least two are not)
 * \param links the links read
 */
void
CheckConnected(const std::string& path,
               const std::vector<bool>& isSwitch,
               const std::vector<LinkLine>& links)
{
    const auto nodes = static_cast<uint32_t>(isSwitch.size());
    std::vector<uint32_t> parent(nodes);
    for (uint32_t v = 0; v < nodes; ++v)
    {
        parent[v] = v;
    }
    auto root = [&parent](uint32_t v)
    {
        while (parent[v] != v)
        {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        return v;
    };
    uint32_t parts = nodes;
    for (const auto& link : links)
    {
        const uint32_t a = root(link.a);
        const uint32_t b = root(link.b);
        if (a != b)
        {
            parent[a] = b;
            --parts;
        }
    }
    if (parts == 1)
    {
        return;
    }
    uint32_t firstHost = 0;
    while (isSwitch[firstHost])
    {
        ++firstHost;
    }
    uint32_t apart = 0;
    while (root(apart) == root(firstHost))
    {
        ++apart;
    }
    throw InputError(path + ": fabric '" + GetFileStem(path) + "': graph is disconnected (" +
                     std::to_string(parts) + " parts): '" + NodeName(apart, isSwitch) +
                     "' cannot reach '" + NodeName(firstHost, isSwitch) + "'");
}

} // namespace

Fabric
ReadHpccTopology(const std::string& path, const LinkDefaults& defaults)
{
    WordReader words(path);
    const uint32_t nodes = words.NextUint("node count", 1u << 24);
    const uint32_t switches = words.NextUint("switch count", uint64_t{nodes} + 1);
    const uint32_t linkCount = words.NextUint("link count", 1u << 28);
    std::vector<bool> isSwitch(nodes, false);
    for (uint32_t i = 0; i < switches; ++i)
    {
        const uint32_t id = words.NextUint("switch id " + std::to_string(i + 1), nodes);
        if (isSwitch[id])
        {
            throw InputError(words.Where() + ": switch id " + std::to_string(id) + " listed twice");
        }
        isSwitch[id] = true;
    }
    std::vector<LinkLine> links;
    for (uint32_t i = 0; i < linkCount; ++i)
    {
        const std::string what = "link " + std::to_string(i + 1);
        LinkLine link{};
        link.a = words.NextUint(what + " source node", nodes);
        link.b = words.NextUint(what + " destination node", nodes);
        if (link.a == link.b)
        {
            throw InputError(words.Where() + ": " + what + ": links node " +
                             std::to_string(link.a) + " to itself");
        }
        // The simulator hands both words to ns-3 as strings: DataRate and Time semantics.
        const uint64_t rate =
            ParseNs3DataRate(words.Next(what + " rate"), words.Where() + ": " + what + " rate");
        const Time delay =
            ParseNs3Time(words.Next(what + " delay"), words.Where() + ": " + what + " delay");
        const std::string& lossText = words.Next(what + " error rate");
        double loss = -1;
        size_t used = 0;
        try
        {
            loss = std::stod(lossText, &used);
        }
        catch (const std::exception&)
        {
            loss = -1;
        }
        if (used != lossText.size())
        {
            loss = -1;
        }
        if (!(loss >= 0 && loss <= 1))
        {
            throw InputError(words.Where() + ": " + what + " error rate: must be in [0, 1] (got '" +
                             lossText + "')");
        }
        link.settings = defaults.Make(rate, delay.GetPicoSeconds());
        link.settings.lossProbability = loss;
        links.push_back(link);
    }

    if (nodes - switches >= 2)
    {
        CheckConnected(path, isSwitch, links);
    }
    const std::vector<uint32_t> tiers = SwitchTiers(nodes, isSwitch, links);
    Fabric fabric(GetFileStem(path));
    for (uint32_t id = 0; id < nodes; ++id)
    {
        if (isSwitch[id])
        {
            fabric.AddSwitch("switch" + std::to_string(id),
                             "switch",
                             tiers[id] == Fabric::kNoNode ? 1 : tiers[id]);
        }
        else
        {
            fabric.AddNpu("host" + std::to_string(id));
        }
    }
    for (const auto& link : links)
    {
        fabric.AddLink(link.a, link.b, link.settings);
    }
    fabric.SetNpuForwarding(false);
    CheckFabric(fabric, path);
    return fabric;
}

} // namespace ns3
