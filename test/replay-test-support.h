/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Helpers shared by the replay tests: small traces written with EtWriter, ASTRA-sim
// network and system files, and a replay run with sensible defaults.
#ifndef MLFABRIC_REPLAY_TEST_SUPPORT_H
#define MLFABRIC_REPLAY_TEST_SUPPORT_H

#include "et-test-support.h"
#include "latency-premise.h"

#include "ns3/config.h"
#include "ns3/enum.h"
#include "ns3/et-rank-files.h"
#include "ns3/et-writer.h"
#include "ns3/nstime.h"
#include "ns3/replay-run.h"
#include "ns3/switch-pipeline.h"

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace ns3
{
namespace replaytest
{

/** Where the shared ASTRA-sim inputs live. */
inline const std::string kAstra = std::string(MLFABRIC_SHARED_DIR) + "/data/astra-sim/";

/** \return a device compute node of \p micros µs */
inline EtNode
Compute(uint64_t id, uint64_t micros, EtIdList deps = {})
{
    EtNode n;
    n.id = id;
    n.name = "compute";
    n.type = EtNodeType::COMP_NODE;
    n.durationMicros = micros;
    n.SetIsCpuOp(false);
    n.dataDeps = std::move(deps);
    return n;
}

/** \return a device collective of \p bytes on group \p group ("" = all ranks) */
inline EtNode
Collective(uint64_t id,
           EtCollectiveType type,
           uint64_t bytes,
           EtIdList deps = {},
           std::string_view group = "")
{
    EtNode n;
    n.id = id;
    n.name = "collective";
    n.type = EtNodeType::COMM_COLL_NODE;
    n.SetIsCpuOp(false);
    n.SetCommType(type);
    n.SetCommSize(bytes);
    if (!group.empty())
    {
        n.SetPgName(group);
    }
    n.dataDeps = std::move(deps);
    return n;
}

/** \return a send of \p bytes to \p dst with \p tag */
inline EtNode
Send(uint64_t id, int32_t dst, uint64_t bytes, int64_t tag, EtIdList deps = {})
{
    EtNode n;
    n.id = id;
    n.name = "send";
    n.type = EtNodeType::COMM_SEND_NODE;
    n.SetCommDst(dst);
    n.SetCommSize(bytes);
    n.SetCommTag(tag);
    n.dataDeps = std::move(deps);
    return n;
}

/** \return a receive of \p bytes from \p src with \p tag */
inline EtNode
Receive(uint64_t id, int32_t src, uint64_t bytes, int64_t tag, EtIdList deps = {})
{
    EtNode n;
    n.id = id;
    n.name = "recv";
    n.type = EtNodeType::COMM_RECV_NODE;
    n.SetCommSrc(src);
    n.SetCommSize(bytes);
    n.SetCommTag(tag);
    n.dataDeps = std::move(deps);
    return n;
}

/** Write rank \p rank's trace of workload \p prefix. */
inline void
WriteRank(const std::string& prefix, uint32_t rank, const std::vector<EtNode>& nodes)
{
    EtWriter writer(EtRankFilePath(prefix, rank));
    for (const auto& node : nodes)
    {
        writer.AddNode(node);
    }
    writer.Close();
}

/** Write \p text to \p path. */
inline void
WriteText(const std::string& path, const std::string& text)
{
    std::ofstream out(path, std::ios::trunc);
    out << text;
}

/** \return the path of a one-dimensional ASTRA-sim network file written into \p dir */
inline std::string
WriteNetwork(const ettest::ScratchDir& dir,
             const std::string& topology,
             uint32_t npus,
             double gbps,
             double latencyNs)
{
    const std::string path = dir.File(topology + "_" + std::to_string(npus) + ".yml");
    WriteText(path,
              "topology: [ " + topology + " ]\nnpus_count: [ " + std::to_string(npus) +
                  " ]\nbandwidth: [ " + std::to_string(gbps) + " ]\nlatency: [ " +
                  std::to_string(latencyNs) + " ]\n");
    return path;
}

/**
 * \return the path of a system JSON written into \p dir: one implementation for every
 * collective, \p splits chunks, no local reduction cost unless \p localMemBw is given
 */
inline std::string
WriteSystem(const ettest::ScratchDir& dir,
            const std::string& algorithm,
            uint32_t splits,
            const std::string& extra = "")
{
    const std::string path = dir.File("system-" + algorithm + ".json");
    const std::string list = "[\"" + algorithm + "\"]";
    WriteText(path,
              "{\"scheduling-policy\": \"LIFO\", \"endpoint-delay\": 10, "
              "\"active-chunks-per-dimension\": 1, \"preferred-dataset-splits\": " +
                  std::to_string(splits) + ", \"all-reduce-implementation\": " + list +
                  ", \"all-gather-implementation\": " + list +
                  ", \"reduce-scatter-implementation\": " + list +
                  ", \"all-to-all-implementation\": " + list +
                  ", \"collective-optimization\": \"baseline\"" + extra + "}");
    return path;
}

/** \return a run of \p workload on \p fabric with \p backend, no progress lines */
inline ReplayRunConfig
RunConfig(const std::string& workload,
          const std::string& fabric,
          const std::string& system,
          ReplayBackendKind backend = ReplayBackendKind::Packet)
{
    ReplayRunConfig config;
    config.workload = workload;
    config.network.fabricPath = fabric;
    config.network.backend = backend;
    config.systemPath = system;
    return config;
}

/** \return the latest finish over all ranks, ns (picosecond decimals) */
inline double
LastFinishNs(const ReplayResult& result)
{
    double last = 0;
    for (const auto& r : result.ranks)
    {
        last = std::max(last, r.finish.GetPicoSeconds() / 1e3);
    }
    return last;
}

} // namespace replaytest
} // namespace ns3

#endif /* MLFABRIC_REPLAY_TEST_SUPPORT_H */
