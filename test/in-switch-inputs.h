/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The inputs the in-switch reduction tests share: a leaf-spine of eight hosts and a system
// file that names the all-reduce implementation.
#ifndef MLFABRIC_IN_SWITCH_INPUTS_H
#define MLFABRIC_IN_SWITCH_INPUTS_H

#include "replay-test-support.h"

#include <string>

namespace ns3
{
namespace replaytest
{

/**
 * \return the path of a fabric written into \p dir: 8 hosts at 100 Gb/s, 4 under each of
 * two leaves, 400 Gb/s to the spine, 1 us cables, lossless on the \p pfc priorities
 */
inline std::string
ClosOfEightHosts(const ettest::ScratchDir& dir, const std::string& pfc = "[3]")
{
    const std::string path = dir.File("clos.yaml");
    WriteText(path,
              "name: clos8\ndefaults:\n  switch_buffer: 32MiB\n  pfc_priorities: " + pfc +
                  "\nscale_out:\n  topology: clos\n  servers: 8\n  hosts_per_leaf: 4\n"
                  "  oversubscription: 1\n  host_link: {rate: 100Gbps, latency: 1us}\n"
                  "  leaf_link: {rate: 400Gbps, latency: 1us}\n");
    return path;
}

/**
 * \return the path of a system file written into \p dir: all-reduce by \p allReduce, the
 * other collectives by ring or direct, one chunk, 10 ns endpoint delay
 */
inline std::string
AllReduceSystem(const ettest::ScratchDir& dir, const std::string& allReduce)
{
    const std::string path = dir.File("system-" + allReduce + ".json");
    WriteText(path,
              "{\"endpoint-delay\": 10, \"preferred-dataset-splits\": 1, "
              "\"collective-optimization\": \"baseline\", \"all-reduce-implementation\": [\"" +
                  allReduce +
                  "\"], \"reduce-scatter-implementation\": [\"ring\"], "
                  "\"all-gather-implementation\": [\"ring\"], "
                  "\"all-to-all-implementation\": [\"direct\"]}");
    return path;
}

} // namespace replaytest
} // namespace ns3

#endif /* MLFABRIC_IN_SWITCH_INPUTS_H */
