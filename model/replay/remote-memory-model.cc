/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "remote-memory-model.h"

#include "ns3/collective-config-json.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/units.h"

#include <algorithm>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RemoteMemoryModel");

namespace
{

/** \return the number under \p key, checked to be >= 0 (> 0 if \p positive) */
double
ReadNumber(const ConfigJson& doc, const std::string& key, bool positive)
{
    const auto& root = doc.Root();
    if (!root.contains(key))
    {
        throw InputError(doc.Source() + ": key \"" + key + "\" is missing");
    }
    const auto& v = root.at(key);
    if (!v.is_number() || v.get<double>() < 0 || (positive && !(v.get<double>() > 0)))
    {
        throw InputError(doc.Where(key) + ": expected a number " + (positive ? "> 0" : ">= 0") +
                         ", got " + v.dump());
    }
    return v.get<double>();
}

/**
 * \return the latency under \p key in ns: a JSON number is ASTRA-sim's nanoseconds, a
 * string a duration with its unit (doc/units.md)
 */
double
ReadLatencyNs(const ConfigJson& doc, const std::string& key)
{
    const auto& root = doc.Root();
    if (root.contains(key) && root.at(key).is_string())
    {
        return static_cast<double>(
                   ParseTime(root.at(key).get<std::string>(), doc.Where(key)).GetPicoSeconds()) /
               1000;
    }
    return ReadNumber(doc, key, false);
}

/**
 * \return the bandwidth under \p key in B/ns (GB/s): a JSON number is ASTRA-sim's GB/s, a
 * string a rate with its unit (doc/units.md)
 */
double
ReadBandwidthBytesPerNs(const ConfigJson& doc, const std::string& key)
{
    const auto& root = doc.Root();
    if (root.contains(key) && root.at(key).is_string())
    {
        return static_cast<double>(ParseRateBps(root.at(key).get<std::string>(), doc.Where(key))) /
               8e9;
    }
    return ReadNumber(doc, key, true);
}

/** \return the whole number under \p key, at least 1 */
uint32_t
ReadCount(const ConfigJson& doc, const std::string& key)
{
    const double v = ReadNumber(doc, key, true);
    if (v != static_cast<double>(static_cast<uint32_t>(v)))
    {
        throw InputError(doc.Where(key) + ": expected a whole number, got " +
                         doc.Root().at(key).dump());
    }
    return static_cast<uint32_t>(v);
}

} // namespace

RemoteMemoryConfig
LoadRemoteMemoryConfig(const std::string& path)
{
    return ParseRemoteMemoryConfig(ConfigJson::ReadFile(path), path);
}

RemoteMemoryConfig
ParseRemoteMemoryConfig(const std::string& text, const std::string& source)
{
    const ConfigJson doc = ConfigJson::Parse(text, source);
    if (!doc.Root().is_object())
    {
        throw InputError(source + ": expected a JSON object");
    }
    static const std::map<std::string, RemoteMemoryType> kTypes = {
        {"NO_MEMORY_EXPANSION", RemoteMemoryType::NoExpansion},
        {"PER_NPU_MEMORY_EXPANSION", RemoteMemoryType::PerNpu},
        {"PER_NODE_MEMORY_EXPANSION", RemoteMemoryType::PerNode},
        {"MEMORY_POOL", RemoteMemoryType::Pool},
    };
    static const char* kKeys[] = {
        "memory-type", "remote-mem-latency", "remote-mem-bw", "num-nodes", "num-npus-per-node"};
    for (const auto& item : doc.Root().items())
    {
        if (std::find(std::begin(kKeys), std::end(kKeys), item.key()) == std::end(kKeys))
        {
            throw InputError(doc.Where(item.key()) + ": unknown key");
        }
    }
    RemoteMemoryConfig config;
    config.source = source;
    if (!doc.Root().contains("memory-type"))
    {
        throw InputError(source + ": key \"memory-type\" is missing");
    }
    const auto& type = doc.Root().at("memory-type");
    auto known = type.is_string() ? kTypes.find(type.get<std::string>()) : kTypes.end();
    if (known == kTypes.end())
    {
        throw InputError(doc.Where("memory-type") + ": unknown memory type " + type.dump() +
                         " (known: NO_MEMORY_EXPANSION, PER_NPU_MEMORY_EXPANSION, "
                         "PER_NODE_MEMORY_EXPANSION, MEMORY_POOL)");
    }
    config.type = known->second;
    if (config.type == RemoteMemoryType::NoExpansion)
    {
        return config;
    }
    config.latencyNs = ReadLatencyNs(doc, "remote-mem-latency");
    config.bandwidthBytesPerNs = ReadBandwidthBytesPerNs(doc, "remote-mem-bw");
    if (config.type == RemoteMemoryType::PerNode)
    {
        config.nodes = ReadCount(doc, "num-nodes");
        config.npusPerNode = ReadCount(doc, "num-npus-per-node");
    }
    return config;
}

RemoteMemoryModel::RemoteMemoryModel(const RemoteMemoryConfig& config, uint32_t rankCount)
    : m_config(config)
{
    switch (config.type)
    {
    case RemoteMemoryType::PerNode:
        if (static_cast<uint64_t>(config.nodes) * config.npusPerNode < rankCount)
        {
            throw InputError(
                config.source + ": num-nodes x num-npus-per-node = " +
                std::to_string(static_cast<uint64_t>(config.nodes) * config.npusPerNode) +
                " NPUs, but the workload has " + std::to_string(rankCount));
        }
        m_busyUntil.assign(config.nodes, 0);
        break;
    case RemoteMemoryType::Pool:
        m_busyUntil.assign(1, 0);
        break;
    default:
        break;
    }
}

uint64_t
RemoteMemoryModel::ServiceNs(uint64_t bytes) const
{
    return static_cast<uint64_t>(m_config.latencyNs +
                                 static_cast<double>(bytes) / m_config.bandwidthBytesPerNs);
}

uint64_t
RemoteMemoryModel::Access(uint32_t rank, uint64_t bytes, uint64_t nowNs, const std::string& where)
{
    size_t shared = 0;
    switch (m_config.type)
    {
    case RemoteMemoryType::NoExpansion:
        throw InputError(where + ": a remote memory access, but " + m_config.source +
                         " has memory-type NO_MEMORY_EXPANSION");
    case RemoteMemoryType::PerNpu:
        return ServiceNs(bytes);
    case RemoteMemoryType::PerNode:
        shared = rank / m_config.npusPerNode;
        break;
    case RemoteMemoryType::Pool:
        shared = 0;
        break;
    }
    const uint64_t start = std::max(nowNs, m_busyUntil[shared]);
    m_busyUntil[shared] = start + ServiceNs(bytes);
    return m_busyUntil[shared] - nowNs;
}

} // namespace ns3
