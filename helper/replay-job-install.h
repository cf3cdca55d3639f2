/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_JOB_INSTALL_H
#define MLFABRIC_REPLAY_JOB_INSTALL_H

#include "ns3/nccl-tuner.h"
#include "ns3/network-backend.h"
#include "ns3/node.h"
#include "ns3/ptr.h"
#include "ns3/remote-memory-model.h"
#include "ns3/replay-job.h"
#include "ns3/system-config.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * What every job of a run is installed with.
 */
struct ReplayInstallSettings
{
    SystemConfig system;                            //!< the run's system configuration
    std::optional<RemoteMemoryConfig> remoteMemory; //!< each job gets its own, if given
    std::vector<NcclDimension> ncclDimensions;      //!< the network's, for the nccl choice
    uint32_t cpuSlots{1};                           //!< host-side operations at once
    uint32_t computeSlots{1};                       //!< device compute nodes at once
    uint32_t commSlots{1};                          //!< collectives and sends at once
    std::vector<bool> localRanks; //!< across processes: the ranks this one runs; empty: all
};

/**
 * \ingroup mlfabric-helper
 * The network as one job sees it: the shared backend itself when the job holds every
 * NPU in order, else a RankMapBackend that puts its ranks on their NPUs.
 * \param network the shared backend
 * \param npus the NPU of each rank of the job
 * \return the job's backend
 */
Ptr<NetworkBackend> MakeJobBackend(Ptr<NetworkBackend> network, const std::vector<uint32_t>& npus);

/**
 * \ingroup mlfabric-helper
 * Give a loaded job its ReplayEngine over its view of the network and an EtReplayApp per
 * rank on its NPU's node, starting at time 0. A job spanning fewer dimensions than the
 * network uses the first entries of each implementation list. Throws InputError, with
 * the job's place, for a system or remote memory the job cannot run or a trace the
 * replay cannot run (ReplayEngine::AddRank).
 * \param job the job, with its inputs, NPUs and dimensions; gets its engine, a new one
 *        unless the caller made one (to set its attributes first)
 * \param network the shared backend
 * \param networkDimensions the network's dimensions
 * \param rankNodes the ns-3 node of every NPU
 * \param settings the run's settings
 */
void InstallReplayJob(ReplayJob& job,
                      Ptr<NetworkBackend> network,
                      const std::vector<uint32_t>& networkDimensions,
                      const std::vector<Ptr<Node>>& rankNodes,
                      const ReplayInstallSettings& settings);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_JOB_INSTALL_H */
