/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_NETWORK_H
#define MLFABRIC_REPLAY_NETWORK_H

#include "ns3/analytical-topology.h"
#include "ns3/cc-setup.h"
#include "ns3/fabric-loader.h"
#include "ns3/failure-schedule.h"
#include "ns3/network-backend.h"
#include "ns3/node.h"
#include "ns3/process-group.h"
#include "ns3/ptr.h"
#include "ns3/replay-network-observer.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Which network model carries a replay's messages.
 */
enum class ReplayBackendKind : uint8_t
{
    Packet,          //!< the packet-level RoCE network (RdmaNetworkBackend)
    Analytical,      //!< ASTRA-sim's congestion-unaware analytical model
    AnalyticalAware, //!< ASTRA-sim's congestion-aware analytical model
    Flow,            //!< flows sharing the routed links max-min fairly (FlowBackend)
    Hybrid,          //!< flow level inside scale-up domains, packet level elsewhere
};

/**
 * \ingroup mlfabric-helper
 * \param name "packet", "analytical", "analytical-aware", "flow" or "hybrid"
 * \return the kind; throws InputError "--backend: ..." for another name
 */
ReplayBackendKind ParseReplayBackendKind(const std::string& name);

/**
 * \ingroup mlfabric-helper
 * \param kind a backend \return its command-line name
 */
std::string ToString(ReplayBackendKind kind);

/**
 * \ingroup mlfabric-helper
 * How to build the network of a replay.
 */
struct ReplayNetworkConfig
{
    std::string fabricPath;                               //!< any format LoadFabric reads
    ReplayBackendKind backend{ReplayBackendKind::Packet}; //!< the model
    uint32_t mtu{4096};                                   //!< packet and flow: payload per packet
    bool qpPerMessage{false};                             //!< packet and flow: one QP per message
    CcSettings cc;                                        //!< packet level: congestion control
    double analyticalGoodput{1.0};     //!< analytical: share of the line rate carrying payload
    std::vector<std::string> failures; //!< packet level: --fail values (ParseFailureSpec)
    bool connectEveryPair{false};      //!< packet level: open every queue pair before the run
    ProcessGroup* processes{nullptr};  //!< packet level: the processes of a distributed run
    std::string partitionPath;         //!< with processes: --partition, "" to derive it
};

/**
 * \ingroup mlfabric-helper
 * A built network: the backend the replay talks to, the observer that reports on it,
 * the ns-3 node of every rank, and the dimensions collectives are decomposed over.
 */
struct ReplayNetwork
{
    LoadedFabric fabric;                             //!< the fabric as read
    Ptr<NetworkBackend> backend;                     //!< the workload-network seam
    std::unique_ptr<ReplayNetworkObserver> observer; //!< the backend's figures and watchers
    std::vector<Ptr<Node>> rankNodes;                //!< node hosting each rank's application
    std::vector<uint32_t> physicalDimensions;        //!< NPUs per dimension, lowest first
    std::string description;                         //!< one line for the report
    Ptr<FailureSchedule> failureSchedule;            //!< packet level with failures: their schedule
    std::string partition;                           //!< across processes: how it was split
    std::vector<bool> localRanks;                    //!< across processes: ranks of this one
};

/**
 * \ingroup mlfabric-helper
 * The dimensions collectives are decomposed over: the fabric's when their sizes
 * multiply to its NPU count, else one dimension of every NPU.
 * \param fabric the fabric
 * \return NPUs per dimension, lowest first
 */
std::vector<uint32_t> ReplayPhysicalDimensions(const Fabric& fabric);

/**
 * \ingroup mlfabric-helper
 * Read the fabric and build the chosen backend over it, with its observer. At packet
 * level the fabric is installed (InstallFabric) with the configured MTU, congestion
 * control and queue-pair mode, and each rank's application will live on its NPU's
 * node; the analytical and flow-level backends get plain nodes. Throws InputError for
 * a bad fabric or settings.
 * \param config what to build
 * \return the network
 */
ReplayNetwork BuildReplayNetwork(const ReplayNetworkConfig& config);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_NETWORK_H */
