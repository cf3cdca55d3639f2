/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_INFO_RANK_H
#define MLFABRIC_ET_INFO_RANK_H

#include "ns3/et-node.h"
#include "ns3/et-trace.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * A number of messages and their bytes.
 */
struct EtTraffic
{
    uint64_t count{0}; //!< messages or collectives
    uint64_t bytes{0}; //!< sum of their comm_size
};

/**
 * \ingroup mlfabric-helper
 * One collective as a rank issues it, for matching across the group's members.
 */
struct EtCollectiveCall
{
    EtCollectiveType type{EtCollectiveType::ALL_REDUCE}; //!< comm_type
    uint64_t bytes{0};                                   //!< comm_size
    uint64_t nodeId{0};                                  //!< node id, for messages
};

/**
 * \ingroup mlfabric-helper
 * One point-to-point message as a rank sends or receives it.
 */
struct EtMessage
{
    int64_t src{0};     //!< comm_src
    int64_t dst{0};     //!< comm_dst
    int64_t tag{0};     //!< comm_tag
    uint64_t bytes{0};  //!< comm_size
    uint64_t nodeId{0}; //!< node id, for messages
};

/**
 * \ingroup mlfabric-helper
 * What one rank's trace contains, as et-info reports it.
 */
struct EtRankInfo
{
    uint32_t rank{0};                            //!< the rank
    std::string path;                            //!< its file
    uint64_t nodes{0};                           //!< node count
    uint64_t edges{0};                           //!< dependency edges
    uint64_t roots{0};                           //!< nodes without dependencies
    uint64_t danglingCtrlDeps{0};                //!< ctrl_deps naming absent nodes
    std::map<std::string, uint64_t> nodesByType; //!< node count by type name
    std::map<std::pair<std::string, std::string>, EtTraffic>
        collectives;                //!< by (collective name, pg_name)
    EtTraffic sends;                //!< COMM_SEND nodes
    EtTraffic recvs;                //!< COMM_RECV nodes
    uint64_t computeNodes{0};       //!< COMP nodes
    uint64_t computeMicros{0};      //!< their total duration
    uint64_t criticalPathMicros{0}; //!< longest dependency chain of compute durations
    std::map<std::string, std::vector<EtCollectiveCall>>
        groupCalls;                    //!< collectives by pg_name, in issue order
    std::vector<EtMessage> sent;       //!< sends, in issue order
    std::vector<EtMessage> received;   //!< receives, in issue order
    std::vector<std::string> problems; //!< nodes no replay can run, one line each
};

/**
 * \ingroup mlfabric-helper
 * Summarize one rank's loaded (hence validated) trace.
 *
 * Issue order is the order of a replay in which every node takes no time: among the
 * nodes whose dependencies are done, the one first in the file goes first, as
 * ASTRA-sim's feeder takes the lowest id. The critical path weighs each COMP node by
 * its duration_micros and every other node by 0: the time the rank needs with
 * infinitely fast communication. Problems are recorded, not thrown: a COMM_COLL node
 * without comm_type or comm_size, a send or receive without its peer, tag or size, or
 * whose own end is not this rank.
 *
 * \param trace the rank's trace
 * \param rank its rank
 * \return the summary
 */
EtRankInfo SummarizeEtRank(const EtTrace& trace, uint32_t rank);

/**
 * \ingroup mlfabric-helper
 * \param pgName a collective's pg_name
 * \return the name a report shows: pg_name, or "world" for the default group ("" or "0")
 */
std::string EtGroupLabel(const std::string& pgName);

} // namespace ns3

#endif /* MLFABRIC_ET_INFO_RANK_H */
