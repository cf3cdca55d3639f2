/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-loader.h"

#include "ns3/astra-network-reader.h"
#include "ns3/fabric-yaml-reader.h"
#include "ns3/hpcc-topology-reader.h"
#include "ns3/input-error.h"
#include "ns3/input-file.h"
#include "ns3/log.h"
#include "ns3/yaml-input.h"

#include <fstream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricLoader");

namespace
{

/** True when the first line that holds anything is three whole numbers. */
bool
LooksLikeHpccTopology(const std::string& path)
{
    CheckInputFile(path);
    std::ifstream in(path);
    if (!in)
    {
        throw InputError(path + ": cannot open");
    }
    std::string line;
    while (std::getline(in, line))
    {
        std::istringstream words(line);
        std::string word;
        int count = 0;
        while (words >> word)
        {
            if (word.find_first_not_of("0123456789") != std::string::npos)
            {
                return false;
            }
            ++count;
        }
        if (count > 0)
        {
            return count == 3;
        }
    }
    return false;
}

} // namespace

LoadedFabric
LoadFabric(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    if (LooksLikeHpccTopology(path))
    {
        return LoadedFabric{ReadHpccTopology(path), RoutingAlgorithm::ShortestPath, "hpcc"};
    }
    const YamlInput probe(path);
    if (probe.GetRoot().IsMap() && probe.GetRoot()["npus_count"])
    {
        return LoadedFabric{ReadAstraNetwork(path), RoutingAlgorithm::ShortestPath, "astra-sim"};
    }
    RoutingAlgorithm routing = RoutingAlgorithm::ShortestPath;
    Fabric fabric = ReadFabricYaml(path, routing);
    return LoadedFabric{std::move(fabric), routing, "mlfabric"};
}

} // namespace ns3
