/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-output-format.h"

#include <cinttypes>
#include <cstdio>

namespace ns3
{

uint32_t
HpccHostIp(uint32_t node)
{
    return 0x0b000001u + ((node / 256) << 16) + ((node % 256) << 8);
}

std::string
FormatFctLine(const HpccFctRecord& r)
{
    char line[160];
    std::snprintf(line,
                  sizeof(line),
                  "%08" PRIx32 " %08" PRIx32 " %u %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64,
                  r.sip,
                  r.dip,
                  unsigned{r.sport},
                  unsigned{r.dport},
                  r.bytes,
                  r.startNs,
                  r.fctNs,
                  r.standaloneNs);
    return line;
}

uint64_t
HpccStandaloneFctNs(
    uint64_t baseRttNs, uint64_t bytes, uint32_t mtu, uint32_t headerBytes, uint64_t bottleneckBps)
{
    const uint64_t packets = (bytes + mtu - 1) / mtu;
    const auto wireBits = static_cast<unsigned __int128>(bytes + packets * headerBytes) * 8;
    return baseRttNs + static_cast<uint64_t>(wireBits * 1'000'000'000ULL / bottleneckBps);
}

std::string
FormatPfcLine(uint64_t timeNs, uint32_t node, bool isSwitch, uint32_t ifIndex, bool pause)
{
    return std::to_string(timeNs) + " " + std::to_string(node) + " " + (isSwitch ? "1" : "0") +
           " " + std::to_string(ifIndex) + " " + (pause ? "1" : "0");
}

void
HpccQlenHistogram::Add(uint64_t bytes)
{
    const uint64_t kb = bytes / 1000;
    if (m_counts.size() <= kb)
    {
        m_counts.resize(kb + 1, 0);
    }
    ++m_counts[kb];
}

const std::vector<uint32_t>&
HpccQlenHistogram::GetCounts() const
{
    return m_counts;
}

std::string
HpccQlenHistogram::Format(uint32_t node, uint32_t ifIndex) const
{
    std::string line = std::to_string(node) + " " + std::to_string(ifIndex);
    for (uint32_t c : m_counts)
    {
        line += " " + std::to_string(c);
    }
    return line;
}

} // namespace ns3
