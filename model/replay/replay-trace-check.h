/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_TRACE_CHECK_H
#define MLFABRIC_REPLAY_TRACE_CHECK_H

#include "ns3/comm-group-table.h"
#include "ns3/et-trace.h"

#include <cstdint>
#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * Counts of nodes a replay runs in a degraded way, by description, e.g.
 * "COMM_SEND_NODE without comm_dst, replayed by its duration" -> 12.
 */
using ReplayNotes = std::map<std::string, uint64_t>;

/**
 * \ingroup mlfabric-replay
 * What a rank's trace may use besides itself.
 */
struct ReplayTraceContext
{
    uint32_t rank{0};                      //!< the trace's rank
    uint32_t worldSize{1};                 //!< ranks of the run
    const CommGroupTable* groups{nullptr}; //!< communicator groups (required)
    bool hasRemoteMemory{false};           //!< a remote memory is configured
};

/**
 * \ingroup mlfabric-replay
 * Check, before the replay starts, that every node of a rank's trace can run.
 *
 * Errors (InputError naming the file and node): a device COMM_COLL_NODE without
 * comm_type or comm_size, or with an unknown comm_type, or whose pg_name names an
 * unknown group or one without this rank; a COMM_SEND_NODE or COMM_RECV_NODE whose peer
 * is out of range, whose own side (comm_src of a send, comm_dst of a receive) is not
 * this rank, or that has a peer but no comm_size; a MEM_LOAD_NODE or MEM_STORE_NODE
 * without tensor_size or without a remote memory.
 *
 * Nodes that real traces carry without what the network needs run by their
 * duration_micros instead, and are counted in \p notes: host-side COMM_COLL_NODEs
 * (PyTorch's c10d ops), sends and receives without a peer (PyTorch-converted traces),
 * and node types the schema does not name.
 *
 * \param trace the rank's trace
 * \param context the run
 * \param notes receives the counts of degraded nodes
 */
void CheckReplayTrace(const EtTrace& trace, const ReplayTraceContext& context, ReplayNotes& notes);

/**
 * \ingroup mlfabric-replay
 * \param trace a trace
 * \param node one of its nodes
 * \return "file: node <id>", the place named in messages
 */
std::string DescribeNodePlace(const EtTrace& trace, const EtNode& node);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_TRACE_CHECK_H */
