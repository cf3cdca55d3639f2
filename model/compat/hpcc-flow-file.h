/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_FLOW_FILE_H
#define MLFABRIC_HPCC_FLOW_FILE_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class Fabric;

/**
 * \ingroup mlfabric-compat
 * One line of a flow file of the HPCC ns-3 simulator: a message from one host to
 * another, started at a given time on a queue pair of its own.
 */
struct HpccFlow
{
    uint32_t src{0};     //!< sending host (node id)
    uint32_t dst{0};     //!< receiving host (node id)
    uint8_t pg{3};       //!< priority group (traffic class)
    uint16_t dport{100}; //!< destination port, reported in fct.txt
    uint64_t bytes{0};   //!< message size
    Time start;          //!< start time
    uint32_t line{0};    //!< line of the file
};

/**
 * \ingroup mlfabric-compat
 * Read a flow file: "<count>" on the first line, then one
 * "<src> <dst> <pg> <dport> <size_bytes> <start_time_s>" per flow.
 *
 * Only the announced number of flow lines is read; anything after them is ignored, as
 * the simulator does (its flow_example.txt ends with a description). Start times are
 * seconds with up to picosecond precision. Throws InputError naming the file and line
 * for a missing or malformed count, a line without exactly six columns, a value out of
 * range (pg above 7, dport above 65535, size 0, negative time), a flow from a host to
 * itself, or fewer flow lines than announced.
 * \param path the file
 * \return the flows in file order
 */
std::vector<HpccFlow> ReadHpccFlows(const std::string& path);

/**
 * \ingroup mlfabric-compat
 * Check that every flow runs between two hosts of a fabric.
 * \param flows the flows
 * \param path the flow file, for messages
 * \param fabric the topology
 * \throws InputError "<path>:<line>: ..." for a node that does not exist or is a switch
 */
void CheckHpccFlows(const std::vector<HpccFlow>& flows,
                    const std::string& path,
                    const Fabric& fabric);

/**
 * \ingroup mlfabric-compat
 * \param flows the flows
 * \return the line of the first flow that starts earlier than the flow before it, or 0
 *         when they are in ascending start order (the simulator requires that order)
 */
uint32_t FirstUnsortedFlowLine(const std::vector<HpccFlow>& flows);

} // namespace ns3

#endif /* MLFABRIC_HPCC_FLOW_FILE_H */
