/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_RANK_STATS_H
#define MLFABRIC_REPLAY_RANK_STATS_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * What one NPU did during a replay.
 *
 * Busy times are unions of the intervals during which at least one node of the kind
 * ran (see ReplayActivity). ASTRA-sim reports "exposed communication" as
 * finish − compute; GetAstraExposedComm gives that figure, exposedComm the stricter
 * one (communication running while device compute is idle).
 */
struct ReplayRankStats
{
    uint32_t rank{0};             //!< the NPU
    uint64_t nodes{0};            //!< nodes of its trace
    uint64_t nodesDone{0};        //!< nodes that finished
    bool finished{false};         //!< every node finished
    Time finish;                  //!< when the last node finished
    Time compute;                 //!< device compute busy time
    Time comm;                    //!< communication busy time
    Time exposedComm;             //!< communication while device compute is idle
    Time cpu;                     //!< host-side operation busy time
    Time memory;                  //!< remote-memory busy time
    uint64_t computeNodes{0};     //!< device COMP_NODEs run
    uint64_t collectives{0};      //!< collectives run through the network
    uint64_t sends{0};            //!< COMM_SEND_NODEs run through the network
    uint64_t receives{0};         //!< COMM_RECV_NODEs run through the network
    uint64_t memoryAccesses{0};   //!< MEM_LOAD_NODEs and MEM_STORE_NODEs
    uint64_t bytesSent{0};        //!< payload sent, collectives and point-to-point
    uint64_t bytesReceived{0};    //!< payload received, collectives and point-to-point
    uint64_t danglingCtrlDeps{0}; //!< ctrl_deps naming nodes absent from the trace

    /** \return ASTRA-sim's exposed communication: finish time minus compute time */
    Time
    GetAstraExposedComm() const
    {
        return finish - compute;
    }
};

} // namespace ns3

#endif /* MLFABRIC_REPLAY_RANK_STATS_H */
