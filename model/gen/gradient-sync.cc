/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gradient-sync.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GradientSync");

GradientSync::GradientSync(GenRankTrace& trace,
                           std::string group,
                           uint32_t groupSize,
                           bool sharded,
                           uint64_t bucketBytes,
                           std::string namePrefix)
    : m_trace(trace)
    , m_group(std::move(group))
    , m_groupSize(groupSize)
    , m_sharded(sharded)
    , m_buckets(bucketBytes)
    , m_prefix(std::move(namePrefix))
{
}

void
GradientSync::GradientReady(uint64_t bytes, uint64_t producer)
{
    if (m_groupSize < 2 || bytes == 0)
    {
        return;
    }
    m_lastProducer = producer;
    if (auto closed = m_buckets.Add(bytes))
    {
        Reduce(*closed, producer);
    }
}

void
GradientSync::Flush()
{
    if (auto closed = m_buckets.Flush())
    {
        Reduce(*closed, *m_lastProducer);
    }
}

void
GradientSync::Reduce(uint64_t bytes, uint64_t producer)
{
    const std::string name = m_prefix + ".bucket" + std::to_string(m_reductions.size());
    if (!m_sharded)
    {
        m_reductions.push_back(m_trace.AddCollective(
            name + ".all_reduce", EtCollectiveType::ALL_REDUCE, bytes, m_group, {producer}));
        return;
    }
    const uint64_t shard = (bytes + m_groupSize - 1) / m_groupSize;
    m_shards.push_back(shard);
    m_reductions.push_back(m_trace.AddCollective(name + ".reduce_scatter",
                                                 EtCollectiveType::REDUCE_SCATTER,
                                                 shard * m_groupSize,
                                                 m_group,
                                                 {producer}));
}

const std::vector<uint64_t>&
GradientSync::GetReductions() const
{
    return m_reductions;
}

std::vector<uint64_t>
GradientSync::GatherParameters(uint64_t step)
{
    std::vector<uint64_t> gathers;
    for (size_t i = 0; i < m_shards.size(); ++i)
    {
        gathers.push_back(
            m_trace.AddCollective(m_prefix + ".bucket" + std::to_string(i) + ".all_gather",
                                  EtCollectiveType::ALL_GATHER,
                                  m_shards[i],
                                  m_group,
                                  {step}));
    }
    return gathers;
}

} // namespace ns3
