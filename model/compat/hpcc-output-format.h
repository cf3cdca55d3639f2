/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_OUTPUT_FORMAT_H
#define MLFABRIC_HPCC_OUTPUT_FORMAT_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-compat
 * \param node a host's node id
 * \return the IPv4 address the HPCC simulator gives it, 11.x.y.1 with x.y = id
 *         (0x0b000001 + (id / 256) << 16 + (id % 256) << 8)
 */
uint32_t HpccHostIp(uint32_t node);

/**
 * \ingroup mlfabric-compat
 * One line of fct.txt: a flow whose last byte was acknowledged.
 */
struct HpccFctRecord
{
    uint32_t sip{0};          //!< source address (HpccHostIp)
    uint32_t dip{0};          //!< destination address
    uint16_t sport{0};        //!< source port
    uint16_t dport{0};        //!< destination port
    uint64_t bytes{0};        //!< flow size
    uint64_t startNs{0};      //!< start time, ns
    uint64_t fctNs{0};        //!< completion time, ns
    uint64_t standaloneNs{0}; //!< completion time alone in the network, ns
};

/**
 * \ingroup mlfabric-compat
 * \param r a record
 * \return "sip dip sport dport size start_ns fct_ns standalone_fct_ns" with the addresses
 *         in 8-digit hex, as the simulator writes it (no newline)
 */
std::string FormatFctLine(const HpccFctRecord& r);

/**
 * \ingroup mlfabric-compat
 * The simulator's standalone completion time of a flow: the base RTT plus its bytes,
 * each packet with a header, at the bottleneck rate.
 * \param baseRttNs base RTT of the pair, ns
 * \param bytes flow size
 * \param mtu payload bytes per packet
 * \param headerBytes header bytes per packet (48 in the simulator: INT excluded)
 * \param bottleneckBps slowest link of the route, bit/s
 * \return baseRttNs + (bytes + ceil(bytes / mtu) headerBytes) 8e9 / bottleneckBps, in ns
 *         rounded down
 */
uint64_t HpccStandaloneFctNs(
    uint64_t baseRttNs, uint64_t bytes, uint32_t mtu, uint32_t headerBytes, uint64_t bottleneckBps);

/**
 * \ingroup mlfabric-compat
 * \param timeNs when the device received the frame, ns
 * \param node node id
 * \param isSwitch true for a switch (node type 1), false for a host (0)
 * \param ifIndex the device number (the simulator counts from 1; 0 is its loopback)
 * \param pause true for a pause (type 1), false for a resume (type 0)
 * \return a line of pfc.txt, "time_ns node type if_index 1|0" (no newline)
 */
std::string FormatPfcLine(
    uint64_t timeNs, uint32_t node, bool isSwitch, uint32_t ifIndex, bool pause);

/**
 * \ingroup mlfabric-compat
 * Queue-length histogram of one switch port, as qlen.txt reports it: how many samples
 * found the port's egress queues (all priorities together) holding [i, i+1) KB of
 * 1000 bytes.
 */
class HpccQlenHistogram
{
  public:
    /** \param bytes the queue length of one sample */
    void Add(uint64_t bytes);
    /** \return counts per KB bin, from 0 to the largest bin seen */
    const std::vector<uint32_t>& GetCounts() const;
    /**
     * \param node switch node id
     * \param ifIndex port number, from 1
     * \return "node port c0 c1 ..." (no newline)
     */
    std::string Format(uint32_t node, uint32_t ifIndex) const;

  private:
    std::vector<uint32_t> m_counts; //!< samples per KB bin
};

} // namespace ns3

#endif /* MLFABRIC_HPCC_OUTPUT_FORMAT_H */
