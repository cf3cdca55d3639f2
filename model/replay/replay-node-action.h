/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_NODE_ACTION_H
#define MLFABRIC_REPLAY_NODE_ACTION_H

#include "ns3/et-node.h"
#include "ns3/replay-activity.h"

#include <cstdint>
#include <optional>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * What the replay does with a node.
 */
enum class ReplayNodeAction : uint8_t
{
    Instant,    //!< METADATA_NODE, INVALID_NODE: finishes at once
    Compute,    //!< COMP_NODE: duration or roofline
    Memory,     //!< MEM_LOAD_NODE, MEM_STORE_NODE: remote-memory model
    Collective, //!< device COMM_COLL_NODE: through the collectives and the network
    Send,       //!< COMM_SEND_NODE with comm_dst: a network message
    Receive,    //!< COMM_RECV_NODE with comm_src: waits for the matching message
    Duration,   //!< anything else: replays duration_micros
};

/**
 * \ingroup mlfabric-replay
 * \param node a node
 * \return how the replay runs it: host-side COMM_COLL_NODEs, sends without comm_dst,
 *         receives without comm_src and unnamed node types replay their duration
 */
ReplayNodeAction GetReplayNodeAction(const EtNode& node);

/**
 * \ingroup mlfabric-replay
 * \param node a node
 * \param action its GetReplayNodeAction
 * \return the activity it keeps the NPU busy with, if any (host-side nodes count as
 *         CPU whatever they are)
 */
std::optional<ReplayActivityKind> GetReplayActivity(const EtNode& node, ReplayNodeAction action);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_NODE_ACTION_H */
